import { sha256Hex } from '../../crypto/secret-hash.js';
import { clientError } from '../../server/errors/api-error.js';
import type { Customer } from '../../store/customers.js';
import { ACTIVE_SESSION_STATES } from '../../store/onboarding-sessions.js';
import { matchCode } from './match-code.js';
import type { SessionContext } from './session-context.js';
import type { SessionStatusResponse } from './session-schemas.js';

/**
 * The portal's view of a QR session it triggered (an extension of Doc 1, `POST /b2c/proxy/sessionStatus`):
 * its state (created, scanned, started, device-added, device-verified, face-captured, complete, failed,
 * superseded, or expired when its token or access ran out unfinished) and, once a phone validated it, the
 * match code that phone shows, so the operator can check it is the user's. Another customer's session, or
 * an unknown token, is 404.
 *
 * @example
 * const { state, matchCode } = await sessionStatus(context, customer, body.sessionToken);
 */
export async function sessionStatus(
  ctx: SessionContext,
  customer: Customer,
  sessionToken: string,
): Promise<SessionStatusResponse> {
  const session = await ctx.sessions.find(customer.name, sha256Hex(sessionToken));
  if (session === undefined) throw clientError(404, 'unknown sessionToken');
  const now = ctx.now();
  const end = session.accessExpiresAt ?? session.expiresAt;
  const open = session.state === 'created' || (ACTIVE_SESSION_STATES as readonly string[]).includes(session.state);
  return {
    status: 'SUCCESS',
    methodType: session.method,
    userName: session.username,
    state: open && end <= now ? 'expired' : session.state,
    matchCode: session.phoneHash === undefined ? null : matchCode(session.tokenHash, session.phoneHash),
    expiresAt: end.toISOString(),
    errorSummary: null,
  };
}
