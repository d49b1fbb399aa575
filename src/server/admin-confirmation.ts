import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, ErrorCode, clientError } from './errors/api-error.js';

export interface AdminConfirmationOptions {
  /** The operator's code; undefined disables the destructive calls altogether. */
  readonly code: number | undefined;
  /** Wrong codes allowed per window before the calls answer 429 for the rest of it. */
  readonly maxFailures?: number;
  readonly windowMs?: number;
  readonly now?: () => number;
}

/** Checks the `confirm` value of a destructive admin call. */
export interface AdminConfirmation {
  /** Throws (403 disabled, 429 throttled, 400 -6 wrong code) unless `confirm` is the operator's code. */
  check(confirm: number, action: string): void;
}

/**
 * Guards reset and shutdown: `confirm` must equal the code the operator configured
 * (VERIPORT_ADMIN_CONFIRM), so neither a stray call nor `confirm: 1` can wipe counters or stop the
 * server; repeated wrong codes are throttled so the code cannot be guessed by trying.
 *
 * @example
 * const confirmation = adminConfirmation({ code: 480_213 });
 * confirmation.check(body.confirm, 'reset'); // throws unless body.confirm === 480213
 */
export function adminConfirmation(options: AdminConfirmationOptions): AdminConfirmation {
  const maxFailures = options.maxFailures ?? 5;
  const windowMs = options.windowMs ?? 60_000;
  const now = options.now ?? Date.now;
  let windowStart = 0;
  let failures = 0;

  return {
    check(confirm: number, action: string): void {
      if (options.code === undefined) {
        throw clientError(
          403,
          `${action} is disabled on this server: the operator enables it by setting VERIPORT_ADMIN_CONFIRM`,
        );
      }
      if (now() - windowStart >= windowMs) {
        windowStart = now();
        failures = 0;
      }
      if (failures >= maxFailures) {
        throw clientError(
          429,
          `too many wrong confirm values; ${action} is refused for up to ${Math.ceil(windowMs / 1000)} s`,
        );
      }
      if (!sameCode(confirm, options.code)) {
        failures += 1;
        throw new ApiError(
          400,
          ErrorCode.invalidValue,
          `'confirm' does not match this server's confirmation code; nothing was done`,
        );
      }
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
