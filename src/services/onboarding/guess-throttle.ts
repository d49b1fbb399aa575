import { createHash } from 'node:crypto';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ThrottleStore } from '../../server/throttle-store.js';

/** One counter: at most `max` requests per key and window; a request without a key is not counted. */
export interface GuessLimit {
  /** The counter's name in the shared store's keys: `<prefix>throttle:<name>:<key>`. */
  readonly name: string;
  readonly max: number;
  readonly key: (request: FastifyRequest) => string | undefined;
}

/** Counts a request against every limit; resolves to the seconds to wait when one is exceeded. */
export type GuessThrottle = (request: FastifyRequest) => Promise<number | undefined>;

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

/**
 * A throttle of several independent counters (e.g. per source address and per client), all counted on
 * each request, so that one key cannot dodge another's limit. Routes that share the throttle share counts.
 * With Redis in `store` the counts are shared by every replica; while Redis fails (unreachable, slow)
 * each request counts in this process instead, so the throttle still holds per replica and never turns a
 * request into an error (docs/decisions.md).
 *
 * @example
 * const throttle = await guessThrottle(app, deps.throttleStore, 60, [
 *   { name: 'token-address', max: 10, key: (request) => request.ip },
 * ]);
 * const retryAfter = await throttle(request); // undefined while under every limit
 */
export async function guessThrottle(
  app: FastifyInstance,
  store: ThrottleStore,
  windowSeconds: number,
  limits: readonly GuessLimit[],
): Promise<GuessThrottle> {
  const counters: { key: GuessLimit['key']; shared: Limiter | undefined; local: Limiter }[] = [];
  for (const limit of limits) {
    const options = {
      max: limit.max,
      timeWindow: windowSeconds * 1000,
      // Only requests with a key reach the counter (see below), so the key is never empty.
      keyGenerator: (request: FastifyRequest) => boundedKey(limit.key(request) ?? ''),
    };
    const { redis } = store;
    counters.push({
      key: limit.key,
      shared:
        redis === undefined
          ? undefined
          : await limiter(app, { ...options, redis, nameSpace: store.keyPrefix(limit.name), skipOnError: false }),
      local: await limiter(app, options),
    });
  }
  return async (request) => {
    let retryAfter: number | undefined;
    for (const counter of counters) {
      if (counter.key(request) === undefined) continue;
      const result = await countOn(counter.shared, counter.local, store, request);
      if (!result.isAllowed && result.isExceeded) retryAfter = Math.max(retryAfter ?? 1, Math.ceil(result.ttl / 1000));
    }
    return retryAfter;
  };
}

const MAX_KEY_LENGTH = 200;

/**
 * A key as it is stored: as given up to 200 characters, else its SHA-256 digest, so that a client id of
 * megabytes (a form field has no other bound) costs a counter, in memory or in Redis, 71 bytes.
 */
function boundedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}

/** Counts on the shared counter; on the process's own while the shared one fails. */
async function countOn(
  shared: Limiter | undefined,
  local: Limiter,
  store: ThrottleStore,
  request: FastifyRequest,
): ReturnType<Limiter> {
  if (shared !== undefined) {
    try {
      return await shared(request);
    } catch (error) {
      store.reportFailure(error);
    }
  }
  return local(request);
}

/**
 * One counter of @fastify/rate-limit, registered alone in a scope of its own: the plugin's store takes
 * the key prefix (`nameSpace`) at registration, and `createRateLimit()` without options counts under it
 * as is (with options it would insert the route's method and URL, unset here).
 */
async function limiter(app: FastifyInstance, options: RateLimitPluginOptions): Promise<Limiter> {
  const created: Limiter[] = [];
  await app.register(async (scope) => {
    // An enclosing registration would hand out its own counters (and store) instead of this one's.
    if (scope.hasDecorator('createRateLimit')) throw new Error('@fastify/rate-limit is already registered above');
    await scope.register(rateLimit, { ...options, global: false });
    created.push(scope.createRateLimit());
  });
  const [counter] = created;
  if (counter === undefined) throw new Error('@fastify/rate-limit gave no counter');
  return counter;
}
