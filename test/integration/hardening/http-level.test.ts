/**
 * Issue 14 items 9 and 12, over real sockets: time limits on headers, body and idle keep-alive
 * connections, the per-address connection cap, and the errors Node's HTTP layer raises before routing
 * (malformed request, 431, 417, missing Host, 408) answered in the path's service error style.
 */
import assert from 'node:assert/strict';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import { testApp } from '../../helpers/app.js';

/** What came back on a raw connection, and whether the server closed it. */
interface RawExchange {
  readonly status: number | undefined;
  readonly headers: ReadonlyMap<string, string>;
  readonly body: string;
  readonly closedByServer: boolean;
}

/**
 * Writes `data` on a fresh connection (then nothing more) and collects what comes back until the
 * server closes the connection, or `waitMs` passed.
 */
function exchange(port: number, data: string, waitMs = 5000): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let closedByServer = false;
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => {
      closedByServer = true;
    });
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // A reset after the answer was read still counts as the server closing the connection.
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') closedByServer = true;
      else reject(error);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(parse(Buffer.concat(chunks).toString('latin1'), closedByServer));
    });
    socket.write(data);
  });
}

function parse(raw: string, closedByServer: boolean): RawExchange {
  const split = raw.indexOf('\r\n\r\n');
  const head = split < 0 ? raw : raw.slice(0, split);
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  const headers = new Map(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return {
    status: status === undefined ? undefined : Number(status),
    headers,
    body: split < 0 ? '' : raw.slice(split + 4),
    closedByServer,
  };
}

function assertCoded(response: RawExchange, status: number, code: number, description?: RegExp): void {
  assert.equal(response.status, status, `${response.status} ${response.body}`);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  const body: unknown = JSON.parse(response.body);
  assert.ok(typeof body === 'object' && body !== null && 'error' in body, response.body);
  assert.deepEqual(Object.keys(body), ['error'], response.body);
  const { error } = body;
  assert.ok(typeof error === 'object' && error !== null, response.body);
  assert.deepEqual(Object.keys(error).sort(), ['code', 'description'], response.body);
  assert.ok('code' in error && 'description' in error, response.body);
  assert.equal(error.code, code, response.body);
  assert.equal(typeof error.description, 'string');
  if (description !== undefined) assert.match(String(error.description), description);
}

function assertSpring(response: RawExchange, status: number, path: string): void {
  assert.equal(response.status, status, `${response.status} ${response.body}`);
  const body: unknown = JSON.parse(response.body);
  assert.ok(typeof body === 'object' && body !== null, response.body);
  assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'status', 'timestamp'], response.body);
  assert.ok('status' in body && 'path' in body && 'message' in body, response.body);
  assert.equal(body.status, status);
  assert.equal(body.path, path);
  assert.equal(typeof body.message, 'string');
}

