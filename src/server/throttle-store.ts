import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';

/**
 * Where the throttles of one app count: a Redis shared by every replica, or (no Redis configured)
 * each process on its own. Throttles fall back to their in-process counters while Redis fails.
 */
export interface ThrottleStore {
  /** The app's one Redis client; undefined when every count stays in this process. */
  readonly redis: Redis | undefined;
  /** The start of every key of the named throttle: `<VERIPORT_REDIS_KEY_PREFIX>throttle:<name>:`. */
  keyPrefix(name: string): string;
  /**
   * Records that a call to Redis failed and the throttle counted in this process instead: a warning
   * at the first failure and then at most once a minute, an info line once Redis answers again.
   */
  reportFailure(error: unknown): void;
  /** Closes the client (at app close). */
  close(): Promise<void>;
}

export interface ThrottleStoreOptions {
  /** `redis://` or `rediss://`; undefined: in-process counting only. */
  readonly url: string | undefined;
  readonly keyPrefix: string;
  /** Where outages are reported (the app's logger). */
  readonly log: Pick<FastifyBaseLogger, 'warn' | 'info'>;
  /** How long one connection attempt may take. */
  readonly connectTimeoutMs?: number;
  /** How long a command may wait for its answer before the throttle counts in-process instead. */
  readonly commandTimeoutMs?: number;
  readonly now?: () => number;
}

const WARNING_INTERVAL_MS = 60_000;
const MAX_RECONNECT_DELAY_MS = 2_000;

/**
 * Opens the throttles' store. With a URL it connects once before returning (so the first requests
 * already count in Redis); a Redis that cannot be reached does not stop the start: it is warned about,
 * the throttles count in this process, and the client keeps reconnecting in the background. Commands
 * never queue while disconnected and never wait past `commandTimeoutMs`, so an outage costs a login no
 * time.
 *
 * @example
 * const throttles = await openThrottleStore({ url: 'redis://127.0.0.1:6379', keyPrefix: 'veriport:', log });
 * throttles.keyPrefix('token-client'); // 'veriport:throttle:token-client:'
 * await throttles.close();
 */
export async function openThrottleStore(options: ThrottleStoreOptions): Promise<ThrottleStore> {
  const { log } = options;
  const now = options.now ?? Date.now;
  if (options.url === undefined) return localThrottleStore(options.keyPrefix);
  const keyPrefix = (name: string) => throttleKeyPrefix(options.keyPrefix, name);
  const redis = new Redis(options.url, {
    // Names the replicas' connections in Redis's CLIENT LIST.
    connectionName: 'veriport-throttle',
    lazyConnect: true,
    // A throttle that cannot count now counts in-process: nothing waits for a reconnection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: options.connectTimeoutMs ?? 2_000,
    commandTimeout: options.commandTimeoutMs ?? 1_000,
    retryStrategy: (attempt) => Math.min(attempt * 200, MAX_RECONNECT_DELAY_MS),
  });
  let failing = false;
  let lastWarning = Number.NEGATIVE_INFINITY;
  const reportFailure = (error: unknown) => {
    failing = true;
    if (now() - lastWarning < WARNING_INTERVAL_MS) return;
    lastWarning = now();
    // The error's message names the host and the failure, never the URL's password or a key.
    log.warn({ err: error }, 'throttle store (Redis) unreachable: throttles count in this process meanwhile');
  };
  // Without a listener ioredis prints every failed reconnection to stderr.
  redis.on('error', reportFailure);
  redis.on('ready', () => {
    if (!failing) return;
    failing = false;
    lastWarning = Number.NEGATIVE_INFINITY;
    log.info('throttle store (Redis) answers again: throttles count there again');
  });
  try {
    await redis.connect();
  } catch (error) {
    reportFailure(error);
  }
  return {
    redis,
    keyPrefix,
    reportFailure,
    close: () => {
      redis.disconnect();
      return Promise.resolve();
    },
  };
}

/**
 * The store of an app without Redis: every throttle counts in this process.
 *
 * @example
 * const confirmation = adminConfirmation({ code: 480_213, store: localThrottleStore() });
 */
export function localThrottleStore(keyPrefix = 'veriport:'): ThrottleStore {
  return {
    redis: undefined,
    keyPrefix: (name) => throttleKeyPrefix(keyPrefix, name),
    reportFailure: () => undefined,
    close: () => Promise.resolve(),
  };
}

function throttleKeyPrefix(prefix: string, name: string): string {
  return `${prefix}throttle:${name}:`;
}
