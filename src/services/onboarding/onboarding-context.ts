import type { TemplateSealer } from '../../crypto/template-sealing.js';
import type { TimedChallenge } from '../../engines/liveness/liveness-challenge.js';
import { livenessContext } from '../../engines/liveness/passive-liveness.js';
import type { LivenessChallengeSettings } from '../../server/config.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import { livenessChallengesRepository, type LivenessChallengesRepository } from '../../store/liveness-challenges.js';
import {
  onboardingAuthenticationsRepository,
  type OnboardingAuthenticationsRepository,
} from '../../store/onboarding-authentications.js';
import {
  onboardingEnrollmentsRepository,
  type OnboardingEnrollmentsRepository,
} from '../../store/onboarding-enrollments.js';
import { onboardingEventsRepository, type OnboardingEventsRepository } from '../../store/onboarding-events.js';
import { onboardingPoliciesRepository, type OnboardingPoliciesRepository } from '../../store/onboarding-policies.js';
import { onboardingUsersRepository, type OnboardingUsersRepository } from '../../store/onboarding-users.js';
import { checkFaceSample, type FaceCheck } from './face-check.js';
import type { FaceLivenessData } from './schemas.js';

/**
 * What the enrollment and authentication flows work with: their repositories, sealer, face check and
 * clock. Everything the flows decide on comes through here, so a test can build one from fakes.
 */
export interface OnboardingContext {
  readonly users: OnboardingUsersRepository;
  readonly enrollments: OnboardingEnrollmentsRepository;
  readonly authentications: OnboardingAuthenticationsRepository;
  readonly policies: OnboardingPoliciesRepository;
  readonly events: OnboardingEventsRepository;
  /** Seals face templates and HMAC device secrets at rest. */
  readonly sealer: TemplateSealer;
  /**
   * Liveness of a face sample under the customer's `workflow`, and its F500 template ({@link checkFaceSample});
   * with a `challenge`, the sample must follow it.
   */
  readonly checkFace: (data: FaceLivenessData, workflow: string, challenge?: TimedChallenge) => Promise<FaceCheck>;
  /** Server-issued challenges bound to one enrollment or authentication (face-challenge.ts), and their settings. */
  readonly challenges: LivenessChallengesRepository;
  readonly challengeSettings: LivenessChallengeSettings;
  readonly enrollmentTtlMs: number;
  readonly authTtlMs: number;
  readonly now: () => Date;
}

/**
 * Builds the flows' context from the server's dependencies.
 *
 * @example
 * const context = onboardingContext(deps);
 * const enrollment = enrollmentFlow(context);
 */
export function onboardingContext(deps: ServiceDependencies, now: () => Date = () => new Date()): OnboardingContext {
  const db = deps.store.db;
  return {
    users: onboardingUsersRepository(db),
    enrollments: onboardingEnrollmentsRepository(db),
    authentications: onboardingAuthenticationsRepository(db),
    policies: onboardingPoliciesRepository(db),
    events: onboardingEventsRepository(db),
    sealer: deps.templateSealer,
    // The onboarding pair opens the frame envelopes (its public half is what `GET /getPublicKey` serves);
    // frames sealed for another purpose (face liveness's key) do not open.
    checkFace: (data, workflow, challenge) =>
      checkFaceSample(deps.faceEngine(), data, {
        workflow,
        envelopeKey: deps.envelopeKeys.key('onboarding'),
        context: livenessContext(deps.config, now().getTime()),
        challenge,
      }),
    challenges: livenessChallengesRepository(db),
    challengeSettings: deps.config.livenessChallenge,
    enrollmentTtlMs: deps.config.enrollmentTtlSeconds * 1000,
    authTtlMs: deps.config.authTtlSeconds * 1000,
    now,
  };
}

/** The sealing context of a user's face template: a sealed template copied to another user's row does not open. */
export function faceTemplateContext(customer: string, username: string): string {
  return `onboarding/${customer}/${username}/face/F500`;
}

/** The sealing context of a device's HMAC secret. */
export function deviceSecretContext(customer: string, username: string, deviceId: string): string {
  return `onboarding/${customer}/${username}/device/${deviceId}`;
}
