import type { Kysely } from 'kysely';
import { FINAL_CHECKS, type FinalCheck } from './onboarding-authentications.js';
import type { Database } from './schema.js';
import { storedOneOf } from './stored-value.js';

/** How a customer's users enroll and authenticate (docs/decisions.md, onboarding). */
export interface OnboardingPolicy {
  /** The check after verifyDevice: `verifyFace` (default) or `deviceSecurity` (later issue). */
  readonly finalCheck: FinalCheck;
  /** Face-liveness workflow of addFace and verifyFace; the client's own workflow value is not trusted. */
  readonly livenessWorkflow: string;
  /** Least `-log10(FMR)` of the F500 match for verifyFace and for a re-enrollment without the code. */
  readonly matchFmrScore: number;
  /** Failed face samples per enrollment, and failed checks per authentication, before it fails. */
  readonly maxAttempts: number;
}

/** The policy of customers that set none: passive liveness at level 2, a match at FMR 1 in 1000, 3 tries. */
export const DEFAULT_ONBOARDING_POLICY: OnboardingPolicy = {
  finalCheck: 'verifyFace',
  livenessWorkflow: 'hotel2',
  matchFmrScore: 3,
  maxAttempts: 3,
};

/** Per-customer onboarding policies. */
export interface OnboardingPoliciesRepository {
  /** The customer's policy, or the default. */
  get(customer: string): Promise<OnboardingPolicy>;
  /** Sets some fields of the customer's policy (the others keep their current value). */
  set(customer: string, changes: Partial<OnboardingPolicy>): Promise<OnboardingPolicy>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * await onboardingPoliciesRepository(store.db).set('acme', { livenessWorkflow: 'foxtrot4' });
 */
export function onboardingPoliciesRepository(db: Kysely<Database>): OnboardingPoliciesRepository {
  const get = async (customer: string): Promise<OnboardingPolicy> => {
    const row = await db
      .selectFrom('onboarding_policies')
      .selectAll()
      .where('customer', '=', customer)
      .executeTakeFirst();
    if (row === undefined) return DEFAULT_ONBOARDING_POLICY;
    return {
      finalCheck: storedOneOf(FINAL_CHECKS, row.final_check, 'onboarding_policies.final_check'),
      livenessWorkflow: row.liveness_workflow,
      matchFmrScore: Number(row.match_fmr_score),
      maxAttempts: row.max_attempts,
    };
  };
  return {
    get,
    async set(customer, changes) {
      const next = { ...(await get(customer)), ...changes };
      const values = {
        final_check: next.finalCheck,
        liveness_workflow: next.livenessWorkflow,
        match_fmr_score: next.matchFmrScore,
        max_attempts: next.maxAttempts,
      };
      await db
        .insertInto('onboarding_policies')
        .values({ customer, ...values })
        .onConflict((oc) => oc.column('customer').doUpdateSet(values))
        .execute();
      return next;
    },
  };
}
