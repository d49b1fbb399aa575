import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sha256Hex } from '../../crypto/secret-hash.js';
import type { CheckIssuedCredentials } from '../../server/access/credentials.js';
import { clientError } from '../../server/errors/api-error.js';
import type { OnboardingSession, SessionMethod, SessionState } from '../../store/onboarding-sessions.js';
import { sessionAccessVerifier } from './session-access.js';
import type { SessionContext } from './session-context.js';
import type { GuidanceQuota } from './guidance-quota.js';
import { sameHex } from './session-credentials.js';

/** What a call made with a session's credentials may do, and what its answer moves the session to. */
interface SessionRule {
  /** The method the session must hand over; `any` for the public key. */
  readonly method: SessionMethod | 'any';
  /** Why the body is not this session's (403), or undefined. */
  readonly check?: (ctx: SessionContext, session: OnboardingSession, body: unknown) => Promise<string | undefined>;
  /** After a 200: what the session records of the answer. */
  readonly after?: (ctx: SessionContext, session: OnboardingSession, answer: unknown) => Promise<unknown>;
}

/** The enrollmentToken / authToken of the body must be the one this session's enroll / authenticate issued. */
const runsSessionFlow =
  (field: 'enrollmentToken' | 'reEnrollmentToken' | 'authToken') =>
  (_ctx: SessionContext, session: OnboardingSession, body: unknown): Promise<string | undefined> => {
    const token = textField(body, field);
    const ours =
      token !== undefined && session.flowTokenHash !== undefined && sameHex(sha256Hex(token), session.flowTokenHash);
    return Promise.resolve(ours ? undefined : `the ${field} is not the one of this session`);
  };

/** Records the token an answer issued as the session's flow. */
const bindsFlow =
  (field: 'enrollmentToken' | 'authToken') => (ctx: SessionContext, session: OnboardingSession, answer: unknown) => {
    const token = textField(answer, field);
    return token === undefined
      ? Promise.resolve()
      : ctx.sessions.bindFlow(session.customer, session.tokenHash, sha256Hex(token));
  };

/** Moves the session by the status field of a face step's answer: 2 complete, 0 failed, else a retry. */
const settlesBy =
  (field: 'enrollmentStatus' | 'authStatus') => (ctx: SessionContext, session: OnboardingSession, answer: unknown) => {
    const status = numberField(answer, field);
    const to: SessionState = status === 2 ? 'complete' : status === 0 ? 'failed' : 'face-captured';
    return ctx.sessions.advance(session.customer, session.tokenHash, to);
  };

/** Moves the session by a device check's status: 2 complete (authentication), 0 failed; review (1) leaves it. */
const settlesDeviceCheck =
  (field: 'enrollmentStatus' | 'authStatus') => (ctx: SessionContext, session: OnboardingSession, answer: unknown) => {
    const status = numberField(answer, field);
    if (status === 0) return ctx.sessions.advance(session.customer, session.tokenHash, 'failed');
    if (field === 'authStatus' && status === 2)
      return ctx.sessions.advance(session.customer, session.tokenHash, 'complete');
    return Promise.resolve();
  };

const advancesTo = (to: SessionState) => (ctx: SessionContext, session: OnboardingSession) =>
  ctx.sessions.advance(session.customer, session.tokenHash, to);

const authenticate: SessionRule = {
  method: 'authenticate',
  // A registration code of another user of the customer would start an authentication of that user.
  async check(ctx, session, body) {
    const code = textField(body, 'registrationCode');
    const holder =
      code === undefined ? undefined : await ctx.users.findByRegistrationCode(session.customer, sha256Hex(code));
    return holder === undefined || holder.username === session.username
      ? undefined // an unknown code is the flow's own 403
      : "the registrationCode is not the session user's";
  },
  after: bindsFlow('authToken'),
};
const verifyDevice: SessionRule = {
  method: 'authenticate',
  check: runsSessionFlow('authToken'),
  after: advancesTo('device-verified'),
};
const verifyFace: SessionRule = {
  method: 'authenticate',
  check: runsSessionFlow('authToken'),
  after: settlesBy('authStatus'),
};
const checkAuthenticationDevice: SessionRule = {
  method: 'authenticate',
  check: runsSessionFlow('authToken'),
  after: settlesDeviceCheck('authStatus'),
};

/** Every route a session's credentials open, by route template; any other is refused. */
const RULES: ReadonlyMap<string, SessionRule> = new Map<string, SessionRule>([
  ['/getPublicKey', { method: 'any' }],
  [
    '/onboarding/enrollment/enroll',
    {
      method: 'enroll',
      check: (_ctx, session, body) =>
        Promise.resolve(
          textField(body, 'username') === session.username ? undefined : 'the username is not the session user',
        ),
      after: bindsFlow('enrollmentToken'),
    },
  ],
  [
    '/onboarding/enrollment/adddevice',
    { method: 'enroll', check: runsSessionFlow('enrollmentToken'), after: advancesTo('device-added') },
  ],
  [
    '/onboarding/enrollment/addFace',
    { method: 'enroll', check: runsSessionFlow('enrollmentToken'), after: settlesBy('enrollmentStatus') },
  ],
  // The liveness challenge of the face step (issue 16), for the session's own flow only.
  ['/onboarding/enrollment/challenge', { method: 'enroll', check: runsSessionFlow('enrollmentToken') }],
  ['/onboarding/authentication/challenge', { method: 'authenticate', check: runsSessionFlow('authToken') }],
  // Doc 1 endpoints 10-12: the QR-flow paths, and the client-initiated ones, which a phone may use alike.
  ['/authenticate', authenticate],
  ['/verifyDevice', verifyDevice],
  ['/verifyFace', verifyFace],
  ['/onboarding/authentication/authenticate', authenticate],
  ['/onboarding/authentication/verifyDevice', verifyDevice],
  ['/onboarding/authentication/verifyFace', verifyFace],
  // The device-security profile (Doc 1 endpoints 6, 13): the collector post for either method, each check
  // only for the session's own enrollment or authentication.
  ['/onboarding/deviceProfile/signals', { method: 'any' }],
  [
    '/onboarding/enrollment/deviceProfile/checkDevice',
    { method: 'enroll', check: runsSessionFlow('reEnrollmentToken'), after: settlesDeviceCheck('enrollmentStatus') },
  ],
  ['/onboarding/authentication/deviceProfile/checkDevice', checkAuthenticationDevice],
]);

