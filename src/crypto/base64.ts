/** Raised when a string is not canonical base64. */
export class InvalidBase64Error extends Error {
  override name = 'InvalidBase64Error';
  constructor(readonly field: string) {
    super(`'${field}' is not a valid base64 string`);
  }
}

// One character outside the standard alphabet. No quantifier, so no backtracking: a search for it is linear and
// uses no stack whatever the length (a `(?:[...]{4})*` pattern overflowed the stack past ~4.47 M characters).
const OUTSIDE_ALPHABET = /[^A-Za-z0-9+/]/;
const PAD = 0x3d; // '='

/**
 * Whether a string is standard base64 (RFC 4648 §4), padding optional: alphabet characters, then at most
 * the padding that completes the last group. Node's own decoder silently skips junk, so check first.
 * Linear in the length and stack-free, for photos of any size.
 *
 * @example
 * isBase64('aGk=');  // true
 * isBase64('aGk');   // true (unpadded)
 * isBase64('a');     // false (a lone character cannot encode a byte)
 * isBase64('a$b=');  // false
 */
export function isBase64(value: string): boolean {
  let end = value.length;
  while (end > 0 && value.length - end < 2 && value.charCodeAt(end - 1) === PAD) end--;
  const padding = value.length - end;
  const tail = end % 4;
  // Unpadded: any tail but a lone character; padded: the padding completes the last group of four.
  if (padding === 0 ? tail === 1 : tail + padding !== 4) return false;
  return !OUTSIDE_ALPHABET.test(padding === 0 ? value : value.slice(0, end));
}

/**
 * Decodes standard base64 (RFC 4648 §4, padding optional), rejecting anything else.
 *
 * @example
 * decodeBase64('aGk=', 'p'); // <Buffer 68 69>
 * decodeBase64('a$b', 'p');  // throws InvalidBase64Error
 * @param field name reported in the error
 */
export function decodeBase64(value: string, field: string): Buffer {
  if (!isBase64(value)) throw new InvalidBase64Error(field);
  return Buffer.from(value, 'base64');
}
