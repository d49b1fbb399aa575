import type { SessionMethod } from '../../store/onboarding-sessions.js';

/** The channels a trigger may ask for: triggerEnroll's `notifyByEmail`, triggerAuthenticate's `notifyByPush`. */
export type NotificationChannel = 'email' | 'push';

/** What the user is sent: the session's link, to open on the phone instead of scanning the QR code. */
export interface SessionNotice {
  readonly customer: string;
  /** The customer's display name, as the message names the sender. */
  readonly customerName: string;
  readonly username: string;
  readonly email: string;
  readonly method: SessionMethod;
  /** The sessionCallbackURL: it carries the session's secrets, so it goes to the user and nowhere else. */
  readonly url: string;
  readonly expiresAt: Date;
}

/** Whether a notice left: `reason` says why not, in words fit for the trigger answer's `errorSummary`. */
export type NotifyOutcome = { readonly sent: true } | { readonly sent: false; readonly reason: string };

/** Sends a session's link over one channel; never throws (a failed send is an outcome, the session stands). */
export interface SessionNotifier {
  readonly channel: NotificationChannel;
  send(notice: SessionNotice): Promise<NotifyOutcome>;
}

/**
 * The session link without its query (the `data` secret), for logs.
 *
 * @example
 * linkForLog('https://id.example.com/capture?data=abc'); // 'https://id.example.com/capture'
 */
export function linkForLog(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
