import { isUnknownArray } from '../lib/json-guards.js';
import type { ThrottleStore } from './throttle-store.js';

/** Counts per key in fixed windows, started by the first count of a key and ended `windowMs` later. */
export interface WindowCounter {
  /**
   * Adds `delta` to the key's count in its current window and resolves to the new count. A negative
   * delta on a key with no current window does nothing (resolves to 0): it never opens one.
   */
  add(key: string, delta: number): Promise<number>;
  /**
   * The key's count in its current window and the milliseconds left (0 when none is open: a 429's Retry-After),
   * without counting or opening a window.
   */
  peek(key: string): Promise<WindowCount>;
}

/** A key's count in its current window and the time until that window ends. */
export interface WindowCount {
  readonly count: number;
  readonly remainingMs: number;
}

export interface WindowCounterOptions {
  readonly windowMs: number;
  /** The clock of the in-process counts (tests); Redis windows run on Redis's clock. */
  readonly now?: () => number;
  /**
   * At most this many open windows in the process (unset: unbounded, for a handful of fixed keys). Past it
   * the ended windows are dropped, then the oldest: keys an attacker chooses (client ids) cost bounded memory.
   */
  readonly maxKeys?: number;
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

// A read: the count and the milliseconds left, {0, 0} when no window is open; opens nothing.
const PEEK_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then return {0, 0} end
return {count, ttl}
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
    async peek(key) {
      try {
        return windowCountOf(await redis.eval(PEEK_SCRIPT, 1, prefix + key));
      } catch (error) {
        store.reportFailure(error);
        return local.peek(key);
      }
    },
  };
}

/** Redis's `{count, ttl}` answer as a WindowCount. */
function windowCountOf(answer: unknown): WindowCount {
  const [count, remainingMs]: readonly unknown[] = isUnknownArray(answer) ? answer : [];
  if (typeof count !== 'number' || typeof remainingMs !== 'number')
    throw new TypeError('Redis answered no count and time left');
  return { count, remainingMs };
}

/** The counter of one process: a map of open windows (an ended one is dropped when met, or to stay under `maxKeys`). */
function localWindowCounter(options: WindowCounterOptions): WindowCounter {
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? Number.POSITIVE_INFINITY;
  const windows = new Map<string, { start: number; count: number }>();
  const makeRoom = () => {
    if (windows.size < maxKeys) return;
    for (const [key, window] of windows) if (now() - window.start >= options.windowMs) windows.delete(key);
    // Insertion order is start order: the oldest windows end first anyway.
    for (const key of windows.keys()) {
      if (windows.size < maxKeys) break;
      windows.delete(key);
    }
  };
  const count = (key: string, delta: number): WindowCount => {
    let window = windows.get(key);
    if (window !== undefined && now() - window.start >= options.windowMs) {
      windows.delete(key);
      window = undefined;
    }
    if (window === undefined) {
      if (delta < 0) return { count: 0, remainingMs: 0 };
      makeRoom();
      window = { start: now(), count: 0 };
      windows.set(key, window);
    }
    window.count += delta;
    return { count: window.count, remainingMs: window.start + options.windowMs - now() };
  };
  const peek = (key: string): WindowCount => {
    const window = windows.get(key);
    const remainingMs = window === undefined ? 0 : window.start + options.windowMs - now();
    return window === undefined || remainingMs <= 0
      ? { count: 0, remainingMs: 0 }
      : { count: window.count, remainingMs };
  };
  return {
    add: (key, delta) => Promise.resolve(count(key, delta).count),
    peek: (key) => Promise.resolve(peek(key)),
  };
}
