import { randomSecret, sha256Hex } from '../../crypto/secret-hash.js';
import { AccessDeniedError } from '../../server/access/access-denied.js';
import { clientError } from '../../server/errors/api-error.js';
import { matchCode } from './match-code.js';
import type { SessionContext } from './session-context.js';
import { isSessionApiKey, phoneHash, sameHex } from './session-credentials.js';
import type { ValidateSessionResponse } from './session-schemas.js';

/**
 * Validations one session allows: the first, and two retries from the same phone (a lost answer on a
 * mobile network) as long as no call has used the access token yet. Each retry replaces the access token.
 */
export const MAX_VALIDATIONS = 3;

/** The caller of validateSession as the server sees it: source address and User-Agent. */
export interface PhoneOrigin {
  readonly address: string;
  readonly userAgent: string | undefined;
}

/**
 * Doc 1 endpoint 9: the phone presents the session-scoped API key (`apikey` header) and the `sessionToken`
 * of the QR data, and receives a bearer `accessToken` that opens only this session's calls, for
 * `VERIPORT_SESSION_TTL_SECONDS` or until the session ends. The sessionToken is consumed by one
 * conditional update, so of two phones validating at once exactly one succeeds, whichever replica each
 * reaches. Refusals: 401 no or unknown session key; 403 a sessionToken of another session; 410 expired;
 * 409 already validated (by another phone, or after the access token was used), or superseded. Resolves to
 * the answer and the session's customer (the call's customer scope, for the usage report).
 *
 * @example
 * const { answer } = await validateSession(context, request.headers.apikey, body.sessionToken, { address, userAgent });
 * answer.methodType; // 'enroll'
 */
export async function validateSession(
  ctx: SessionContext,
  apiKey: string | string[] | undefined,
  sessionToken: string,
  phone: PhoneOrigin,
): Promise<{ customer: string; answer: ValidateSessionResponse }> {
  if (typeof apiKey !== 'string' || !isSessionApiKey(apiKey))
    throw new AccessDeniedError('the apikey header must hold the session key of the QR data');
  const apiKeyHash = sha256Hex(apiKey);
  const session = await ctx.sessions.findByApiKey(apiKeyHash);
  if (session === undefined) throw new AccessDeniedError('unknown session key');
  const refuse = async (status: number, why: string) => {
    await ctx.events.record({
      customer: session.customer,
      username: session.username,
      event: 'validateSession',
      outcome: 'refused',
      detail: why,
    });
    return clientError(status, why);
  };
  const tokenHash = sha256Hex(sessionToken);
  if (!sameHex(tokenHash, session.tokenHash))
    throw await refuse(403, 'the sessionToken is not the one of this session');
  const customer = await ctx.customers.find(session.customer);
  if (customer === undefined) throw new AccessDeniedError('customer no longer exists');

  const now = ctx.now();
  const accessToken = randomSecret();
  const phoneId = phoneHash(phone.address, phone.userAgent);
  const validated = await ctx.sessions.validate({
    apiKeyHash,
    tokenHash,
    phoneHash: phoneId,
    accessTokenHash: sha256Hex(accessToken),
    accessExpiresAt: new Date(now.getTime() + ctx.sessionTtlMs),
    now,
    maxValidations: MAX_VALIDATIONS,
  });
  if (validated === undefined) {
    // Read again: the state that refused it, not the one before a racing validation.
    const current = (await ctx.sessions.findByApiKey(apiKeyHash)) ?? session;
    if (current.state === 'superseded') throw await refuse(409, 'a newer QR code replaced this session');
    if (current.state === 'created' && current.expiresAt <= now)
      throw await refuse(410, 'sessionToken expired: ask for a new QR code');
    throw await refuse(409, 'sessionToken already used: ask for a new QR code');
  }
  await ctx.events.record({
    customer: session.customer,
    username: session.username,
    event: 'validateSession',
    outcome: 'success',
    detail: validated.validations > 1 ? `retry ${validated.validations - 1} from the same phone` : undefined,
  });
  const answer = {
    accessToken,
    methodType: validated.method,
    customerName: customer.displayName === '' ? customer.name : customer.displayName,
    customerLogo: customer.logo,
    userName: validated.username,
    email: validated.email,
    matchCode: matchCode(validated.tokenHash, phoneId),
    expiresIn: Math.round(ctx.sessionTtlMs / 1000),
  };
  return { customer: customer.name, answer };
}
