import { ApiError, clientError } from '../errors/api-error.js';

/**
 * A call without acceptable credentials: 401 in the service's error style, with the `WWW-Authenticate:
 * Bearer` challenge (RFC 6750 §3). The reason tells the caller what to fix and never holds a secret: no
 * token, key or claim value is repeated in it.
 */
export class AccessDeniedError extends ApiError {
  override name = 'AccessDeniedError';
  constructor(reason: string) {
    super(401, 401, `unauthorized: ${reason}`, { 'www-authenticate': 'Bearer' });
  }
}

/**
 * The 403 of an admin-only call made with a customer's credentials; `what` names the call, never a value.
 *
 * @example
 * if (!request.adminAccess) throw adminOnly('shutdown');
 */
export function adminOnly(what: string): ApiError {
  return clientError(
    403,
    `${what} is an operator call: send the operator's admin key (apikey: veriport_admin_...); a customer's credentials are not enough`,
  );
}
