import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/** One message as an SMTP client handed it over. */
export interface ReceivedMail {
  readonly from: string;
  readonly to: string[];
  /** Headers and body as sent (DATA, dot-unstuffed). */
  readonly data: string;
}

/** A local SMTP server that accepts every message and keeps it; `close()` when done. */
export interface MailSink {
  readonly url: string;
  readonly messages: ReceivedMail[];
  close(): Promise<void>;
}

/**
 * The smallest SMTP server (RFC 5321: EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT; no TLS, no AUTH) on a free
 * loopback port, so a test sends through the real SMTP client code and reads what arrived. `reject`
 * answers every RCPT with 550 (a delivery the server refuses).
 *
 * @example
 * const sink = await startMailSink();
 * // VERIPORT_SMTP_URL = sink.url ... then:
 * sink.messages[0]?.to; // ['alice@example.com']
 */
export async function startMailSink(options: { reject?: boolean } = {}): Promise<MailSink> {
  const messages: ReceivedMail[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.setEncoding('utf8');
    let buffer = '';
    let from = '';
    let to: string[] = [];
    let data: string[] | undefined;
    const reply = (line: string) => socket.write(`${line}\r\n`);
    reply('220 mail-sink ESMTP');
    socket.on('data', (chunk: string) => {
      buffer += chunk;
      let end: number;
      while ((end = buffer.indexOf('\r\n')) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data !== undefined) {
          if (line === '.') {
            messages.push({ from, to, data: data.join('\r\n') });
            data = undefined;
            from = '';
            to = [];
            reply('250 2.0.0 queued');
          } else data.push(line.startsWith('..') ? line.slice(1) : line);
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO') reply('250-mail-sink\r\n250 8BITMIME');
        else if (verb === 'HELO') reply('250 mail-sink');
        else if (verb === 'MAIL') {
          from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          reply('250 2.1.0 OK');
        } else if (verb === 'RCPT') {
          if (options.reject) reply('550 5.1.1 mailbox unavailable');
          else {
            to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
            reply('250 2.1.5 OK');
          }
        } else if (verb === 'DATA') {
          data = [];
          reply('354 end with <CRLF>.<CRLF>');
        } else if (verb === 'QUIT') {
          reply('221 2.0.0 bye');
          socket.end();
        } else reply('250 OK');
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async close() {
      for (const socket of sockets) socket.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}