/**
 * Confines the calls made with a QR session's credentials (session-access.ts) to that session (RFC 10027:
 * limited scope): only the calls of its method, only for its user (enroll's `username`, authenticate's
 * `registrationCode`), only with the enrollmentToken / authToken the session itself started (403
 * otherwise); and records the session's progress from each answer (started, device-added,
 * device-verified, face-captured, complete, failed), which the portal reads. Calls with a customer's own
 * credentials pass untouched. Register in the {@link requireAccess} scope, before its routes.
 *
 * @example
 * requireAccess(scope, verifyAccess, sessionAccessVerifier(sessions));
 * confineToSession(scope, sessions);
 */
export function confineToSession(scope: FastifyInstance, ctx: SessionContext): void {
  const ruleOf = (request: FastifyRequest) => RULES.get(request.routeOptions.url ?? '');
  scope.addHook('preHandler', async (request) => {
    const session = request.onboardingSession;
    if (session === null) return;
    const rule = ruleOf(request);
    const why =
      rule === undefined
        ? 'this call is not part of a QR session'
        : rule.method !== 'any' && rule.method !== session.method
          ? `this session hands over ${session.method}, not this call`
          : await rule.check?.(ctx, session, request.body);
    if (why === undefined) return;
    await ctx.events.record({
      customer: session.customer,
      username: session.username,
      event: `session ${request.routeOptions.url ?? request.url.split('?')[0] ?? ''}`,
      outcome: 'refused',
      detail: why,
    });
    throw clientError(403, why);
  });
  scope.addHook('preSerialization', async (request, reply, payload: unknown) => {
    const session = request.onboardingSession;
    if (session !== null && reply.statusCode === 200) await ruleOf(request)?.after?.(ctx, session, payload);
    return payload;
  });
}

/**
 * The routes of other services that a session's credentials open, and in which states: only the capture
 * app's live guidance (face liveness's `/analyze`, autocapture feedback on preview frames), once the session
 * is at its face step. Any other route of another service refuses the session's key as it always did (401).
 */
const OTHER_SERVICE_RULES: ReadonlyMap<string, readonly SessionState[]> = new Map([
  ['/face-liveness/analyze', ['device-added', 'device-verified', 'face-captured']],
]);

/**
 * The check a QR session's credentials pass on the other services' routes (the server runs it before the
 * customer's credential check, `issuedCredentials` of the service definition): on a route of
 * {@link OTHER_SERVICE_RULES}, a valid session key and accessToken (session-access.ts: 401 otherwise) act
 * for the session's customer while the session is at its face step (403 before it, recorded in the audit
 * log), for at most `guidance.max` frames of the session (429 after them, the first refusal audit-logged).
 * Elsewhere, and for any other key, it answers undefined: the customer's check then refuses a session key (401).
 *
 * @example
 * onboardingService.issuedCredentials = (deps) => sessionCallerOnOtherServices(context, guidanceQuota(120));
 * await check(request); // { kind: 'customer', customer: 'acme' } for the session's /face-liveness/analyze
 */
export function sessionCallerOnOtherServices(
  ctx: Pick<SessionContext, 'sessions' | 'customers' | 'events' | 'now'>,
  guidance: GuidanceQuota,
): CheckIssuedCredentials {
  const verifySession = sessionAccessVerifier(ctx);
  return async (request) => {
    const route = request.routeOptions.url ?? '';
    const states = OTHER_SERVICE_RULES.get(route);
    if (states === undefined) return undefined;
    const access = await verifySession(request);
    if (access === undefined) return undefined;
    const { session } = access;
    if (!states.includes(session.state)) {
      const why = `${route} opens to a QR session at its face step only (after adddevice or verifyDevice)`;
      await ctx.events.record({
        customer: session.customer,
        username: session.username,
        event: `session ${route}`,
        outcome: 'refused',
        detail: why,
      });
      throw clientError(403, why);
    }
    const counted = guidance.take(session.tokenHash, session.accessExpiresAt ?? session.expiresAt);
    if (counted !== 'granted') {
      const why = `${route}: this QR session's ${guidance.max} live-guidance frames are used up; take the photos`;
      // The first refusal only: a client that keeps sending would otherwise fill the audit log.
      if (counted === 'exhausted')
        await ctx.events.record({
          customer: session.customer,
          username: session.username,
          event: `session ${route}`,
          outcome: 'refused',
          detail: why,
        });
      throw clientError(429, why);
    }
    return { kind: 'customer', customer: session.customer };
  };
}

/** A string member of a (validated) body or answer, or undefined. */
function textField(value: unknown, field: string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const member: unknown = Reflect.get(value, field);
  return typeof member === 'string' ? member : undefined;
}

/** A number member of an answer, or undefined. */
function numberField(value: unknown, field: string): number | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const member: unknown = Reflect.get(value, field);
  return typeof member === 'number' ? member : undefined;
}
