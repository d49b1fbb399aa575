import { OAuthError } from './oauth-error.js';

/** The client credentials of a token request and how they were presented. */
export interface ClientCredentials {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly via: 'basic' | 'form';
}

/**
 * Reads the client credentials from HTTP Basic (RFC 6749 §2.3.1, form-urlencoded id and secret) or
 * the form fields; both at once is refused, as §2.3 allows only one method per request.
 *
 * @example
 * clientCredentials('Basic ' + btoa('app:secret'), {}, 'acme-consumers');
 * // { clientId: 'app', clientSecret: 'secret', via: 'basic' }
 * @throws {OAuthError} invalid_request or invalid_client
 */
export function clientCredentials(
  authorization: string | undefined,
  form: Readonly<Record<string, string>>,
  /** The realm a refused Basic authentication names in `WWW-Authenticate`. */
  realm: string,
): ClientCredentials {
  const inForm = form.client_secret !== undefined;
  if (authorization !== undefined && /^basic /i.test(authorization)) {
    if (inForm)
      throw new OAuthError(
        400,
        'invalid_request',
        'client credentials given both by Basic authentication and in the form',
      );
    const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 1) throw new OAuthError(401, 'invalid_client', 'malformed Basic credentials', realm);
    const decode = (part: string) => {
      try {
        return decodeURIComponent(part.replace(/\+/g, ' '));
      } catch {
        return part;
      }
    };
    return { clientId: decode(decoded.slice(0, colon)), clientSecret: decode(decoded.slice(colon + 1)), via: 'basic' };
  }
  if (form.client_id === undefined || form.client_id === '' || !inForm) {
    throw new OAuthError(
      401,
      'invalid_client',
      'client authentication required: client_id and client_secret, or HTTP Basic',
    );
  }
  return { clientId: form.client_id, clientSecret: form.client_secret ?? '', via: 'form' };
}
