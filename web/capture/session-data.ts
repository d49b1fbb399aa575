import { parseSessionData, SessionDataError, type SessionData } from '../../src/lib/session-data.js';
import { fromBase64 } from '../shared/bytes.js';

export { SessionDataError, type SessionData };

/**
 * The onboarding public key the capture page carries (SPKI, base64 DER, put in the page by the server that
 * serves it: the app "ships with" the key, Doc 1), imported for RSA-OAEP-SHA-256: the key that seals the frames.
 *
 * @example
 * const key = await importOnboardingKey(document.querySelector('meta[name=veriport-onboarding-key]').content);
 */
export function importOnboardingKey(spkiBase64: string): Promise<CryptoKey> {
  return crypto.subtle.importKey('spki', fromBase64(spkiBase64), { name: 'RSA-OAEP', hash: 'SHA-256' }, true, [
    'encrypt',
  ]);
}

/**
 * Reads a QR hand-over link as the SDK's `openSessionData` does (src/client/session-data.ts): the `data`
 * parameter, base64url, is one RSA block the server encrypted with its private key under PKCS#1 v1.5 padding
 * (block type 1); the public key undoes it. WebCrypto has no RSA public-key decryption, so it is computed
 * here: m = c^e mod n (BigInt; n and e read from the key's JWK), then the padding `00 01 FF…FF 00` (at least
 * 8 FF) is checked and removed. Nothing secret is computed (the key is public), so constant time is moot.
 *
 * @example
 * const { host, apiKey, sessionToken } = await openSessionData(location.href, onboardingKey);
 * @throws {SessionDataError} when the link has no `data`, or it does not decrypt to the three items
 */
export async function openSessionData(url: string, publicKey: CryptoKey): Promise<SessionData> {
  let data: string | null;
  try {
    data = new URL(url).searchParams.get('data');
  } catch {
    throw new SessionDataError('the session link is not a URL');
  }
  if (data === null || data === '')
    throw new SessionDataError('the link has no data parameter: scan the QR code again');
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(data)) throw new SessionDataError('the session data is not base64url');
  const jwk = await crypto.subtle.exportKey('jwk', publicKey);
  if (jwk.n === undefined || jwk.e === undefined) throw new SessionDataError('the public key is not an RSA key');
  const modulus = fromBase64(jwk.n);
  const cipher = fromBase64(data);
  const n = toBigInt(modulus);
  const c = toBigInt(cipher);
  if (cipher.length !== modulus.length || c >= n)
    throw new SessionDataError('the session data does not decrypt with this public key');
  const block = fromBigInt(modPow(c, toBigInt(fromBase64(jwk.e)), n), modulus.length);
  const text = unpadType1(block);
  try {
    return parseSessionData(new TextDecoder('utf-8', { fatal: true }).decode(text));
  } catch (error) {
    if (error instanceof SessionDataError) throw error;
    throw new SessionDataError('the session data is not UTF-8 text');
  }
}

/** The message of a PKCS#1 v1.5 block type 1 (RFC 8017 §7.2.2, as for signatures: 00 01 PS 00 M). */
function unpadType1(block: Uint8Array): Uint8Array {
  const refuse = () => new SessionDataError('the session data does not decrypt with this public key');
  if (block[0] !== 0 || block[1] !== 1) throw refuse();
  let i = 2;
  while (i < block.length && block[i] === 0xff) i++;
  if (i - 2 < 8 || block[i] !== 0) throw refuse();
  return block.subarray(i + 1);
}

/** base^exponent mod modulus by square-and-multiply. */
function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
    e >>= 1n;
  }
  return result;
}

/** Big-endian bytes to an integer. */
function toBigInt(bytes: Uint8Array): bigint {
  let hex = '0x0';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return BigInt(hex);
}

/** An integer to `length` big-endian bytes. */
function fromBigInt(value: bigint, length: number): Uint8Array {
  const hex = value.toString(16).padStart(length * 2, '0');
  if (hex.length > length * 2) throw new SessionDataError('the session data does not decrypt with this public key');
  return Uint8Array.from({ length }, (_, i) => parseInt(hex.slice(2 * i, 2 * i + 2), 16));
}
