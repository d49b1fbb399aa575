import type { FastifyInstance } from 'fastify';

/** The media type of the token request (RFC 6749 §4.4.2). */
export const FORM_MEDIA_TYPE = 'application/x-www-form-urlencoded';

/**
 * Whether a `Content-Type` header names the form media type, whatever its case and parameters.
 *
 * @example
 * isFormEncoded('application/x-www-form-urlencoded; charset=UTF-8'); // true
 * isFormEncoded('application/json'); // false
 */
export function isFormEncoded(contentType: string | undefined): boolean {
  return contentType?.split(';', 1)[0]?.trim().toLowerCase() === FORM_MEDIA_TYPE;
}

/**
 * Accepts `application/x-www-form-urlencoded` bodies in the calling scope, parsed into a flat
 * string record (the last value wins for a repeated field). Only the token call is form-encoded.
 *
 * @example
 * registerFormBody(scope);
 */
export function registerFormBody(scope: FastifyInstance): void {
  scope.addContentTypeParser(FORM_MEDIA_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))));
  });
}
