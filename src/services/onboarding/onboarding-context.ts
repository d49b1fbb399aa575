import type { KeyObject } from 'node:crypto';
import { templateSealer, type TemplateSealer } from '../../crypto/template-sealing.js';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import { livenessContext, type LivenessContext } from '../../engines/liveness/passive-liveness.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
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

/** What the enrollment and authentication flows work with: their repositories, keys, engine and clock. */
export interface OnboardingContext {
  readonly users: OnboardingUsersRepository;
  readonly enrollments: OnboardingEnrollmentsRepository;
  readonly authentications: OnboardingAuthenticationsRepository;
  readonly policies: OnboardingPoliciesRepository;
  readonly events: OnboardingEventsRepository;
  /** Seals face templates and HMAC device secrets at rest. */
  readonly sealer: TemplateSealer;
  readonly faceEngine: () => FaceEngine;
  /** Opens the frame envelopes (the pair whose public half `GET /getPublicKey` serves). */
  readonly privateKey: KeyObject;
  readonly liveness: (now: number) => LivenessContext;
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
    sealer: templateSealer(deps.config.templateKey ?? deps.serverKeys.privateKey),
    faceEngine: deps.faceEngine,
    privateKey: deps.serverKeys.privateKey,
    liveness: (at) => livenessContext(deps.config, at),
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
