/**
 * Issue 14, throttles shared across replicas, on a real Redis (REDIS_URL; `npm run test:postgres` and
 * .ci/run set it): two apps with the same VERIPORT_REDIS_URL are two replicas and see one budget; the
 * admin confirmation's wrong codes are counted once for all; when Redis goes away the throttles count in
 * the process, and when it comes back they count in Redis again. Every run uses keys of its own prefix
 * and deletes them at the end.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Redis } from 'ioredis';
import { adminConfirmation } from '../../src/server/admin-confirmation.js';
import { openThrottleStore, type ThrottleStore } from '../../src/server/throttle-store.js';
import { openStore, type Store } from '../../src/store/database.js';
import { testApp, tokenRequest as clientTokenRequest } from '../helpers/app.js';
import { assertCodedError } from '../helpers/http.js';
import { testCustomer } from '../helpers/stores.js';
import { REDIS_SKIP, REDIS_URL, redisTestPrefix } from '../helpers/redis.js';

const SKIP = REDIS_SKIP;
const PREFIX = redisTestPrefix();
const WINDOW_SECONDS = 60;

let redis: Redis;
let store: Store;
let client: { clientId: string; clientSecret: string };
let apiKey: string;

function replica(url: string, logger?: { level: string; stream: Writable }): Promise<FastifyInstance> {
  return testApp(
    {
      VERIPORT_REDIS_URL: url,
      VERIPORT_REDIS_KEY_PREFIX: PREFIX,
      VERIPORT_THROTTLE_WINDOW_SECONDS: String(WINDOW_SECONDS),
      VERIPORT_THROTTLE_TOKEN_PER_CLIENT: '4',
      VERIPORT_THROTTLE_CODE_PER_DEVICE: '3',
    },
    logger === undefined ? { store } : { store, logger },
  );
}

function tokenRequest(
  app: FastifyInstance,
  address: string,
  clientId: string,
  secret = 'wrong',
): Promise<LightMyRequestResponse> {
  return clientTokenRequest(app, 'acme', { clientId, clientSecret: secret }, address);
}

function assertThrottled(response: LightMyRequestResponse): void {
  assert.equal(response.statusCode, 429, response.body);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= WINDOW_SECONDS,
    `Retry-After ${retryAfter}`,
  );
}

/** The count Redis holds under a throttle's key, 0 when there is none. */
async function countOf(name: string, key: string): Promise<number> {
  return Number((await redis.get(`${PREFIX}throttle:${name}:${key}`)) ?? 0);
}

before(async () => {
  if (SKIP !== false) return;
  redis = new Redis(REDIS_URL ?? '', { lazyConnect: true });
  await redis.connect();
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const customer = await testCustomer(store, 'acme');
  client = customer.client;
  apiKey = customer.apiKey;
});

