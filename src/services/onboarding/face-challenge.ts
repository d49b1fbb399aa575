import { drawChallengeTerms, type TimedChallenge } from '../../engines/liveness/liveness-challenge.js';
import { ApiError, ErrorCode, clientError } from '../../server/errors/api-error.js';
import type { ChallengeBinding, ChallengeRefusal } from '../../store/liveness-challenges.js';
import type { OnboardingContext } from './onboarding-context.js';

/** The answer of the onboarding challenge calls. */
export interface FaceChallengeAnswer {
  challenge: string;
  workflow: string;
  screenColours: string[];
  issuedAt: number;
  expiresAt: number;
  expiresIn: number;
}

/**
 * Issues a challenge for the face sample of one enrollment or authentication (`binding`: its purpose and
 * token hash), under the customer's liveness workflow: a colour sequence when that is a charlie workflow,
 * always a single-use nonce that only that enrollment's addFace (or that authentication's verifyFace)
 * accepts, within the configured lifetime. A new challenge replaces the binding's open one.
 *
 * @example
 * const binding = { purpose: 'onboarding-enrollment', subject: tokenHash } as const;
 * const answer = await issueFaceChallenge(ctx, 'acme', binding, 'charlie2');
 * answer.screenColours; // e.g. ['SCREEN_COLOR_FFFF00', 'SCREEN_COLOR_0000FF', ...]
 * @throws {ApiError} 429 when the customer holds the configured number of open challenges
 */
export async function issueFaceChallenge(
  ctx: OnboardingContext,
  customer: string,
  binding: ChallengeBinding,
  workflow: string,
): Promise<FaceChallengeAnswer> {
  const terms = drawChallengeTerms(workflow, false);
  const { ttlMs, maxOpen } = ctx.challengeSettings;
  const issuedAt = ctx.now().getTime();
  const expiresAt = issuedAt + ttlMs;
  const nonce = await ctx.challenges.issue(
    { customer, ...binding, ...terms, issuedAt: new Date(issuedAt), expiresAt: new Date(expiresAt) },
    maxOpen,
  );
  if (nonce === undefined)
    throw new ApiError(429, 429, `too many open challenges (${maxOpen}): use or let expire the ones issued`, {
      'retry-after': String(Math.ceil(ttlMs / 1000)),
    });
  return {
    challenge: nonce,
    workflow: terms.workflow,
    screenColours: [...terms.screenColours],
    issuedAt,
    expiresAt,
    expiresIn: Math.round(ttlMs / 1000),
  };
}

/**
 * Spends the challenge a face sample carries, when it is the one issued for this enrollment or
 * authentication, and returns its terms for the face check; undefined for a sample without one (refused
 * with 400 -3 when the server requires challenges). A refusal is recorded in the audit log.
 *
 * @example
 * const challenge = await redeemFaceChallenge(ctx, 'acme', binding, nonce, { username: 'alice', step: 'addFace' });
 * await ctx.checkFace(data, policy.livenessWorkflow, challenge);
 * @throws {ApiError} 400 -3 (required, absent), 404 (unknown to this customer), 403 (issued for another
 *   enrollment, authentication or service), 409 (used already), 410 (expired)
 */
export async function redeemFaceChallenge(
  ctx: OnboardingContext,
  customer: string,
  binding: ChallengeBinding,
  nonce: string | undefined,
  audit: { readonly username: string; readonly step: string; readonly deviceId?: string | undefined },
): Promise<TimedChallenge | undefined> {
  if (nonce === undefined) {
    if (!ctx.challengeSettings.required) return undefined;
    throw new ApiError(
      400,
      ErrorCode.missingField,
      "mandatory field missing: 'faceLivenessData.video.workflow_data.challenge' (this server requires a challenge)",
    );
  }
  const outcome = await ctx.challenges.redeem(customer, nonce, binding, ctx.now());
  if (!outcome.ok) {
    const { status, why } = REFUSALS[outcome.reason];
    await ctx.events.record({
      customer,
      username: audit.username,
      event: audit.step,
      outcome: 'refused',
      detail: why,
      deviceId: audit.deviceId,
    });
    throw clientError(status, why);
  }
  const { challenge } = outcome;
  return { ...challenge, issuedAt: challenge.issuedAt.getTime(), expiresAt: challenge.expiresAt.getTime() };
}

/** Onboarding's statuses for a refused challenge, as for its tokens (docs/onboarding.md, Errors). */
const REFUSALS: Readonly<Record<ChallengeRefusal, { status: number; why: string }>> = {
  unknown: { status: 404, why: 'unknown challenge' },
  elsewhere: { status: 403, why: 'challenge issued for another enrollment or authentication' },
  used: { status: 409, why: 'challenge already used: ask for another' },
  expired: { status: 410, why: 'challenge expired: ask for another' },
};
