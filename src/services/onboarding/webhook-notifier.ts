import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { linkForLog, type SessionNotifier } from './session-notifier.js';

/** How long the webhook may take to answer. */
const TIMEOUT_MS = 5_000;

/**
 * triggerAuthenticate's `notifyByPush` through a webhook: the customer's push service receives
 * `POST <VERIPORT_PUSH_WEBHOOK_URL>` with JSON `{type: "veriport.session", channel: "push", customer,
 * username, methodType, sessionCallbackURL, expiresAt}` and delivers the link to the user's phone. With a
 * secret the body is signed, `x-veriport-signature: sha256=<hex HMAC-SHA256 of the body>`. Any 2xx is sent;
 * anything else (or no answer in 5 s) is logged by its status only and answered as not sent.
 *
 * @example
 * const push = webhookNotifier({ url: 'https://push.acme.example/veriport', secret: process.env.SECRET }, app.log);
 * await push.send(notice); // { sent: true }
 */
export function webhookNotifier(
  settings: { url: string; secret: string | undefined },
  log: FastifyBaseLogger,
  fetchImpl: typeof fetch = fetch,
): SessionNotifier {
  return {
    channel: 'push',
    async send(notice) {
      const body = JSON.stringify({
        type: 'veriport.session',
        channel: 'push',
        customer: notice.customer,
        username: notice.username,
        methodType: notice.method,
        sessionCallbackURL: notice.url,
        expiresAt: notice.expiresAt.toISOString(),
      });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (settings.secret !== undefined)
        headers['x-veriport-signature'] = `sha256=${createHmac('sha256', settings.secret).update(body).digest('hex')}`;
      let status: number | string;
      try {
        const response = await fetchImpl(settings.url, {
          method: 'POST',
          headers,
          body,
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        await response.body?.cancel();
        status = response.status;
      } catch (error) {
        status = error instanceof Error ? error.name : 'error';
      }
      if (typeof status === 'number' && status >= 200 && status < 300) {
        log.info({ channel: 'push', customer: notice.customer, link: linkForLog(notice.url) }, 'session link pushed');
        return { sent: true };
      }
      log.warn({ channel: 'push', customer: notice.customer, status }, 'session link push not delivered');
      return { sent: false, reason: 'the push service did not accept the notification' };
    },
  };
}
