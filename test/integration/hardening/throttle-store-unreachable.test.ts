/**
 * Issue 14, throttles shared across replicas: when VERIPORT_REDIS_URL names a Redis that cannot be
 * reached, the throttles count in the process instead (docs/decisions.md). No request becomes a 500 or
 * waits for Redis, the per-process limits still answer 429, and the outage is logged as one warning
 * that names neither the URL's password nor a throttle key. Needs no Redis: the URL names a closed port.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { adminConfirmation } from '../../../src/server/admin-confirmation.js';
import { openThrottleStore, type ThrottleStore } from '../../../src/server/throttle-store.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { testApp, tokenRequest as clientTokenRequest } from '../../helpers/app.js';
import { assertCodedError } from '../../helpers/http.js';
import { testCustomer } from '../../helpers/stores.js';

const PASSWORD = 'redis-pass-9f3c';

let store: Store;
let app: FastifyInstance;
let url: string;
let headers: Record<string, string>;
let startMs: number;
const lines: string[] = [];

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

before(async () => {
  url = `redis://:${PASSWORD}@127.0.0.1:${await closedPort()}`;
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const customer = await testCustomer(store, 'acme');
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const started = Date.now();
  app = await testApp(
    {
      VERIPORT_REDIS_URL: url,
      VERIPORT_THROTTLE_TOKEN_PER_ADDRESS: '3',
      VERIPORT_THROTTLE_CODE_PER_DEVICE: '2',
    },
    { store, logger: { level: 'info', stream } },
  );
  startMs = Date.now() - started;
  const token = await tokenRequest('10.9.9.9', customer.client.clientId, customer.client.clientSecret);
  assert.equal(token.statusCode, 200, token.body);
  headers = { authorization: `Bearer ${token.json<{ access_token: string }>().access_token}`, apikey: customer.apiKey };
});

after(async () => {
  await app.close();
  await store.close();
});

function tokenRequest(address: string, clientId: string, secret = 'wrong'): Promise<LightMyRequestResponse> {
  return clientTokenRequest(app, 'acme', { clientId, clientSecret: secret }, address);
}

describe('throttles with an unreachable Redis', () => {
  it('start without waiting for it', () => {
    // A refused connection fails at once; the connect timeout (2 s) bounds any other failure.
    assert.ok(startMs < 10_000, `start took ${startMs} ms`);
  });

  it('answer token requests as usual and still throttle them in the process', async () => {
    const started = Date.now();
    for (let i = 0; i < 3; i += 1) {
      const response = await tokenRequest('10.0.0.1', `probe-${i}`);
      assert.equal(response.statusCode, 401, response.body);
    }
    const refused = await tokenRequest('10.0.0.1', 'probe-3');
    assert.equal(refused.statusCode, 429, refused.body);
    assert.ok(Number(refused.headers['retry-after']) >= 1);
    assert.equal(refused.json<{ error: string }>().error, 'slow_down');
    assert.equal((await tokenRequest('10.0.0.2', 'probe-4')).statusCode, 401);
    // Nothing waits for Redis: five requests, each counting on two counters, in well under one command timeout each.
    assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
  });

  it('answer registration-code guesses as usual and still throttle them in the process', async () => {
    const authenticate = (address: string) =>
      app.inject({
        method: 'POST',
        url: '/onboarding/authentication/authenticate',
        remoteAddress: address,
        headers,
        payload: { registrationCode: 'a-guessed-registration-code', deviceId: 'device-u1' },
      });
    for (let i = 0; i < 2; i += 1) assertCodedError(await authenticate(`10.1.0.${i}`), 403, 403);
    assertCodedError(await authenticate('10.1.0.9'), 429, 429, /too many registration code attempts/);
  });

  it('log the outage as a warning, once, without the password or a key', () => {
    const warnings = lines.filter((line) => line.includes('throttle store (Redis) unreachable'));
    assert.equal(warnings.length, 1, lines.join(''));
    const [warning] = warnings;
    const parsed: unknown = JSON.parse(warning ?? '{}');
    assert.equal(Reflect.get(Object(parsed), 'level'), 40);
    assert.doesNotMatch(lines.join(''), new RegExp(PASSWORD));
    // Fastify's own request lines name the source address; the throttle's lines name no key.
    const throttleLines = lines.filter((line) => line.includes('throttle')).join('');
    assert.doesNotMatch(throttleLines, /veriport:throttle|10\.0\.0\.1|device-u1/);
  });
});

describe('the admin confirmation with an unreachable Redis', () => {
  let throttles: ThrottleStore;
  before(async () => {
    throttles = await openThrottleStore({ url, keyPrefix: 'veriport:', log: app.log });
  });
  after(() => throttles.close());

  it('counts wrong codes in the process: 400 up to the budget, then 429; a right code passes before', async () => {
    const confirmation = adminConfirmation({ code: 480_213, store: throttles, maxFailures: 2 });
    await confirmation.check(480_213, 'reset');
    for (let i = 0; i < 2; i += 1) await assert.rejects(confirmation.check(1, 'reset'), { statusCode: 400 });
    await assert.rejects(confirmation.check(480_213, 'reset'), { statusCode: 429 });
  });
});
