import { createHash } from 'node:crypto';
import type { ThrottleLimits } from '../config.js';
import { ApiError } from '../errors/api-error.js';
import { networkOf } from '../request-log-serializer.js';
import type { ThrottleStore } from '../throttle-store.js';
import { windowCounter, type WindowCounter } from '../window-counter.js';

/** Failed credential checks allowed per window, per client and per network (docs/configuration.md). */
export type FailedCredentialLimits = Pick<
  ThrottleLimits,
  'failureWindowSeconds' | 'failuresPerClient' | 'failuresPerNetwork'
>;

/** One credential check under way: refused before it ran, or to be settled with its outcome. */
export interface CredentialAttempt {
  /** Seconds until a window over its limit ends; set: refuse with 429 and `Retry-After`, check nothing. */
  readonly retryAfter: number | undefined;
  /** Records the check's outcome: a failure counts against the client and the network, a success nothing. */
  settle(held: boolean): Promise<void>;
}

/** Throttles failed credential checks per claimed client and per source network, across every route. */
export interface FailedCredentials {
  /**
   * Reads the failures counted against the caller's network and, when the request names one, its client
   * (`client` e.g. `oidc:<client id>` or `apikey:<key id>`). At a limit `retryAfter` is set; else the caller
   * checks the credentials and settles the attempt with the outcome.
   */
  attempt(request: { readonly ip: string }, client: string | undefined): Promise<CredentialAttempt>;
}

/** The names of the two counters in the store's keys: `<prefix>throttle:<name>:<key>`. */
export const FAILED_CREDENTIALS_COUNTERS = { client: 'auth-fail-client', network: 'auth-fail-network' } as const;
/** Open windows per counter kept in the memory of one process. */
const MAX_LOCAL_KEYS = 10_000;
const MAX_KEY_LENGTH = 200;

const shared = new WeakMap<ThrottleStore, FailedCredentials>();

/**
 * The failed-credentials throttle of an app: one per throttle store, so the token endpoint and the
 * services' API-key check count together in one process as they do in Redis (the first call's limits
 * hold for the store). Only failures are counted, and a caller whose client or network is at its limit is
 * refused before the secret is looked at, so a guess there learns nothing, even the right one. Successes
 * never touch the counts: any number of concurrent requests with good credentials pass (counting every
 * attempt first and giving successes back, as this did before, refused most of a burst of 200 good
 * requests on Redis, where the counts of requests still in flight add up). The price: guesses already in
 * flight when the limit is reached are still checked, so a window admits the limit plus the attacker's
 * concurrency; the secrets are 256-bit random, so the limit is a brake and an alarm, not what keeps them
 * unguessable. A network is the caller's IPv4 /24 or IPv6 /48, so one host cannot dodge the limit by
 * hopping addresses within its site.
 *
 * @example
 * const failures = failedCredentials(deps.throttleStore, deps.config.throttle);
 * const attempt = await failures.attempt(request, `apikey:${keyId}`);
 * if (attempt.retryAfter !== undefined) throw tooManyFailures(attempt.retryAfter);
 * const owner = await customers.customerOfApiKey(apiKey);
 * await attempt.settle(owner !== undefined);
 */
export function failedCredentials(
  store: ThrottleStore,
  limits: FailedCredentialLimits,
  now?: () => number,
): FailedCredentials {
  const existing = shared.get(store);
  if (existing !== undefined) return existing;
  const options = { windowMs: limits.failureWindowSeconds * 1000, now, maxKeys: MAX_LOCAL_KEYS };
  const counters: { counter: WindowCounter; max: number; key: (ip: string, client?: string) => string | undefined }[] =
    [
      {
        counter: windowCounter(store, FAILED_CREDENTIALS_COUNTERS.client, options),
        max: limits.failuresPerClient,
        key: (_ip, client) => (client === undefined ? undefined : boundedKey(client)),
      },
      {
        counter: windowCounter(store, FAILED_CREDENTIALS_COUNTERS.network, options),
        max: limits.failuresPerNetwork,
        key: (ip) => networkOf(ip) ?? boundedKey(ip),
      },
    ];
  const throttle: FailedCredentials = {
    async attempt(request, client) {
      const watched = counters.flatMap(({ counter, max, key }) => {
        const k = key(request.ip, client);
        return k === undefined ? [] : [{ counter, max, key: k }];
      });
      const counts = await Promise.all(watched.map(({ counter, key }) => counter.peek(key)));
      let retryAfterMs: number | undefined;
      counts.forEach(({ count, remainingMs }, i) => {
        if (count >= (watched[i]?.max ?? Number.POSITIVE_INFINITY))
          retryAfterMs = Math.max(retryAfterMs ?? 0, remainingMs);
      });
      if (retryAfterMs !== undefined)
        return { retryAfter: Math.max(1, Math.ceil(retryAfterMs / 1000)), settle: () => Promise.resolve() };
      return {
        retryAfter: undefined,
        async settle(held) {
          if (!held) await Promise.all(watched.map(({ counter, key }) => counter.add(key, 1)));
        },
      };
    },
  };
  shared.set(store, throttle);
  return throttle;
}

/** The description of the 429 (no client id, key or address repeated). */
export function tooManyFailuresText(retryAfter: number): string {
  return `too many failed credential checks for this client or from this network; retry after ${retryAfter} s`;
}

/**
 * Looks an API key up (`find`: its owner, undefined when unknown) unless the key's id or the caller's
 * network is past the failure limits: then a 429 in the services' error style with `Retry-After`, before
 * the key is read. An unknown key counts as a failure. Without `failures` it only looks up.
 *
 * @example
 * const owner = await throttledKeyLookup(failures, request, apikey, () => customers.customerOfApiKey(apikey));
 * @throws {ApiError} 429 past a limit
 */
export async function throttledKeyLookup<T>(
  failures: FailedCredentials | undefined,
  request: { readonly ip: string },
  apiKey: string,
  find: () => Promise<T | undefined>,
): Promise<T | undefined> {
  if (failures === undefined) return find();
  const keyId = apiKeyIdOf(apiKey);
  const attempt = await failures.attempt(request, keyId === undefined ? undefined : `apikey:${keyId}`);
  if (attempt.retryAfter !== undefined) {
    throw new ApiError(429, 429, tooManyFailuresText(attempt.retryAfter), {
      'retry-after': String(attempt.retryAfter),
    });
  }
  const found = await find();
  await attempt.settle(found !== undefined);
  return found;
}

/**
 * The non-secret id of an API key, `{keyId}.{secret}` (customer) or `veriport_admin_<id>.<secret>` (admin):
 * the part before the first dot, or undefined when there is none (a malformed key counts per network only).
 *
 * @example
 * apiKeyIdOf('ab12cd34.Zm9v...'); // 'ab12cd34'
 */
export function apiKeyIdOf(apiKey: string): string | undefined {
  const dot = apiKey.indexOf('.');
  return dot > 0 ? apiKey.slice(0, dot) : undefined;
}

/** A key as stored: as given up to 200 characters, else its SHA-256 digest (a client id has no other bound). */
function boundedKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash('sha256').update(key).digest('hex')}`;
}
