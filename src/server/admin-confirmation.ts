import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, ErrorCode, clientError } from './errors/api-error.js';
import { localThrottleStore, type ThrottleStore } from './throttle-store.js';
import { windowCounter } from './window-counter.js';

export interface AdminConfirmationOptions {
  /** The operator's code; undefined disables the destructive calls altogether. */
  readonly code: number | undefined;
  /**
   * Where wrong codes are counted: with Redis every replica and service shares one count, else each
   * confirmation counts in this process. Default: in this process.
   */
  readonly store?: ThrottleStore;
  /** Wrong codes allowed per window before the calls answer 429 for the rest of it. */
  readonly maxFailures?: number;
  readonly windowMs?: number;
  readonly now?: () => number;
}

/** Checks the `confirm` value of a destructive admin call. */
export interface AdminConfirmation {
  /** Rejects (403 disabled, 429 throttled, 400 -6 wrong code) unless `confirm` is the operator's code. */
  check(confirm: number, action: string): Promise<void>;
}

/** The throttle's name in the store's keys: `<prefix>throttle:admin-confirm:wrong-codes`. */
const THROTTLE_NAME = 'admin-confirm';
const KEY = 'wrong-codes';

/**
 * Guards reset and shutdown: `confirm` must equal the code the operator configured
 * (VERIPORT_ADMIN_CONFIRM), so neither a stray call nor `confirm: 1` can wipe counters or stop the
 * server; repeated wrong codes are throttled so the code cannot be guessed by trying. Each call first
 * takes one try from the window's budget (one atomic increment, so concurrent calls on any replica
 * cannot overrun it) and gives it back when the code was right.
 *
 * @example
 * const confirmation = adminConfirmation({ code: 480_213, store: deps.throttleStore });
 * await confirmation.check(body.confirm, 'reset'); // rejects unless body.confirm === 480213
 */
export function adminConfirmation(options: AdminConfirmationOptions): AdminConfirmation {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  const failures = windowCounter(options.store ?? localThrottleStore(), THROTTLE_NAME, { windowMs, now: options.now });

  return {
    async check(confirm: number, action: string): Promise<void> {
      if (options.code === undefined) {
        throw clientError(
          403,
          `${action} is disabled on this server: the operator enables it by setting VERIPORT_ADMIN_CONFIRM`,
        );
      }
      const tries = await failures.add(KEY, 1);
      if (tries > maxFailures) {
        throw clientError(
          429,
          `too many wrong confirm values; ${action} is refused for up to ${Math.ceil(windowMs / 1000)} s`,
        );
      }
      if (!sameCode(confirm, options.code)) {
        throw new ApiError(
          400,
          ErrorCode.invalidValue,
          `'confirm' does not match this server's confirmation code; nothing was done`,
        );
      }
      await failures.add(KEY, -1);
    },
  };
}

/**
 * Whether `given` is the configured code, in time independent of where they differ and of their
 * lengths: both are compared as SHA-256 digests of their decimal text, which always have 32 bytes,
 * so a code of another length is refused like any other wrong code (and never reaches
 * timingSafeEqual with unequal lengths).
 */
function sameCode(given: number, expected: number): boolean {
  return timingSafeEqual(digestOf(given), digestOf(expected));
}

function digestOf(code: number): Buffer {
  return createHash('sha256').update(String(code)).digest();
}
