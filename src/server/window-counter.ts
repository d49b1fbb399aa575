import type { ThrottleStore } from './throttle-store.js';

/** Counts per key in fixed windows, started by the first count of a key and ended `windowMs` later. */
export interface WindowCounter {
  /**
   * Adds `delta` to the key's count in its current window and resolves to the new count. A negative
   * delta on a key with no current window does nothing (resolves to 0): it never opens one.
   */
  add(key: string, delta: number): Promise<number>;
}

export interface WindowCounterOptions {
  readonly windowMs: number;
  /** The clock of the in-process counts (tests); Redis windows run on Redis's clock. */
  readonly now?: () => number;
}

// One atomic step: a window ends when its key expires; a key is given its expiry when it has none, so a
// key can never outlive its window, whichever replica counted first.
const ADD_SCRIPT = `
local delta = tonumber(ARGV[1])
if delta < 0 and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local count = redis.call('INCRBY', KEYS[1], delta)
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return count
`;

/**
 * A window counter named `name`: in Redis under `store.keyPrefix(name)` when the store has Redis
 * (shared by every replica), else in this process. While Redis fails, counts go to this process's
 * counter and the failure is reported to the store.
 *
 * @example
 * const failures = windowCounter(store, 'admin-confirm', { windowMs: 60_000 });
 * await failures.add('wrong-codes', 1); // 1, then 2, ... until the window ends
 */
export function windowCounter(store: ThrottleStore, name: string, options: WindowCounterOptions): WindowCounter {
  const local = localWindowCounter(options);
  const { redis } = store;
  if (redis === undefined) return local;
  const prefix = store.keyPrefix(name);
  return {
    async add(key, delta) {
      try {
        const count: unknown = await redis.eval(ADD_SCRIPT, 1, prefix + key, delta, options.windowMs);
        if (typeof count !== 'number') throw new TypeError(`Redis answered ${typeof count} for a count`);
        return count;
      } catch (error) {
        store.reportFailure(error);
        return local.add(key, delta);
      }
    },
  };
}

/** The counter of one process, for a handful of keys: a map of open windows (an expired one is dropped when met). */
function localWindowCounter(options: WindowCounterOptions): WindowCounter {
  const now = options.now ?? Date.now;
  const windows = new Map<string, { start: number; count: number }>();
  return {
    add(key, delta) {
      let window = windows.get(key);
      if (window !== undefined && now() - window.start >= options.windowMs) {
        windows.delete(key);
        window = undefined;
      }
      if (window === undefined) {
        if (delta < 0) return Promise.resolve(0);
        window = { start: now(), count: 0 };
        windows.set(key, window);
      }
      window.count += delta;
      return Promise.resolve(window.count);
    },
  };
}
