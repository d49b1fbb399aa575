import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** One counter: at most `max` requests per key and window; a request without a key is not counted. */
export interface GuessLimit {
  readonly max: number;
  readonly key: (request: FastifyRequest) => string | undefined;
}

/** Counts a request against every limit; resolves to the seconds to wait when one is exceeded. */
export type GuessThrottle = (request: FastifyRequest) => Promise<number | undefined>;

/**
 * Registers @fastify/rate-limit (no global limit) on `app` once, so `guessThrottle` can build counters.
 *
 * @example
 * await registerRateLimit(app);
 */
export async function registerRateLimit(app: FastifyInstance): Promise<void> {
  // In-memory counters of this process; replicas each count on their own (docs/decisions.md).
  if (!app.hasDecorator('createRateLimit')) await app.register(rateLimit, { global: false });
}

/**
 * A throttle of several independent counters (e.g. per source address and per client), all counted on
 * each request, so that one key cannot dodge another's limit. Routes that share the throttle share counts.
 *
 * @example
 * const throttle = guessThrottle(app, 60, [{ max: 10, key: (request) => request.ip }]);
 * const retryAfter = await throttle(request); // undefined while under every limit
 */
export function guessThrottle(
  app: FastifyInstance,
  windowSeconds: number,
  limits: readonly GuessLimit[],
): GuessThrottle {
  const counters = limits.map((limit) => ({
    key: limit.key,
    count: app.createRateLimit({
      max: limit.max,
      timeWindow: windowSeconds * 1000,
      // Only requests with a key reach the counter (see below), so the key is never empty.
      keyGenerator: (request) => limit.key(request) ?? '',
    }),
  }));
  return async (request) => {
    let retryAfter: number | undefined;
    for (const counter of counters) {
      if (counter.key(request) === undefined) continue;
      const result = await counter.count(request);
      if (!result.isAllowed && result.isExceeded) retryAfter = Math.max(retryAfter ?? 1, Math.ceil(result.ttl / 1000));
    }
    return retryAfter;
  };
}