after(async () => {
  if (SKIP !== false) return;
  await store.close();
  const keys = await redis.keys(`${PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
});

describe('throttles shared through Redis', { skip: SKIP }, () => {
  let first: FastifyInstance;
  let second: FastifyInstance;

  before(async () => {
    [first, second] = await Promise.all([replica(REDIS_URL ?? ''), replica(REDIS_URL ?? '')]);
  });

  after(async () => {
    await Promise.all([first.close(), second.close()]);
  });

  it('give two replicas one token budget per client: the second answers 429 once the first used it', async () => {
    for (let i = 0; i < 4; i += 1) {
      const response = await tokenRequest(first, `10.0.0.${i}`, 'victim');
      assert.equal(response.statusCode, 401, response.body);
    }
    const refused = await tokenRequest(second, '10.0.0.9', 'victim');
    assertThrottled(refused);
    assert.equal(refused.json<{ error: string }>().error, 'slow_down');
    assertThrottled(await tokenRequest(first, '10.0.0.10', 'victim'));
    assert.equal((await tokenRequest(second, '10.0.0.9', 'someone-else')).statusCode, 401);
  });

  it('keep the counts under the configured prefix, one key per throttle and key, expiring with the window', async () => {
    assert.equal(await countOf('token-client', 'victim'), 6);
    assert.equal(await countOf('token-address', '10.0.0.9'), 2);
    const ttl = await redis.pttl(`${PREFIX}throttle:token-client:victim`);
    assert.ok(ttl > 0 && ttl <= WINDOW_SECONDS * 1000, `PTTL ${ttl}`);
  });

  it('store a key longer than 200 characters as its SHA-256 digest, still one count for both replicas', async () => {
    const long = 'x'.repeat(100_000);
    assert.equal((await tokenRequest(first, '10.0.3.1', long)).statusCode, 401);
    assert.equal((await tokenRequest(second, '10.0.3.2', long)).statusCode, 401);
    assert.equal(await countOf('token-client', `sha256:${createHash('sha256').update(long).digest('hex')}`), 2);
    const keys = await redis.keys(`${PREFIX}*`);
    assert.ok(Math.max(...keys.map((key) => key.length)) < PREFIX.length + 100, String(keys));
  });

  it('give two replicas one registration-code budget per device', async () => {
    const token = await tokenRequest(first, '10.9.9.9', client.clientId, client.clientSecret);
    assert.equal(token.statusCode, 200, token.body);
    const headers = { authorization: `Bearer ${token.json<{ access_token: string }>().access_token}`, apikey: apiKey };
    const authenticate = (app: FastifyInstance, address: string) =>
      app.inject({
        method: 'POST',
        url: '/onboarding/authentication/authenticate',
        remoteAddress: address,
        headers,
        payload: { registrationCode: 'a-guessed-registration-code', deviceId: 'shared-device' },
      });
    assertCodedError(await authenticate(first, '10.1.0.1'), 403, 403);
    assertCodedError(await authenticate(second, '10.1.0.2'), 403, 403);
    assertCodedError(await authenticate(first, '10.1.0.3'), 403, 403);
    const refused = await authenticate(second, '10.1.0.4');
    assertThrottled(refused);
    assertCodedError(refused, 429, 429, /too many registration code attempts/);
  });
});

describe('the admin confirmation through Redis', { skip: SKIP }, () => {
  const stores: ThrottleStore[] = [];
  const log = { warn: () => undefined, info: () => undefined };

  after(async () => {
    await Promise.all(stores.map((s) => s.close()));
  });

  /** Two replicas' throttle stores under a prefix of their own (one budget per test). */
  async function replicas(name: string): Promise<[ThrottleStore, ThrottleStore]> {
    const open = () => openThrottleStore({ url: REDIS_URL, keyPrefix: `${PREFIX}${name}:`, log });
    const pair: [ThrottleStore, ThrottleStore] = [await open(), await open()];
    stores.push(...pair);
    return pair;
  }

  it('counts wrong codes once for all replicas', async () => {
    const [a, b] = await replicas('sequential');
    const onA = adminConfirmation({ code: 480_213, store: a, maxFailures: 3 });
    const onB = adminConfirmation({ code: 480_213, store: b, maxFailures: 3 });
    await onB.check(480_213, 'reset');
    await assert.rejects(onA.check(1, 'reset'), { statusCode: 400 });
    await assert.rejects(onA.check(2, 'reset'), { statusCode: 400 });
    await assert.rejects(onB.check(3, 'reset'), { statusCode: 400 });
    await assert.rejects(onB.check(480_213, 'reset'), { statusCode: 429 });
    await assert.rejects(onA.check(480_213, 'reset'), { statusCode: 429 });
    const ttl = await redis.pttl(`${PREFIX}sequential:throttle:admin-confirm:wrong-codes`);
    assert.ok(ttl > 0 && ttl <= 60_000, `PTTL ${ttl}`);
  });

  it('compares no more wrong codes than the budget, however many arrive at once on several replicas', async () => {
    const [a, b] = await replicas('concurrent');
    const onA = adminConfirmation({ code: 480_213, store: a, maxFailures: 3 });
    const onB = adminConfirmation({ code: 480_213, store: b, maxFailures: 3 });
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? onA : onB).check(i, 'reset')),
    );
    const statuses = results.map((r): unknown =>
      r.status === 'rejected' ? Reflect.get(Object(r.reason), 'statusCode') : 0,
    );
    assert.equal(statuses.filter((s) => s === 400).length, 3, String(statuses));
    assert.equal(statuses.filter((s) => s === 429).length, 17, String(statuses));
  });
});

describe('throttles while Redis goes away and comes back', { skip: SKIP }, () => {
  let proxy: Server;
  let port: number;
  const sockets = new Set<Socket>();
  let app: FastifyInstance;
  const lines: string[] = [];

  /** A TCP proxy to REDIS_URL on `port` (0: any), standing for the network between a replica and Redis. */
  async function startProxy(at: number): Promise<void> {
    const target = new URL(REDIS_URL ?? '');
    proxy = createServer((socket) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const s of [socket, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => undefined);
      }
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => proxy.listen(at, '127.0.0.1', resolve));
    const address = proxy.address();
    if (address === null || typeof address === 'string') throw new Error('no proxy port');
    port = address.port;
  }

  async function stopProxy(): Promise<void> {
    const closed = new Promise((resolve) => proxy.close(resolve));
    for (const s of sockets) s.destroy();
    await closed;
  }

  async function until(condition: () => boolean, what: string): Promise<void> {
    for (let waited = 0; !condition(); waited += 50) {
      if (waited > 15_000) assert.fail(`waited 15 s for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  before(async () => {
    await startProxy(0);
    const url = new URL(REDIS_URL ?? '');
    url.hostname = '127.0.0.1';
    url.port = String(port);
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    app = await replica(url.toString(), { level: 'info', stream });
  });

  after(async () => {
    await app.close();
    await stopProxy();
  });

  it('count in the process meanwhile (no 500), then in Redis again', async () => {
    assert.equal((await tokenRequest(app, '10.5.0.1', 'roaming')).statusCode, 401);
    assert.equal(await countOf('token-client', 'roaming'), 1);

    await stopProxy();
    await until(() => lines.some((line) => line.includes('throttle store (Redis) unreachable')), 'the warning');
    for (let i = 0; i < 4; i += 1) assert.equal((await tokenRequest(app, `10.5.1.${i}`, 'roaming')).statusCode, 401);
    // The fifth in the process's own count: the throttle still holds per replica.
    assertThrottled(await tokenRequest(app, '10.5.1.9', 'roaming'));
    assert.equal(await countOf('token-client', 'roaming'), 1);

    await startProxy(port);
    await until(() => lines.some((line) => line.includes('throttle store (Redis) answers again')), 'the recovery');
    assert.equal((await tokenRequest(app, '10.5.2.1', 'roaming')).statusCode, 401);
    assert.equal(await countOf('token-client', 'roaming'), 2);
  });
});