async function listening(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

describe('HTTP-level limits and errors (issue 14 items 9 and 12)', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await testApp({
      VERIPORT_HEADERS_TIMEOUT_MS: '300',
      VERIPORT_REQUEST_TIMEOUT_MS: '300',
      VERIPORT_KEEP_ALIVE_TIMEOUT_MS: '300',
    });
    port = await listening(app);
  });
  after(() => app.close());

  describe('time limits (item 9)', () => {
    it('closes a request whose body stops arriving, with a coded 408', async () => {
      const started = Date.now();
      const response = await exchange(
        port,
        'POST /face-matching/compare HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"a":',
      );
      assert.ok(response.closedByServer, 'the server must close the half-sent request');
      assert.ok(Date.now() - started < 4000, `closed after ${Date.now() - started} ms`);
      assertCoded(response, 408, 408, /time/);
    });

    it('closes a request whose headers stop arriving, with a 408 in the path style', async () => {
      const coded = await exchange(port, 'GET /health HTTP/1.1\r\nHost: localhost\r\n');
      assert.ok(coded.closedByServer);
      assertCoded(coded, 408, 408);
    });

    it('closes an idle keep-alive connection after its timeout', async () => {
      const started = Date.now();
      const response = await exchange(
        port,
        'GET /health HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n',
      );
      assert.equal(response.status, 200);
      assert.ok(response.closedByServer, 'an idle keep-alive connection must be closed');
      assert.ok(Date.now() - started < 4000, `closed after ${Date.now() - started} ms`);
    });
  });

  describe('errors before routing in the service error style (item 12)', () => {
    it('answers a malformed request with 400 code -1, not Fastify’s shape', async () => {
      const response = await exchange(port, 'GET /face-matching/version HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      assertCoded(response, 400, -1, /malformed HTTP request/);
      assert.ok(response.closedByServer);
      assertCoded(await exchange(port, '\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n'), 400, -1);
    });

    it('answers a malformed request under document validation in its spring shape', async () => {
      const response = await exchange(port, 'GET /document-validation/validate HTTP/1.1\r\nHo st: x\r\n\r\n');
      assertSpring(response, 400, '/document-validation/validate');
    });

    it('answers headers that are too large with a coded 431', async () => {
      const big = `X-Big: ${'a'.repeat(20_000)}\r\n`;
      assertCoded(await exchange(port, `GET /face-matching/version HTTP/1.1\r\nHost: x\r\n${big}\r\n`), 431, 431);
      assertSpring(
        await exchange(port, `GET /document-validation/validate HTTP/1.1\r\nHost: x\r\n${big}\r\n`),
        431,
        '/document-validation/validate',
      );
    });

    it('answers an unsupported Expect with 417 in the path style', async () => {
      const expect = (path: string) =>
        `POST ${path} HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`;
      const coded = await exchange(port, expect('/face-matching/compare'));
      assertCoded(coded, 417, 417, /Expect/);
      assert.ok(coded.closedByServer);
      assertSpring(await exchange(port, expect('/document-validation/validate')), 417, '/document-validation/validate');
    });

    it('answers an HTTP/1.1 request without Host with 400 in the path style', async () => {
      assertCoded(await exchange(port, 'GET /face-matching/version HTTP/1.1\r\n\r\n'), 400, -1, /Host/);
      assertCoded(await exchange(port, 'GET /no/such/route HTTP/1.1\r\n\r\n'), 400, -1, /Host/);
      assertSpring(
        await exchange(port, 'POST /document-validation/validate HTTP/1.1\r\nContent-Length: 0\r\n\r\n'),
        400,
        '/document-validation/validate',
      );
      // HTTP/1.0 has no Host requirement.
      const old = await exchange(port, 'GET /face-matching/version HTTP/1.0\r\n\r\n');
      assert.equal(old.status, 200, old.body);
    });

    it('answers CONNECT with a coded 405 instead of closing without a word', async () => {
      const response = await exchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
      assertCoded(response, 405, 405);
      assert.ok(response.closedByServer);
    });
  });
});

describe('a second app: connections per source address (item 9), then a graceful stop (item 12)', () => {
  let app: FastifyInstance;
  let port: number;
  before(async () => {
    app = await testApp({ VERIPORT_MAX_CONNECTIONS_PER_ADDRESS: '2' });
    port = await listening(app);
  });
  after(() => app.close());

  it('closes a connection past the cap and accepts again once one is closed', async () => {
    const open = async () => {
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      return socket;
    };
    const first = await open();
    const second = await open();
    const refused = await exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n');
    assert.equal(refused.status, undefined, 'no answer past the cap');
    assert.ok(refused.closedByServer);
    const closed = new Promise((resolve) => first.once('close', resolve));
    first.destroy();
    await closed;
    // The server sees the close a moment after the client does.
    let accepted: RawExchange | undefined;
    for (let attempt = 0; attempt < 50 && accepted?.status !== 200; attempt += 1) {
      accepted = await exchange(port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    }
    assert.equal(accepted?.status, 200);
    second.destroy();
  });

  it('answers a request arriving during a graceful stop with 503 in the path style', async () => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // Headers begun before the stop keep the connection busy, so the stop does not close it as idle.
    socket.write('GET /document-validation/validate HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = app.close();
    // The listener closes after the stop has begun (preClose): wait until new connections are refused.
    for (let attempt = 0; attempt < 100; attempt += 1) {
      const refused = await new Promise<boolean>((resolve) => {
        const probe = connect(port, '127.0.0.1');
        probe.once('error', () => resolve(true));
        probe.once('connect', () => {
          probe.destroy();
          resolve(false);
        });
      });
      if (refused) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    socket.write('\r\n');
    await closed;
    await stopped;
    assertSpring(parse(received, true), 503, '/document-validation/validate');
  });
});

describe('time-limit settings', () => {
  it('have defaults and refuse a headers limit above the request limit', () => {
    const config = loadConfig({});
    assert.equal(config.headersTimeoutMs, 10_000);
    assert.equal(config.requestTimeoutMs, 60_000);
    assert.equal(config.keepAliveTimeoutMs, 5_000);
    assert.equal(config.maxConnectionsPerAddress, 256);
    assert.throws(
      () => loadConfig({ VERIPORT_HEADERS_TIMEOUT_MS: '20000', VERIPORT_REQUEST_TIMEOUT_MS: '10000' }),
      ConfigError,
    );
    assert.throws(() => loadConfig({ VERIPORT_MAX_CONNECTIONS_PER_ADDRESS: '0' }), ConfigError);
  });
});
