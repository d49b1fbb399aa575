import { constants, publicDecrypt, type KeyObject } from 'node:crypto';
import { parseSessionData, SessionDataError, type SessionData } from '../lib/session-data.js';

export { SessionDataError, type SessionData } from '../lib/session-data.js';

/**
 * Reads a QR hand-over (Doc 1, "Decoded QR data"): the `data` parameter of the scanned URL (or the URL
 * itself) is decrypted with the onboarding public key (`GET /getPublicKey`, shipped with the app) by
 * `crypto.publicDecrypt` (RSA PKCS#1 v1.5, one block) into the host to call, the session-scoped API key and
 * the session token. A QR that another server made, or that was altered, does not decrypt.
 *
 * @example
 * const { host, apiKey, sessionToken } = openSessionData(scannedUrl, publicKeyPem);
 * const session = await OnboardingClient.fromSession({ host, apiKey, sessionToken });
 * @throws {SessionDataError} when the URL has no `data`, or it does not decrypt to three items
 */
export function openSessionData(urlOrData: string, publicKey: string | KeyObject): SessionData {
  const data = /^[a-z][a-z0-9+.-]*:/i.test(urlOrData) ? dataParameter(urlOrData) : urlOrData;
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(data)) throw new SessionDataError('the session data is not base64url');
  let plaintext: Buffer;
  try {
    plaintext = publicDecrypt({ key: publicKey, padding: constants.RSA_PKCS1_PADDING }, Buffer.from(data, 'base64url'));
  } catch {
    throw new SessionDataError('the session data does not decrypt with this public key');
  }
  return parseSessionData(plaintext.toString('utf8'));
}

function dataParameter(url: string): string {
  let data: string | null;
  try {
    data = new URL(url).searchParams.get('data');
  } catch {
    throw new SessionDataError('the session URL is not a URL');
  }
  if (data === null || data === '') throw new SessionDataError('the session URL has no data parameter');
  return data;
}
