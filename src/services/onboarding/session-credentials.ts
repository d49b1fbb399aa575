import { timingSafeEqual } from 'node:crypto';
import { randomSecret, sha256Hex } from '../../crypto/secret-hash.js';

/**
 * The start of every session-scoped API key. A customer's keys are `<8-character id>.<secret>`, an admin
 * key starts `veriport_admin_`: a 9-character prefix is neither, so the key's form says which check it gets,
 * and a session key never opens a customer's or the biometric services' calls (their lookups find no such id).
 */
export const SESSION_API_KEY_PREFIX = 'qrsession.';

/**
 * A fresh session-scoped API key: the prefix and 256 random bits.
 *
 * @example
 * newSessionApiKey(); // 'qrsession.' + 43 base64url characters
 */
export function newSessionApiKey(): string {
  return `${SESSION_API_KEY_PREFIX}${randomSecret()}`;
}

/**
 * Whether an `apikey` header value has the session-scoped key's form.
 *
 * @example
 * isSessionApiKey('qrsession.Hk3...'); // true
 * isSessionApiKey('a1b2c3d4.secret'); // false: a customer's key
 */
export function isSessionApiKey(value: string): boolean {
  return value.startsWith(SESSION_API_KEY_PREFIX) && value.length > SESSION_API_KEY_PREFIX.length;
}

/**
 * Who validated a session, as far as the server can tell a phone: its source address and User-Agent,
 * hashed (neither is kept). Only the retry allowance of validateSession and the match code use it.
 *
 * @example
 * phoneHash('203.0.113.7', 'Mozilla/5.0 (Linux; Android 14) ...'); // 64 hex digits
 */
export function phoneHash(address: string, userAgent: string | undefined): string {
  return sha256Hex(`${address}\n${userAgent ?? ''}`);
}

/**
 * Two SHA-256 hex digests compared in constant time (a stored hash against the hash of what was presented).
 *
 * @example
 * sameHex(sha256Hex(presented), session.accessTokenHash); // true for the session's token
 */
export function sameHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && left.length > 0 && timingSafeEqual(left, right);
}
