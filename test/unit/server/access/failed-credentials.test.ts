import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import {
  apiKeyIdOf,
  failedCredentials,
  throttledKeyLookup,
  type FailedCredentials,
} from '../../../../src/server/access/failed-credentials.js';
import { loadConfig } from '../../../../src/server/config.js';
import { localThrottleStore } from '../../../../src/server/throttle-store.js';
import { windowCounter } from '../../../../src/server/window-counter.js';

const LIMITS = { failureWindowSeconds: 900, failuresPerClient: 3, failuresPerNetwork: 5 };

function throttle(clock: { now: number }, limits = LIMITS): FailedCredentials {
  return failedCredentials(localThrottleStore(), limits, () => clock.now);
}

/** One credential check through the throttle: 'refused' (429, nothing checked), else whether `valid` held. */
async function check(
  failures: FailedCredentials,
  ip: string,
  client: string | undefined,
  valid: boolean,
): Promise<'refused' | 'ok' | 'wrong'> {
  const attempt = await failures.attempt({ ip }, client);
  if (attempt.retryAfter !== undefined) return 'refused';
  await attempt.settle(valid);
  return valid ? 'ok' : 'wrong';
}

describe('failed-credentials throttle', () => {
  it('refuses the attempt after N failures of a client even with the right secret, before checking it', async () => {
    const clock = { now: 0 };
    const failures = throttle(clock);
    for (let i = 0; i < 3; i += 1) assert.equal(await check(failures, '10.0.0.1', 'oidc:acme', false), 'wrong');
    const attempt = await failures.attempt({ ip: '10.0.0.1' }, 'oidc:acme');
    assert.equal(attempt.retryAfter, 900, 'refused before the caller looks at the secret');
    // Per client: from another network too.
    assert.equal(await check(failures, '192.0.2.7', 'oidc:acme', true), 'refused');
    // Another client from another network is unaffected.
    assert.equal(await check(failures, '198.51.100.9', 'oidc:globex', true), 'ok');
  });

  it('counts only failures: successes and refusals count nothing', async () => {
    const clock = { now: 0 };
    const failures = throttle(clock);
    for (let i = 0; i < 20; i += 1) assert.equal(await check(failures, '10.0.0.1', 'oidc:acme', true), 'ok');
    for (let i = 0; i < 3; i += 1) assert.equal(await check(failures, '10.0.0.1', 'oidc:acme', false), 'wrong');
    for (let i = 0; i < 5; i += 1) assert.equal(await check(failures, '10.0.0.1', 'oidc:acme', true), 'refused');
    // The five refusals did not count against the network (limit 5, three failures so far).
    assert.equal(await check(failures, '10.0.0.2', 'oidc:other', false), 'wrong');
    assert.equal(await check(failures, '10.0.0.2', 'oidc:third', true), 'ok');
  });

  it('counts per network: IPv4 /24 and IPv6 /48, whatever client is named', async () => {
    const clock = { now: 0 };
    const failures = throttle(clock);
    for (let i = 0; i < 5; i += 1)
      assert.equal(await check(failures, `203.0.113.${i}`, `oidc:probe-${i}`, false), 'wrong');
    assert.equal(await check(failures, '203.0.113.200', 'oidc:acme', true), 'refused');
    assert.equal(await check(failures, '::ffff:203.0.113.9', undefined, true), 'refused');
    assert.equal(await check(failures, '203.0.114.1', 'oidc:acme', true), 'ok');

    for (let i = 0; i < 5; i += 1) assert.equal(await check(failures, `2001:db8:1:${i}::1`, undefined, false), 'wrong');
    assert.equal(await check(failures, '2001:db8:1:ffff::2', 'oidc:acme', true), 'refused');
    assert.equal(await check(failures, '2001:db8:2::1', 'oidc:acme', true), 'ok');
  });

  it('lets the window expire: Retry-After shrinks with the clock, then the client may try again', async () => {
    const clock = { now: 1_000 };
    const failures = throttle(clock);
    for (let i = 0; i < 3; i += 1) assert.equal(await check(failures, '10.0.0.1', 'oidc:acme', false), 'wrong');
    clock.now += 600_000;
    assert.equal((await failures.attempt({ ip: '10.0.0.1' }, 'oidc:acme')).retryAfter, 300);
    clock.now += 299_999;
    assert.equal((await failures.attempt({ ip: '10.0.0.1' }, 'oidc:acme')).retryAfter, 1);
    clock.now += 1;
    assert.equal(await check(failures, '10.0.0.1', 'oidc:acme', true), 'ok');
  });

  it('lets any number of concurrent attempts with good credentials through (only failures count)', async () => {
    const failures = throttle({ now: 0 });
    // 200 requests in flight at once with the right key, from one network: none is refused.
    const attempts = await Promise.all(
      Array.from({ length: 200 }, () => failures.attempt({ ip: '10.0.0.1' }, 'apikey:ab12cd34')),
    );
    assert.equal(attempts.filter((attempt) => attempt.retryAfter !== undefined).length, 0);
    await Promise.all(attempts.map((attempt) => attempt.settle(true)));
    assert.equal(await check(failures, '10.0.0.1', 'apikey:ab12cd34', true), 'ok');
  });

  it('counts the failures of guesses that were in flight together', async () => {
    const failures = throttle({ now: 0 });
    const attempts = await Promise.all(
      Array.from({ length: 12 }, (_, i) => failures.attempt({ ip: `10.0.${i}.1` }, 'oidc:acme')),
    );
    await Promise.all(attempts.map((attempt) => attempt.settle(false)));
    assert.equal(await check(failures, '10.0.99.1', 'oidc:acme', true), 'refused');
  });

  it('is one throttle per store, so the token endpoint and the API-key check count together', () => {
    const store = localThrottleStore();
    assert.equal(failedCredentials(store, LIMITS), failedCredentials(store, LIMITS));
    assert.notEqual(failedCredentials(store, LIMITS), failedCredentials(localThrottleStore(), LIMITS));
  });
});

