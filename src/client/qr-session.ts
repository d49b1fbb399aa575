import type { KeyObject } from 'node:crypto';
import { OnboardingApiError, OnboardingClient } from './onboarding-client.js';
import { openSessionData } from './session-data.js';

/** validateSession's answer (Doc 1 endpoint 9) with the extensions `matchCode` and `expiresIn`. */
export interface ValidatedSession {
  accessToken: string;
  /** `enroll` or `authenticate`: which flow the phone now runs. */
  methodType: string;
  customerName: string;
  customerLogo: string;
  userName: string;
  email: string;
  /** Show it: the portal shows the same 6 digits. */
  matchCode: string;
  expiresIn: number;
}

/**
 * The phone's side of a QR hand-over (Doc 1 flows "QR enrollment" and "QR authentication"): decrypts the
 * scanned link's `data` with the onboarding public key the app ships with, validates the session
 * (endpoint 9, single use), and returns the session's answer with a client bound to it, whose calls carry
 * the session key and the accessToken. Then enroll -> addDevice -> addFace, or authenticate ->
 * verifyDevice -> verifyFace (on the QR-flow paths), for the session's user only.
 *
 * @example
 * const { client, session } = await takeOverSession(scannedUrl, publicKeyPem);
 * if (session.methodType === 'enroll') {
 *   const { enrollmentToken } = await client.enroll({ username: session.userName, email: session.email, phoneNumber });
 *   await client.addDevice(enrollmentToken, deviceId, device);
 *   await client.addFace(enrollmentToken, frames, session.userName);
 * }
 * @throws {SessionDataError} when the link does not decrypt; {@link OnboardingApiError} when validation is refused
 */
export async function takeOverSession(
  urlOrData: string,
  publicKey: string | KeyObject,
  options: { fetch?: typeof fetch; headers?: Record<string, string> } = {},
): Promise<{ client: OnboardingClient; session: ValidatedSession }> {
  const { host, apiKey, sessionToken } = openSessionData(urlOrData, publicKey);
  const fetchImpl = options.fetch ?? fetch;
  const response = await fetchImpl(`${host}/tokenVerify/validateSession`, {
    method: 'POST',
    headers: { ...options.headers, apikey: apiKey, 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify({ sessionToken }),
  });
  const text = await response.text();
  if (!response.ok) {
    let body: { error?: { code?: number; description?: string } } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // not JSON: the text is the description
    }
    throw new OnboardingApiError(response.status, body.error?.code, body.error?.description ?? text);
  }
  const session = JSON.parse(text) as ValidatedSession;
  const client = new OnboardingClient({
    baseUrl: host,
    apiKey,
    accessToken: session.accessToken,
    ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
  });
  return { client, session };
}
