/** Byte and text conversions the web apps need (the browser has no Buffer). */

/**
 * Standard base64 of bytes (the envelope's fields, frame data).
 *
 * @example
 * toBase64(new Uint8Array([1, 2, 3])); // 'AQID'
 */
export function toBase64(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode takes its arguments on the stack.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/**
 * base64url without padding (signatures as verifyDevice takes them).
 *
 * @example
 * toBase64Url(new Uint8Array([251, 255])); // '-_8'
 */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * Bytes of standard base64 or base64url, with or without padding.
 *
 * @example
 * fromBase64('-_8'); // Uint8Array [251, 255]
 * @throws {Error} for text that is not base64
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) throw new Error('not base64');
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, '='));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The UTF-8 bytes of a string. */
export function utf8(text: string): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(text);
}
