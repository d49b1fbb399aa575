import type { FastifyBaseLogger } from 'fastify';
import type { NotificationSettings } from '../../server/config.js';
import { logNotifier } from './log-notifier.js';
import type { NotificationChannel, SessionNotifier } from './session-notifier.js';
import { smtpNotifier } from './smtp-notifier.js';
import { webhookNotifier } from './webhook-notifier.js';

/**
 * The notifier of each channel as configured: e-mail over SMTP (`VERIPORT_SMTP_URL`), push through a webhook
 * (`VERIPORT_PUSH_WEBHOOK_URL`); a channel left unset gets the log notifier, which sends nothing and says so.
 *
 * @example
 * const notifiers = sessionNotifiers(config.notifications, app.log);
 * const outcome = await notifiers.email.send(notice); // { sent: false, reason: 'no e-mail transport ...' }
 */
export function sessionNotifiers(
  settings: NotificationSettings,
  log: FastifyBaseLogger,
): Readonly<Record<NotificationChannel, SessionNotifier>> {
  const { smtpUrl, smtpFrom, pushWebhookUrl, pushWebhookSecret } = settings;
  return {
    email:
      smtpUrl !== undefined && smtpFrom !== undefined
        ? smtpNotifier({ url: smtpUrl, from: smtpFrom }, log)
        : logNotifier('email', 'no e-mail transport is configured (VERIPORT_SMTP_URL)', log),
    push:
      pushWebhookUrl !== undefined
        ? webhookNotifier({ url: pushWebhookUrl, secret: pushWebhookSecret }, log)
        : logNotifier('push', 'no push channel is configured (VERIPORT_PUSH_WEBHOOK_URL)', log),
  };
}
