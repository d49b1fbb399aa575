import { randomUUID } from 'node:crypto';

/** The Redis the shared-services tests use (REDIS_URL; `npm run test:postgres` and .ci/run set it). */
export const REDIS_URL = process.env.REDIS_URL;

/** `describe`'s skip option: a reason when no Redis is configured, else false. */
export const REDIS_SKIP =
  REDIS_URL === undefined || REDIS_URL === ''
    ? 'REDIS_URL is not set: these tests need a Redis (e.g. REDIS_URL=redis://127.0.0.1:6379 npm run test:postgres)'
    : false;

/**
 * A key prefix of this test file's run alone, so that runs never see each other's keys (deleted at the end).
 *
 * @example
 * const PREFIX = redisTestPrefix(); // 'veriport-test-1234-1a2b3c4d:'
 */
export function redisTestPrefix(): string {
  return `veriport-test-${process.pid}-${randomUUID().slice(0, 8)}:`;
}
