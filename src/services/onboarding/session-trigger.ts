import { sealSessionData } from '../../crypto/session-data.js';
import { randomSecret, sha256Hex } from '../../crypto/secret-hash.js';
import { SessionDataError } from '../../lib/session-data.js';
import { clientError, invalidValue } from '../../server/errors/api-error.js';
import type { Customer } from '../../store/customers.js';
import type { SessionMethod } from '../../store/onboarding-sessions.js';
import { qrCodeImage } from './qr-code-image.js';
import type { SessionContext } from './session-context.js';
import { newSessionApiKey } from './session-credentials.js';
import type { NotificationChannel } from './session-notifier.js';
import type { TriggerResponse } from './session-schemas.js';

/** What a trigger call asks for, as its route read it. */
export interface TriggerRequest {
  readonly method: SessionMethod;
  readonly username: string;
  /** triggerEnroll's `email`; triggerAuthenticate takes the enrolled user's. */
  readonly email?: string | undefined;
  /** `notifyOptions.notifyByEmail` (enroll) or `notifyByPush` (authenticate). */
  readonly notify: boolean;
  /** The trigger call's own origin, `<protocol>://<host>`: the QR's host unless `VERIPORT_PUBLIC_URL` is set. */
  readonly requestOrigin: string;
}

/** The channel each method notifies over (Doc 1: triggerEnroll's notifyByEmail, triggerAuthenticate's notifyByPush). */
const CHANNEL: Readonly<Record<SessionMethod, NotificationChannel>> = { enroll: 'email', authenticate: 'push' };

/**
 * Doc 1 endpoints 7 and 8: opens a QR hand-over session of one user for the customer's portal. The session
 * holds a single-use `sessionToken` and a session-scoped API key, both 256 random bits, stored only hashed,
 * valid for `VERIPORT_SESSION_TTL_SECONDS`; a still unscanned session of the same user and method is
 * superseded (the portal refreshes its QR code by triggering again). The QR code holds the
 * `sessionCallbackURL`, whose `data` is `host&apikey&sessionToken` encrypted with the onboarding private
 * key. Enrollment refuses an enrolled user (409); authentication an unknown one (404). With a notification
 * asked for, the link is also sent; a notice that could not be sent leaves the session standing and says why
 * in `errorSummary`.
 *
 * @example
 * const answer = await triggerSession(context, customer, {
 *   method: 'enroll', username: 'alice', email: 'alice@example.com', notify: true, requestOrigin: 'https://id.acme.example',
 * });
 * answer.status; // 'SUCCESS'
 */
export async function triggerSession(
  ctx: SessionContext,
  customer: Customer,
  request: TriggerRequest,
): Promise<TriggerResponse> {
  const { method, username } = request;
  const event = method === 'enroll' ? 'triggerEnroll' : 'triggerAuthenticate';
  const user = await ctx.users.find(customer.name, username);
  const refuse = async (status: number, why: string) => {
    await ctx.events.record({ customer: customer.name, username, event, outcome: 'refused', detail: why });
    return clientError(status, why);
  };
  let email: string;
  if (method === 'enroll') {
    // Re-enrollment asks for the user's registration code or face, which the portal does not have.
    if (user !== undefined)
      throw await refuse(409, 'the user is enrolled already: authenticate them, or re-enroll from their app');
    email = request.email ?? '';
    if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw invalidValue("field 'email' must be an e-mail address");
  } else {
    if (user === undefined) throw await refuse(404, 'no enrolled user of this username');
    email = user.email;
  }

  const host = ctx.publicUrl ?? request.requestOrigin;
  const sessionToken = randomSecret();
  const apiKey = newSessionApiKey();
  let data: string;
  try {
    data = sealSessionData(ctx.dataKey, { host, apiKey, sessionToken });
  } catch (error) {
    if (error instanceof SessionDataError)
      throw invalidValue(`the host (${host.length} characters) does not fit the QR data; set VERIPORT_PUBLIC_URL`);
    throw error;
  }
  const url = new URL(ctx.callbackUrl ?? `${host}/capture`);
  url.searchParams.set('data', data);
  const sessionCallbackURL = url.toString();
  const qrcodeImage = await qrCodeImage(sessionCallbackURL);

  const now = ctx.now();
  const expiresAt = new Date(now.getTime() + ctx.sessionTtlMs);
  await ctx.sessions.create({
    tokenHash: sha256Hex(sessionToken),
    customer: customer.name,
    username,
    email,
    method,
    apiKeyHash: sha256Hex(apiKey),
    expiresAt,
    now,
  });
  await ctx.events.record({ customer: customer.name, username, event, outcome: 'success', detail: 'QR session' });

  let errorSummary: string | null = null;
  if (request.notify) {
    const notifier = ctx.notifiers[CHANNEL[method]];
    const outcome = await notifier.send({
      customer: customer.name,
      customerName: customer.displayName === '' ? customer.name : customer.displayName,
      username,
      email,
      method,
      url: sessionCallbackURL,
      expiresAt,
    });
    await ctx.events.record({
      customer: customer.name,
      username,
      event: `notify-${notifier.channel}`,
      outcome: outcome.sent ? 'success' : 'failure',
      detail: outcome.sent ? undefined : outcome.reason,
    });
    if (!outcome.sent)
      errorSummary = `notification not sent: ${outcome.reason}; the session stands: show the QR code instead`;
  }
  return { status: 'SUCCESS', sessionCallbackURL, qrcodeImage, sessionToken, errorSummary };
}
