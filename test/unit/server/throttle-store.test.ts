import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../../src/server/config.js';
import { localThrottleStore, openThrottleStore } from '../../../src/server/throttle-store.js';

const silent = { warn: () => undefined, info: () => undefined };

describe('throttle store configuration', () => {
  it('counts in the process unless VERIPORT_REDIS_URL is set; keys start with veriport:', () => {
    const { throttle } = loadConfig({});
    assert.equal(throttle.redisUrl, undefined);
    assert.equal(throttle.redisKeyPrefix, 'veriport:');
  });

  it('takes redis:// and rediss:// URLs (password, database) and a key prefix', () => {
    const { throttle } = loadConfig({
      VERIPORT_REDIS_URL: ' rediss://:secret@redis.internal:6380/2 ',
      VERIPORT_REDIS_KEY_PREFIX: 'eu-prod:',
    });
    assert.equal(throttle.redisUrl, 'rediss://:secret@redis.internal:6380/2');
    assert.equal(throttle.redisKeyPrefix, 'eu-prod:');
    assert.equal(loadConfig({ VERIPORT_REDIS_URL: 'redis://127.0.0.1' }).throttle.redisUrl, 'redis://127.0.0.1');
  });

  const invalid: Array<[string, Record<string, string>, RegExp]> = [
    [
      'an http URL',
      { VERIPORT_REDIS_URL: 'http://redis:6379' },
      /VERIPORT_REDIS_URL must be a redis:\/\/ or rediss:\/\//,
    ],
    ['a bare host', { VERIPORT_REDIS_URL: 'redis-host:6379' }, /VERIPORT_REDIS_URL/],
    ['a URL without host', { VERIPORT_REDIS_URL: 'redis://' }, /VERIPORT_REDIS_URL/],
    ['a prefix with spaces', { VERIPORT_REDIS_KEY_PREFIX: 'a b' }, /VERIPORT_REDIS_KEY_PREFIX must be 1 to 64/],
    ['a prefix with a glob', { VERIPORT_REDIS_KEY_PREFIX: 'veriport*' }, /VERIPORT_REDIS_KEY_PREFIX/],
  ];
  for (const [what, env, message] of invalid) {
    it(`rejects ${what} with a message naming the variable`, () => {
      assert.throws(
        () => loadConfig(env),
        (error: unknown) => error instanceof ConfigError && message.test(error.message),
      );
    });
  }

  it('never repeats the URL (it may hold a password) in its message', () => {
    assert.throws(
      () => loadConfig({ VERIPORT_REDIS_URL: 'https://:hunter22@redis:6379' }),
      (error: unknown) => error instanceof ConfigError && !error.message.includes('hunter22'),
    );
  });
});

describe('throttle store', () => {
  it('names each throttle under the prefix', () => {
    assert.equal(localThrottleStore().keyPrefix('token-client'), 'veriport:throttle:token-client:');
    assert.equal(localThrottleStore('eu:').keyPrefix('code-device'), 'eu:throttle:code-device:');
  });

  it('opens no client without a URL', async () => {
    const store = await openThrottleStore({ url: undefined, keyPrefix: 'x:', log: silent });
    assert.equal(store.redis, undefined);
    assert.equal(store.keyPrefix('admin-confirm'), 'x:throttle:admin-confirm:');
    await store.close();
  });

  it('starts on an unreachable Redis with one warning, then warns at most once a minute', async () => {
    const warnings: string[] = [];
    let now = 0;
    const store = await openThrottleStore({
      url: `redis://127.0.0.1:${await closedPort()}`,
      keyPrefix: 'x:',
      log: { warn: (_object: unknown, message?: string) => void warnings.push(message ?? ''), info: () => undefined },
      now: () => now,
    });
    try {
      assert.ok(store.redis !== undefined);
      assert.deepEqual(warnings, ['throttle store (Redis) unreachable: throttles count in this process meanwhile']);
      store.reportFailure(new Error('again'));
      now = 59_999;
      store.reportFailure(new Error('again'));
      assert.equal(warnings.length, 1);
      now = 60_000;
      store.reportFailure(new Error('still'));
      assert.equal(warnings.length, 2);
    } finally {
      await store.close();
    }
    // Closed, the client stops reconnecting (each attempt would fail with an 'error' event).
    let attempts = 0;
    store.redis.on('error', () => (attempts += 1));
    await new Promise((resolve) => setTimeout(resolve, 1000));
    assert.equal(attempts, 0);
  });
});

/** A port nothing listens on: bound, then closed. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}
