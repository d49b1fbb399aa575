import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { linkForLog, type SessionNotice, type SessionNotifier } from './session-notifier.js';

/** Time limits of one delivery, so a trigger never hangs on a mail server (milliseconds). */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 } as const;

/**
 * triggerEnroll's `notifyByEmail` over SMTP (nodemailer, MIT-0): one plain-text e-mail to the enrollment's
 * address with the session link. The connection URL (`smtp://` with STARTTLS when offered, `smtps://` for
 * TLS from the start, credentials in the URL) comes from `VERIPORT_SMTP_URL`. A failed delivery is logged by
 * its SMTP code only (the server's text may quote the address) and answered as not sent.
 *
 * @example
 * const email = smtpNotifier({ url: 'smtps://user:pass@mail.example.com', from: 'ACME <id@acme.example>' }, app.log);
 * await email.send(notice); // { sent: true }
 */
export function smtpNotifier(settings: { url: string; from: string }, log: FastifyBaseLogger): SessionNotifier {
  const transport = nodemailer.createTransport({ url: settings.url, ...TIMEOUTS });
  return {
    channel: 'email',
    async send(notice) {
      try {
        await transport.sendMail({
          from: settings.from,
          to: notice.email,
          subject: subjectOf(notice),
          text: bodyOf(notice),
        });
        log.info(
          { channel: 'email', customer: notice.customer, link: linkForLog(notice.url) },
          'session link e-mailed',
        );
        return { sent: true };
      } catch (error) {
        log.warn(
          { channel: 'email', customer: notice.customer, code: errorCode(error) },
          'session link e-mail not delivered',
        );
        return { sent: false, reason: 'the e-mail could not be delivered to the mail server' };
      }
    },
  };
}

function subjectOf(notice: SessionNotice): string {
  return notice.method === 'enroll'
    ? `${notice.customerName}: set up your face sign-in`
    : `${notice.customerName}: confirm it is you`;
}

function bodyOf(notice: SessionNotice): string {
  const what = notice.method === 'enroll' ? 'set up sign-in with your face on your phone' : 'confirm that it is you';
  return [
    `Hello,`,
    '',
    `${notice.customerName} asks you to ${what}. Open this link on your phone:`,
    '',
    notice.url,
    '',
    `The link works once, until ${notice.expiresAt.toISOString().replace('T', ' ').slice(0, 16)} UTC.`,
    `If you did not expect this message, ignore it.`,
    '',
  ].join('\n');
}

/** The SMTP reply code or Node error code of a failed delivery; never its message. */
function errorCode(error: unknown): string | number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const responseCode: unknown = Reflect.get(error, 'responseCode');
  if (typeof responseCode === 'number') return responseCode;
  const code: unknown = Reflect.get(error, 'code');
  return typeof code === 'string' ? code : undefined;
}
