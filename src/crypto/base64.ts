/** Raised when a string is not canonical base64. */
export class InvalidBase64Error extends Error {
  override name = 'InvalidBase64Error';
  constructor(readonly field: string) {
    super(`'${field}' is not a valid base64 string`);
  }
}

/** Standard alphabet, padding optional; Node's own decoder silently skips junk, so check first. */
export const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;

/**
 * Decodes standard base64 (RFC 4648 §4, padding optional), rejecting anything else.
 *
 * @example
 * decodeBase64('aGk=', 'p'); // <Buffer 68 69>
 * decodeBase64('a$b', 'p');  // throws InvalidBase64Error
 * @param field name reported in the error
 */
export function decodeBase64(value: string, field: string): Buffer {
  if (!BASE64_PATTERN.test(value)) throw new InvalidBase64Error(field);
  return Buffer.from(value, 'base64');
}
