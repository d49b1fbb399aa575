/**
 * The failed-credentials throttle on a real Redis (REDIS_URL, as redis-throttles.test.ts): two stores on one
 * Redis are two replicas and see one budget per client and per network, and the Retry-After comes from
 * Redis's own expiry. Keys of a prefix of this run's own, deleted at the end.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { failedCredentials } from '../../src/server/access/failed-credentials.js';
import { openThrottleStore, type ThrottleStore } from '../../src/server/throttle-store.js';
import { REDIS_SKIP, REDIS_URL, redisTestPrefix } from '../helpers/redis.js';

const SKIP = REDIS_SKIP;
const PREFIX = redisTestPrefix();
const LIMITS = { failureWindowSeconds: 900, failuresPerClient: 3, failuresPerNetwork: 5 };
const log = { warn: () => undefined, info: () => undefined };

let stores: ThrottleStore[] = [];

describe('failed-credentials throttle on Redis', { skip: SKIP }, () => {
  before(async () => {
    stores = await Promise.all([1, 2].map(() => openThrottleStore({ url: REDIS_URL, keyPrefix: PREFIX, log })));
  });

  after(async () => {
    const redis = new Redis(REDIS_URL ?? '');
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
    await Promise.all(stores.map((store) => store.close()));
  });

  it('shares the failures of a client and of a network between replicas, with Redis TTL as Retry-After', async () => {
    const [one, two] = stores.map((store) => failedCredentials(store, LIMITS));
    assert.ok(one !== undefined && two !== undefined);
    for (const replica of [one, two, one]) {
      const attempt = await replica.attempt({ ip: '10.0.0.1' }, 'oidc:acme');
      assert.equal(attempt.retryAfter, undefined);
      await attempt.settle(false);
    }
    const refused = await two.attempt({ ip: '10.9.0.1' }, 'oidc:acme');
    assert.ok(refused.retryAfter !== undefined && refused.retryAfter > 890 && refused.retryAfter <= 900);
    // Successes count nothing, however many are in flight: the network count stays at 3 failures.
    const oks = await Promise.all(Array.from({ length: 50 }, () => one.attempt({ ip: '10.0.0.2' }, 'oidc:globex')));
    assert.ok(oks.every((ok) => ok.retryAfter === undefined));
    await Promise.all(oks.map((ok) => ok.settle(true)));
    const redis = new Redis(REDIS_URL ?? '');
    try {
      assert.equal(await redis.get(`${PREFIX}throttle:auth-fail-network:10.0.0.0/24`), '3');
      assert.equal(await redis.get(`${PREFIX}throttle:auth-fail-client:oidc:acme`), '3');
    } finally {
      redis.disconnect();
    }
    for (const replica of [two, one]) {
      const attempt = await replica.attempt({ ip: '10.0.0.3' }, undefined);
      assert.equal(attempt.retryAfter, undefined);
      await attempt.settle(false);
    }
    assert.ok((await two.attempt({ ip: '10.0.0.4' }, 'oidc:globex')).retryAfter !== undefined);
  });
});
