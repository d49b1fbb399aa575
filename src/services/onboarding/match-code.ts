import { createHmac } from 'node:crypto';

/** Digits of a match code: short enough to read out, long enough that a guess is right 1 in a million. */
const DIGITS = 6;

/**
 * The match code portal and phone both show once a phone has validated a QR session (RFC 10027 §6.1.9,
 * binding with out-of-band data): HMAC-SHA256 keyed by the session (its token hash) over the validating
 * phone (its address and User-Agent hash), as 6 decimal digits. The operator asks the user to read the code
 * on the phone: a phone that did not validate the session has none, and a session taken over by another
 * phone shows that phone's code on the portal, not the user's.
 *
 * @example
 * matchCode(session.tokenHash, session.phoneHash); // '482913'
 */
export function matchCode(sessionTokenHash: string, phoneHash: string): string {
  const digest = createHmac('sha256', Buffer.from(sessionTokenHash, 'hex'))
    .update(`veriport match code v1\n${phoneHash}`, 'utf8')
    .digest();
  // 32 bits mod 10^6: the bias (4.3e9 is not a multiple of 1e6) is below 1 in 4000.
  return String(digest.readUInt32BE(0) % 10 ** DIGITS).padStart(DIGITS, '0');
}
