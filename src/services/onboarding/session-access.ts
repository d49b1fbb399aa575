import type { FastifyRequest } from 'fastify';
import { sha256Hex } from '../../crypto/secret-hash.js';
import { AccessDeniedError } from '../../server/access/access-denied.js';
import { bearerTokenOf } from '../../server/access/access-token.js';
import type { Customer } from '../../store/customers.js';
import { ACTIVE_SESSION_STATES, type OnboardingSession } from '../../store/onboarding-sessions.js';
import type { SessionContext } from './session-context.js';
import { isSessionApiKey, sameHex } from './session-credentials.js';

/** The customer and the QR session whose credentials a call carried. */
export interface SessionAccess {
  readonly customer: Customer;
  readonly session: OnboardingSession;
}

/**
 * Checks a call made with a QR session's credentials; undefined when the `apikey` is not a session key
 * (the customer's own credentials are checked instead).
 */
export type VerifySessionAccess = (request: FastifyRequest) => Promise<SessionAccess | undefined>;

/**
 * Builds the check of the phone's calls after validateSession: `apikey` the session-scoped key of the QR
 * data, `Authorization: Bearer` the accessToken validateSession issued for it, the session validated and not
 * ended (complete, failed), the access token unexpired, the customer still there. Anything else is 401,
 * before the body is read. Which calls and whose data the session may reach is session-confinement.ts's.
 *
 * @example
 * const verifySession = sessionAccessVerifier(context);
 * const access = await verifySession(request); // undefined for a customer's own key; throws AccessDeniedError
 */
export function sessionAccessVerifier(
  ctx: Pick<SessionContext, 'sessions' | 'customers' | 'now'>,
): VerifySessionAccess {
  return async (request) => {
    const { apikey } = request.headers;
    if (typeof apikey !== 'string' || !isSessionApiKey(apikey)) return undefined;
    const bearer = bearerTokenOf(request.headers.authorization);
    if (bearer === undefined)
      throw new AccessDeniedError('missing bearer token: send the accessToken of validateSession');
    const session = await ctx.sessions.findByApiKey(sha256Hex(apikey));
    if (session === undefined) throw new AccessDeniedError('unknown session key');
    if (session.accessTokenHash === undefined || !sameHex(sha256Hex(bearer), session.accessTokenHash))
      throw new AccessDeniedError("the bearer token is not this session's accessToken (validateSession issues it)");
    if (!(ACTIVE_SESSION_STATES as readonly string[]).includes(session.state))
      throw new AccessDeniedError(`the session has ended (${session.state})`);
    if (session.accessExpiresAt === undefined || session.accessExpiresAt <= ctx.now())
      throw new AccessDeniedError('the session has expired: ask for a new QR code');
    const customer = await ctx.customers.find(session.customer);
    if (customer === undefined) throw new AccessDeniedError('customer no longer exists');
    // From the first call on, the sessionToken allows no retried validation (session-validation.ts).
    if (!session.accessUsed) await ctx.sessions.markAccessUsed(session.customer, session.tokenHash);
    return { customer, session };
  };
}
