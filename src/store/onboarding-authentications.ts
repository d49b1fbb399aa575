import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { storedOneOf } from './stored-value.js';

/** started (authenticate) -> device-verified (authStatus 1) -> complete (2) | failed. */
export const AUTHENTICATION_STATES = ['started', 'device-verified', 'complete', 'failed'] as const;
export type AuthenticationState = (typeof AUTHENTICATION_STATES)[number];

/** The check that follows verifyDevice, fixed by the customer's policy when the authentication starts. */
export const FINAL_CHECKS = ['verifyFace', 'deviceSecurity'] as const;
export type FinalCheck = (typeof FINAL_CHECKS)[number];

/** An authentication in progress, found by its `authToken`'s hash and customer. */
export interface Authentication {
  readonly tokenHash: string;
  readonly customer: string;
  readonly username: string;
  readonly deviceId: string;
  readonly finalCheck: FinalCheck;
  readonly state: AuthenticationState;
  readonly attempts: number;
  readonly expiresAt: Date;
}

/**
 * Authentications in progress; every change is a conditional update on the state read, so an
 * `authToken` advances once.
 */
export interface OnboardingAuthenticationsRepository {
  start(authentication: {
    tokenHash: string;
    customer: string;
    username: string;
    deviceId: string;
    finalCheck: FinalCheck;
    expiresAt: Date;
  }): Promise<void>;
  find(customer: string, tokenHash: string): Promise<Authentication | undefined>;
  /** `from` -> `to`; false when the authentication was not in `from` any more. */
  advance(customer: string, tokenHash: string, from: AuthenticationState, to: AuthenticationState): Promise<boolean>;
  /**
   * A device check sent to review (device security, Doc 1 endpoint 13) steps the authentication up to a face
   * check: final check deviceSecurity -> verifyFace, still device-verified. False when it was not so any more.
   */
  stepUpToFace(customer: string, tokenHash: string): Promise<boolean>;
  /**
   * Counts a failed check in state `from`; the authentication fails at `maxAttempts`. Undefined when it
   * was not in `from`.
   */
  recordFailure(
    customer: string,
    tokenHash: string,
    from: AuthenticationState,
    maxAttempts: number,
  ): Promise<{ state: AuthenticationState; attempts: number } | undefined>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const authentications = onboardingAuthenticationsRepository(store.db);
 * await authentications.advance('acme', sha256Hex(authToken), 'started', 'device-verified');
 */
export function onboardingAuthenticationsRepository(db: Kysely<Database>): OnboardingAuthenticationsRepository {
  const row = (customer: string, tokenHash: string) =>
    db.updateTable('onboarding_authentications').where('customer', '=', customer).where('token_hash', '=', tokenHash);
  return {
    async start(a) {
      await db
        .insertInto('onboarding_authentications')
        .values({
          token_hash: a.tokenHash,
          customer: a.customer,
          username: a.username,
          device_id: a.deviceId,
          final_check: a.finalCheck,
          state: 'started',
          expires_at: a.expiresAt,
        })
        .execute();
    },
    async find(customer, tokenHash) {
      const r = await db
        .selectFrom('onboarding_authentications')
        .selectAll()
        .where('customer', '=', customer)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (r === undefined) return undefined;
      return {
        tokenHash: r.token_hash,
        customer: r.customer,
        username: r.username,
        deviceId: r.device_id,
        finalCheck: storedOneOf(FINAL_CHECKS, r.final_check, 'onboarding_authentications.final_check'),
        state: storedOneOf(AUTHENTICATION_STATES, r.state, 'onboarding_authentications.state'),
        attempts: r.attempts,
        expiresAt: new Date(r.expires_at),
      };
    },
    async advance(customer, tokenHash, from, to) {
      const updated = await row(customer, tokenHash).set({ state: to }).where('state', '=', from).executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async stepUpToFace(customer, tokenHash) {
      const updated = await row(customer, tokenHash)
        .set({ final_check: 'verifyFace' })
        .where('state', '=', 'device-verified')
        .where('final_check', '=', 'deviceSecurity')
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async recordFailure(customer, tokenHash, from, maxAttempts) {
      const r = await row(customer, tokenHash)
        .set((eb) => ({
          attempts: eb('attempts', '+', 1),
          state: eb
            .case()
            .when('attempts', '>=', maxAttempts - 1)
            .then('failed')
            .else(from)
            .end(),
        }))
        .where('state', '=', from)
        .returning(['state', 'attempts'])
        .executeTakeFirst();
      return r === undefined
        ? undefined
        : {
            state: storedOneOf(AUTHENTICATION_STATES, r.state, 'onboarding_authentications.state'),
            attempts: r.attempts,
          };
    },
  };
}
