import type { FastifyBaseLogger } from 'fastify';
import { linkForLog, type NotificationChannel, type SessionNotifier } from './session-notifier.js';

/**
 * The notifier of a channel nobody configured: it logs that a notice would have been sent (channel,
 * customer, method, the link without its `data`; never the user, the address or the secrets) and answers
 * not sent, with `reason` for the trigger's `errorSummary`.
 *
 * @example
 * const email = logNotifier('email', 'no e-mail transport is configured (VERIPORT_SMTP_URL)', app.log);
 * await email.send(notice); // { sent: false, reason: 'no e-mail transport is configured (VERIPORT_SMTP_URL)' }
 */
export function logNotifier(channel: NotificationChannel, reason: string, log: FastifyBaseLogger): SessionNotifier {
  return {
    channel,
    send(notice) {
      log.info(
        { channel, customer: notice.customer, method: notice.method, link: linkForLog(notice.url) },
        `${channel} notification not sent: ${reason}`,
      );
      return Promise.resolve({ sent: false, reason });
    },
  };
}