describe('throttledKeyLookup', () => {
  it('counts an unknown key per key id and network, and answers a coded 429 with Retry-After past the limit', async () => {
    const failures = throttle({ now: 0 });
    const keys: Record<string, string> = { 'ab12cd34.right': 'acme', 'zz99zz99.right': 'globex' };
    let lookups = 0;
    const lookUp = (ip: string, key: string) =>
      throttledKeyLookup(failures, { ip }, key, () => {
        lookups += 1;
        return Promise.resolve(keys[key]);
      });
    for (let i = 0; i < 3; i += 1) assert.equal(await lookUp('10.0.0.1', 'ab12cd34.wrong'), undefined);
    const before = lookups;
    await assert.rejects(
      lookUp('10.9.0.1', 'ab12cd34.right'),
      (error: unknown) =>
        error instanceof ApiError &&
        error.statusCode === 429 &&
        error.code === 429 &&
        error.headers['retry-after'] === '900' &&
        !error.description.includes('ab12cd34'),
    );
    assert.equal(lookups, before, 'the key was not looked up');
    assert.equal(await lookUp('10.8.0.1', 'zz99zz99.right'), 'globex');
    // Without a throttle it only looks up.
    assert.equal(
      await throttledKeyLookup(undefined, { ip: '10.0.0.1' }, 'ab12cd34.right', () => Promise.resolve(1)),
      1,
    );
  });

  it('takes the id of a key as the part before its first dot', () => {
    assert.equal(apiKeyIdOf('ab12cd34.secret.more'), 'ab12cd34');
    assert.equal(apiKeyIdOf('veriport_admin_x1.secret'), 'veriport_admin_x1');
    assert.equal(apiKeyIdOf('nodot'), undefined);
    assert.equal(apiKeyIdOf('.secret'), undefined);
  });
});

describe('failed-credential limits and the window counter under them', () => {
  it('defaults to 10 per client and 50 per network in 15 minutes, and refuses 0', () => {
    const { throttle: limits } = loadConfig({ VERIPORT_DATA_DIR: 'memory://' });
    assert.deepEqual([limits.failureWindowSeconds, limits.failuresPerClient, limits.failuresPerNetwork], [900, 10, 50]);
    assert.throws(() => loadConfig({ VERIPORT_DATA_DIR: 'memory://', VERIPORT_THROTTLE_FAILURES_PER_CLIENT: '0' }));
    assert.throws(() => loadConfig({ VERIPORT_DATA_DIR: 'memory://', VERIPORT_THROTTLE_FAILURE_WINDOW_SECONDS: 'x' }));
  });

  it('keeps at most maxKeys windows in the process, dropping ended ones first, then the oldest', async () => {
    let now = 0;
    const counter = windowCounter(localThrottleStore(), 'test', { windowMs: 100, now: () => now, maxKeys: 2 });
    assert.equal(await counter.add('a', 1), 1);
    assert.deepEqual(await counter.peek('a'), { count: 1, remainingMs: 100 });
    now = 50;
    assert.equal(await counter.add('b', 1), 1);
    assert.deepEqual(await counter.peek('b'), { count: 1, remainingMs: 100 });
    assert.equal(await counter.add('a', 1), 2);
    assert.deepEqual(await counter.peek('a'), { count: 2, remainingMs: 50 });
    assert.equal(await counter.add('c', 1), 1, "'a', the oldest, makes room");
    assert.equal(await counter.add('b', 1), 2);
    assert.equal(await counter.add('a', 1), 1, "'a' started again");
  });
});
