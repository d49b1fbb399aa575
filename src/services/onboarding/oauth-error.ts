import type { FastifyReply } from 'fastify';

/** The RFC 6749 §5.2 error codes the token endpoint answers with, and RFC 8628's `slow_down` for its 429. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unauthorized_client'
  | 'slow_down';

/** A token-endpoint failure, rendered as `{"error","error_description"}` rather than the coded style. */
export class OAuthError extends Error {
  override name = 'OAuthError';
  constructor(
    readonly statusCode: number,
    readonly error: OAuthErrorCode,
    readonly description: string,
    /** Set when the client authenticated with HTTP Basic: a 401 must then name the scheme (§5.2). */
    readonly basicRealm?: string,
  ) {
    super(description);
  }
}

/**
 * Sends the error as RFC 6749 §5.2 JSON, with `WWW-Authenticate` when Basic auth was refused.
 *
 * @example
 * return sendOAuthError(reply, new OAuthError(400, 'invalid_scope', "scope must be 'openid'"));
 */
export function sendOAuthError(reply: FastifyReply, error: OAuthError): FastifyReply {
  if (error.statusCode === 401 && error.basicRealm !== undefined)
    reply.header('www-authenticate', `Basic realm="${error.basicRealm}"`);
  // Token responses and errors must not be cached (§5.1).
  return reply
    .code(error.statusCode)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .type('application/json')
    .send({ error: error.error, error_description: error.description });
}
