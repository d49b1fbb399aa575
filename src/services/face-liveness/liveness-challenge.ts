import { checkFollowsChallenge, drawChallengeTerms } from '../../engines/liveness/liveness-challenge.js';
import type { LivenessRequest } from '../../engines/liveness/liveness-request.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import {
  CHALLENGE_PURGE_AFTER_MS,
  type ChallengeBinding,
  type ChallengeRefusal,
} from '../../store/liveness-challenges.js';
import type { FaceLivenessContext } from './liveness-context.js';
import type { ChallengeRequest } from './schemas.js';

/** Face liveness's challenges are bound to the service alone (onboarding's to one enrollment or authentication). */
const BINDING: ChallengeBinding = { purpose: 'face-liveness', subject: '' };

/** The answer of `POST /face-liveness/challenge`. */
export interface ChallengeAnswer {
  challenge: string;
  workflow: string;
  screenColours: string[];
  activeWorkflows: string[];
  issuedAt: number;
  expiresAt: number;
  expiresIn: number;
}

/**
 * `POST /face-liveness/challenge` (an extension beyond the spec): draws the terms for `workflow` (a colour
 * sequence for charlie, two head moves with `active`) and stores them under a fresh single-use nonce for
 * the customer, valid for the configured lifetime.
 *
 * @example
 * const { challenge, screenColours } = await issueLivenessChallenge(liveness, 'acme', { workflow: 'charlie4' });
 * @throws {LivenessInputError} -6 for a workflow that is no passive workflow; {@link ApiError} 429 when the
 *   customer holds the configured number of open challenges
 */
export async function issueLivenessChallenge(
  liveness: FaceLivenessContext,
  customer: string,
  body: ChallengeRequest,
): Promise<ChallengeAnswer> {
  const terms = drawChallengeTerms(body.workflow, body.active ?? false);
  const { ttlMs, maxOpen } = liveness.challengeSettings;
  const issuedAt = liveness.now();
  const expiresAt = issuedAt + ttlMs;
  const nonce = await liveness.challenges.issue(
    { customer, ...BINDING, ...terms, issuedAt: new Date(issuedAt), expiresAt: new Date(expiresAt) },
    maxOpen,
  );
  if (nonce === undefined) {
    const retryAfter = String(Math.ceil(ttlMs / 1000));
    throw new ApiError(
      429,
      429,
      `too many open challenges (${maxOpen}): use or let expire the ones issued (VERIPORT_LIVENESS_CHALLENGE_MAX_OPEN)`,
      { 'retry-after': retryAfter },
    );
  }
  return {
    challenge: nonce,
    workflow: terms.workflow,
    screenColours: [...terms.screenColours],
    activeWorkflows: [...terms.activeWorkflows],
    issuedAt,
    expiresAt,
    expiresIn: Math.round(ttlMs / 1000),
  };
}

/**
 * Uses the challenge a liveness request carries, then checks the request follows it
 * ({@link checkFollowsChallenge}). The nonce is spent by this request whatever follows (a request that does
 * not follow it burns it). Without a nonce nothing is checked, unless the server requires challenges.
 *
 * @example
 * await enforceLivenessChallenge(liveness, 'acme', body.video.workflow_data.challenge, request, [], Date.now());
 * @throws {ApiError} 400 -3 when a challenge is required and absent; 400 -6 for a nonce unknown to this
 *   customer, used, expired or issued for onboarding; {@link LivenessInputError} -6 for a request that does
 *   not follow it
 */
export async function enforceLivenessChallenge(
  liveness: FaceLivenessContext,
  customer: string,
  nonce: string | undefined,
  passive: LivenessRequest,
  actives: readonly LivenessRequest[],
  now: number,
): Promise<void> {
  if (nonce === undefined) {
    if (liveness.challengeSettings.required)
      throw new ApiError(
        400,
        ErrorCode.missingField,
        "mandatory field missing: 'workflow_data.challenge' (this server requires a challenge: POST /face-liveness/challenge)",
      );
    return;
  }
  const outcome = await liveness.challenges.redeem(customer, nonce, BINDING, new Date(now));
  if (!outcome.ok) throw invalidValue(REFUSALS[outcome.reason]);
  const { challenge } = outcome;
  checkFollowsChallenge(
    { ...challenge, issuedAt: challenge.issuedAt.getTime(), expiresAt: challenge.expiresAt.getTime() },
    passive,
    actives,
    { now, maxSkewMs: liveness.decisionContext(now).maxSkewMs },
  );
}

/**
 * The one challenge nonce a set of requests carries (`/checkActiveLiveness`: any of its three may carry it).
 *
 * @example
 * carriedChallenge(body.map((item) => item.video.workflow_data.challenge)); // the nonce, or undefined
 * @throws {ApiError} 400 -6 when they carry different ones
 */
export function carriedChallenge(nonces: ReadonlyArray<string | undefined>): string | undefined {
  const distinct = new Set(nonces.filter((nonce): nonce is string => nonce !== undefined));
  if (distinct.size > 1) throw invalidValue('the requests carry different challenges: send one, in any of them');
  return [...distinct][0];
}

const REFUSALS: Readonly<Record<ChallengeRefusal, string>> = {
  unknown: `challenge unknown: not issued to this customer (or expired more than ${CHALLENGE_PURGE_AFTER_MS / 60_000} minutes ago)`,
  used: 'challenge already used: each is good for one request; ask POST /face-liveness/challenge for another',
  expired: 'challenge expired: ask POST /face-liveness/challenge for another and send the request within its lifetime',
  elsewhere: 'challenge issued for an onboarding enrollment or authentication, not for face liveness',
};
