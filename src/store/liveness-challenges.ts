import type { Kysely, Selectable } from 'kysely';
import { randomSecret, sha256Hex } from '../crypto/secret-hash.js';
import type { Database, LivenessChallengesTable } from './schema.js';
import { storedOneOf, StoredValueError } from './stored-value.js';

/** Where a challenge may be used: the face-liveness calls, or one onboarding enrollment or authentication. */
export const CHALLENGE_PURPOSES = ['face-liveness', 'onboarding-enrollment', 'onboarding-authentication'] as const;
export type ChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];

/** What a challenge is bound to besides its customer: the purpose, and for onboarding the token hash. */
export interface ChallengeBinding {
  readonly purpose: ChallengePurpose;
  /** SHA-256 hex of the enrollmentToken or authToken; '' for face liveness. */
  readonly subject: string;
}

/** A challenge as stored: what the request that uses it must show, and when. */
export interface StoredChallenge extends ChallengeBinding {
  readonly customer: string;
  readonly workflow: string;
  /** Screen-colour tags in the order shown (charlie); empty otherwise. */
  readonly screenColours: readonly string[];
  /** Active workflow names in the order asked (checkActiveLiveness); empty otherwise. */
  readonly activeWorkflows: readonly string[];
  readonly issuedAt: Date;
  readonly expiresAt: Date;
}

/** Why a nonce was not accepted: never issued to this customer, used already, expired, or bound elsewhere. */
export type ChallengeRefusal = 'unknown' | 'used' | 'expired' | 'elsewhere';

export type ChallengeRedemption =
  | { readonly ok: true; readonly challenge: StoredChallenge }
  | { readonly ok: false; readonly reason: ChallengeRefusal };

/**
 * Rows expired longer ago than this are deleted when the customer is issued a new challenge; until then a
 * replay is told "used" or "expired" rather than "unknown".
 */
export const CHALLENGE_PURGE_AFTER_MS = 10 * 60_000;

export interface LivenessChallengesRepository {
  /**
   * Stores a new challenge under a fresh nonce (256 random bits, base64url; kept only as its SHA-256) and
   * returns the nonce, unless the customer already holds `maxOpen` open ones (unused, unexpired): then
   * undefined. A challenge with a subject replaces the open ones of that subject. The count and the insert
   * are two statements: concurrent issues may pass the cap by their number.
   */
  issue(challenge: StoredChallenge, maxOpen: number): Promise<string | undefined>;
  /**
   * Marks the challenge of `nonce` used by one atomic conditional UPDATE (unused, unexpired at `now`, this
   * customer, this binding); of any number of concurrent redemptions, on any replica, exactly one gets `ok`.
   */
  redeem(customer: string, nonce: string, binding: ChallengeBinding, now: Date): Promise<ChallengeRedemption>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const challenges = livenessChallengesRepository(store.db);
 * const nonce = await challenges.issue(challenge, 1000); // undefined when the customer holds 1000 open ones
 * const outcome = await challenges.redeem('acme', nonce, { purpose: 'face-liveness', subject: '' }, new Date());
 * if (!outcome.ok) outcome.reason; // 'used' for a replay
 */
export function livenessChallengesRepository(db: Kysely<Database>): LivenessChallengesRepository {
  return {
    async issue(challenge, maxOpen) {
      const { customer, issuedAt } = challenge;
      await db
        .deleteFrom('liveness_challenges')
        .where('customer', '=', customer)
        .where('expires_at', '<', new Date(issuedAt.getTime() - CHALLENGE_PURGE_AFTER_MS))
        .execute();
      if (challenge.subject !== '') {
        await db
          .deleteFrom('liveness_challenges')
          .where('customer', '=', customer)
          .where('purpose', '=', challenge.purpose)
          .where('subject', '=', challenge.subject)
          .where('consumed_at', 'is', null)
          .execute();
      }
      const open = await db
        .selectFrom('liveness_challenges')
        .select((eb) => eb.fn.countAll<string | number | bigint>().as('open'))
        .where('customer', '=', customer)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', issuedAt)
        .executeTakeFirst();
      if (Number(open?.open ?? 0) >= maxOpen) return undefined;
      const nonce = randomSecret();
      await db
        .insertInto('liveness_challenges')
        .values({
          customer,
          nonce_hash: sha256Hex(nonce),
          purpose: challenge.purpose,
          subject: challenge.subject,
          workflow: challenge.workflow,
          screen_colours: joinList(challenge.screenColours),
          active_workflows: joinList(challenge.activeWorkflows),
          issued_at: issuedAt,
          expires_at: challenge.expiresAt,
          consumed_at: null,
        })
        .execute();
      return nonce;
    },

    async redeem(customer, nonce, binding, now) {
      const nonceHash = sha256Hex(nonce);
      const used = await db
        .updateTable('liveness_challenges')
        .set({ consumed_at: now })
        .where('customer', '=', customer)
        .where('nonce_hash', '=', nonceHash)
        .where('purpose', '=', binding.purpose)
        .where('subject', '=', binding.subject)
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', now)
        .returningAll()
        .executeTakeFirst();
      if (used !== undefined) return { ok: true, challenge: fromRow(used) };
      // Nothing changed: read why, for the caller's message (the row, if any, is this customer's).
      const row = await db
        .selectFrom('liveness_challenges')
        .selectAll()
        .where('customer', '=', customer)
        .where('nonce_hash', '=', nonceHash)
        .executeTakeFirst();
      if (row === undefined) return { ok: false, reason: 'unknown' };
      if (row.purpose !== binding.purpose || row.subject !== binding.subject) return { ok: false, reason: 'elsewhere' };
      return { ok: false, reason: row.consumed_at !== null ? 'used' : 'expired' };
    },
  };
}

function fromRow(row: Selectable<LivenessChallengesTable>): StoredChallenge {
  return {
    customer: row.customer,
    purpose: storedOneOf(CHALLENGE_PURPOSES, row.purpose, 'liveness_challenges.purpose'),
    subject: row.subject,
    workflow: row.workflow,
    screenColours: splitList(row.screen_colours, 'liveness_challenges.screen_colours'),
    activeWorkflows: splitList(row.active_workflows, 'liveness_challenges.active_workflows'),
    issuedAt: new Date(row.issued_at),
    expiresAt: new Date(row.expires_at),
  };
}

const LIST_ITEM = /^[A-Za-z0-9_]{1,64}$/;

function joinList(items: readonly string[]): string {
  const bad = items.find((item) => !LIST_ITEM.test(item));
  if (bad !== undefined) throw new RangeError(`'${bad}' cannot be stored in a challenge list (letters, digits, _)`);
  return items.join(',');
}

function splitList(value: string, column: string): string[] {
  if (value === '') return [];
  const items = value.split(',');
  if (!items.every((item) => LIST_ITEM.test(item)))
    throw new StoredValueError(`${column} holds a value the program never writes`);
  return items;
}
