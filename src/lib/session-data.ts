/**
 * The plaintext of a QR hand-over's `data` parameter (Doc 1, "Decoded QR data"): three items separated by
 * `&`, in this order: the host URL (base of every later call), the session-scoped API key (the `apikey`
 * header), the session token. The server encrypts it with its private key (src/crypto/session-data.ts), the
 * phone decrypts it with the public key (src/client/session-data.ts): wire format shared by both, hence in lib/.
 */
export interface SessionData {
  readonly host: string;
  readonly apiKey: string;
  readonly sessionToken: string;
}

/** Raised for a `data` plaintext that is not three `&`-separated items (or items that cannot be joined). */
export class SessionDataError extends Error {
  override name = 'SessionDataError';
}

/**
 * Joins the three items; none may contain `&` (the separator) or be empty.
 *
 * @example
 * formatSessionData({ host: 'https://id.example.com', apiKey: 'qrsession.k', sessionToken: 't' });
 * // 'https://id.example.com&qrsession.k&t'
 * @throws {SessionDataError} for an empty item or one containing `&`
 */
export function formatSessionData(data: SessionData): string {
  const items = [data.host, data.apiKey, data.sessionToken];
  if (items.some((item) => item === '' || item.includes('&')))
    throw new SessionDataError('the session data items must be non-empty and free of "&"');
  return items.join('&');
}

/**
 * Splits a decrypted `data` plaintext into its three items.
 *
 * @example
 * parseSessionData('https://id.example.com&qrsession.k&t').apiKey; // 'qrsession.k'
 * @throws {SessionDataError} unless the text is exactly three non-empty `&`-separated items
 */
export function parseSessionData(text: string): SessionData {
  const [host, apiKey, sessionToken, ...rest] = text.split('&');
  if (host === undefined || apiKey === undefined || sessionToken === undefined || rest.length > 0)
    throw new SessionDataError('the session data is not three "&"-separated items (host, API key, session token)');
  if (host === '' || apiKey === '' || sessionToken === '') throw new SessionDataError('a session data item is empty');
  return { host, apiKey, sessionToken };
}
