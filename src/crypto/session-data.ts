import { constants, privateEncrypt, type KeyObject } from 'node:crypto';
import { formatSessionData, SessionDataError, type SessionData } from '../lib/session-data.js';

/** PKCS#1 v1.5 padding takes 11 bytes of the one RSA block. */
const PKCS1_PADDING_BYTES = 11;

/**
 * The most bytes of `host&apikey&sessionToken` one block of `privateKey` holds (modulus bytes - 11):
 * 245 for RSA-2048, 373 for the generated RSA-3072 keys.
 *
 * @example
 * sessionDataCapacity(pair.privateKey); // 373
 */
export function sessionDataCapacity(privateKey: KeyObject): number {
  const bits = privateKey.asymmetricKeyDetails?.modulusLength;
  if (privateKey.asymmetricKeyType !== 'rsa' || bits === undefined) throw new Error('the session data key must be RSA');
  return Math.floor(bits / 8) - PKCS1_PADDING_BYTES;
}

/**
 * The QR URL's `data` parameter (Doc 1): `host&apikey&sessionToken` encrypted with the onboarding private key
 * in one RSA block with PKCS#1 v1.5 padding (block type 1, what `crypto.privateEncrypt` writes and
 * `crypto.publicDecrypt` with the `GET /getPublicKey` key undoes), base64url without padding. Anyone with
 * the public key can read it: it proves the QR came from this server, it does not hide its content.
 *
 * @example
 * const data = sealSessionData(keys.key('onboarding').privateKey, { host, apiKey, sessionToken });
 * @throws {SessionDataError} when the items hold `&` or are too long for one block
 */
export function sealSessionData(privateKey: KeyObject, data: SessionData): string {
  const plaintext = Buffer.from(formatSessionData(data), 'utf8');
  const capacity = sessionDataCapacity(privateKey);
  if (plaintext.length > capacity)
    throw new SessionDataError(`the session data takes ${plaintext.length} bytes; one RSA block holds ${capacity}`);
  return privateEncrypt({ key: privateKey, padding: constants.RSA_PKCS1_PADDING }, plaintext).toString('base64url');
}
