import { createHash, randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// N=2^14, r=8: ~16 MB and tens of ms per check; the token call is the only place that pays it.
const SCRYPT: ScryptOptions = { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;

function scryptAsync(secret: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(secret, salt, KEY_LENGTH, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

/**
 * Hashes a client secret with scrypt and a fresh 16-byte salt, as `scrypt$<salt>$<hash>` (base64).
 *
 * @example
 * const stored = await hashSecret('s3cret');
 * await verifySecret('s3cret', stored); // true
 */
export async function hashSecret(secret: string): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString('base64')}$${(await scryptAsync(secret, salt)).toString('base64')}`;
}

/**
 * Checks a secret against a {@link hashSecret} value in constant time; a malformed value never matches.
 *
 * @example
 * await verifySecret('wrong', await hashSecret('s3cret')); // false
 */
export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(secret, Buffer.from(salt, 'base64'));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * SHA-256 hex of a high-entropy key (API keys): a fast hash suffices when guessing is hopeless.
 *
 * @example
 * sha256Hex('abc'); // 'ba7816bf...'
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/**
 * A random URL-safe secret of `bytes` bytes (256 bits by default).
 *
 * @example
 * randomSecret(); // 43 base64url characters
 */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}
