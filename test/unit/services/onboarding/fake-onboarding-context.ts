import { randomBytes } from 'node:crypto';
import { templateSealer } from '../../../../src/crypto/template-sealing.js';
import { FACE_ALGORITHMS } from '../../../../src/engines/face/algorithms.js';
import type { LivenessDecision, LivenessResult } from '../../../../src/engines/liveness/passive-liveness.js';
import type { FaceCheck } from '../../../../src/services/onboarding/face-check.js';
import type { OnboardingContext } from '../../../../src/services/onboarding/onboarding-context.js';
import type { FaceLivenessData } from '../../../../src/services/onboarding/schemas.js';
import type {
  Authentication,
  OnboardingAuthenticationsRepository,
} from '../../../../src/store/onboarding-authentications.js';
import type { Enrollment, OnboardingEnrollmentsRepository } from '../../../../src/store/onboarding-enrollments.js';
import type { OnboardingEvent, OnboardingEventsRepository } from '../../../../src/store/onboarding-events.js';
import {
  DEFAULT_ONBOARDING_POLICY,
  type OnboardingPoliciesRepository,
  type OnboardingPolicy,
} from '../../../../src/store/onboarding-policies.js';
import type { OnboardingUser, OnboardingUsersRepository } from '../../../../src/store/onboarding-users.js';
import type { TimedChallenge } from '../../../../src/engines/liveness/liveness-challenge.js';
import type { LivenessChallengeSettings } from '../../../../src/server/config.js';
import type { LivenessChallengesRepository, StoredChallenge } from '../../../../src/store/liveness-challenges.js';

/** What the fake face check answers next: the liveness decision and the template (absent: no usable face). */
export interface FakeFace {
  readonly decision: LivenessDecision;
  readonly template: Float32Array | undefined;
}

/** An in-memory onboarding store, a settable face check and a settable clock behind an {@link OnboardingContext}. */
export interface FakeOnboarding {
  readonly ctx: OnboardingContext;
  readonly users: Map<string, { user: OnboardingUser; registrationCodeHash: string }>;
  readonly enrollments: Map<string, Enrollment>;
  readonly authentications: Map<string, Authentication>;
  readonly events: OnboardingEvent[];
  /** The workflows the face check was called with, in order. */
  readonly faceChecks: string[];
  /** The challenge each face check was given (undefined: none), in order. */
  readonly faceChallenges: Array<TimedChallenge | undefined>;
  /** Challenge settings the flows read; a test may change them. */
  readonly challengeSettings: { ttlMs: number; maxOpen: number; required: boolean };
  /** The answer of the next face checks. */
  face: FakeFace;
  setPolicy(customer: string, changes: Partial<OnboardingPolicy>): void;
  /** Moves the clock on. */
  advance(ms: number): void;
}

export const ENROLLMENT_TTL_MS = 15 * 60_000;
export const AUTH_TTL_MS = 5 * 60_000;

/** A unit F500-sized vector along axis `axis`: equal axes match (cosine 1), different ones do not (cosine 0). */
export function faceVector(axis: number): Float32Array {
  const vector = new Float32Array(FACE_ALGORITHMS.F500.dimensions);
  vector[axis] = 1;
  return vector;
}

/** A face sample as the schema admits it; the fake check never reads it. */
export const SAMPLE: FaceLivenessData = {
  video: { workflow_data: { workflow: 'charlie2', frames: [{ data: 'sealed', timestamp: 1 }] } },
};

const key = (customer: string, id: string) => `${customer}\u0000${id}`;

/**
 * Builds an {@link OnboardingContext} over in-memory repositories that keep the store's rules (each
 * change is conditional on the state read; a completed enrollment writes the user and ends the user's
 * authentications), with a fake face check and a clock the test moves.
 */
export function fakeOnboarding(): FakeOnboarding {
  let now = Date.UTC(2025, 0, 1);
  const users = new Map<string, { user: OnboardingUser; registrationCodeHash: string }>();
  const enrollments = new Map<string, Enrollment>();
  const authentications = new Map<string, Authentication>();
  const policies = new Map<string, OnboardingPolicy>();
  const events: OnboardingEvent[] = [];
  const faceChecks: string[] = [];
  const faceChallenges: Array<TimedChallenge | undefined> = [];
  const challengeSettings = { ttlMs: 60_000, maxOpen: 1000, required: false };
  // The store's rules: keyed by customer and nonce; used once, before expiry, only where bound.
  const challenges = new Map<string, StoredChallenge & { used: boolean }>();
  let nonces = 0;
  const challengesRepository: LivenessChallengesRepository = {
    issue(challenge, maxOpen) {
      const at = challenge.issuedAt.getTime();
      for (const [id, open] of challenges)
        if (open.customer === challenge.customer && open.subject === challenge.subject && !open.used)
          challenges.delete(id);
      const open = [...challenges.values()].filter(
        (c) => c.customer === challenge.customer && !c.used && c.expiresAt.getTime() > at,
      );
      if (open.length >= maxOpen) return Promise.resolve(undefined);
      const nonce = `nonce-${++nonces}`;
      challenges.set(key(challenge.customer, nonce), { ...challenge, used: false });
      return Promise.resolve(nonce);
    },
    redeem(customer, nonce, binding, at) {
      const row = challenges.get(key(customer, nonce));
      if (row === undefined) return Promise.resolve({ ok: false, reason: 'unknown' } as const);
      if (row.purpose !== binding.purpose || row.subject !== binding.subject)
        return Promise.resolve({ ok: false, reason: 'elsewhere' } as const);
      if (row.used) return Promise.resolve({ ok: false, reason: 'used' } as const);
      if (row.expiresAt <= at) return Promise.resolve({ ok: false, reason: 'expired' } as const);
      row.used = true;
      return Promise.resolve({ ok: true, challenge: row } as const);
    },
  };

  const usersRepository: OnboardingUsersRepository = {
    find: (customer, username) => Promise.resolve(users.get(key(customer, username))?.user),
    findByRegistrationCode: (customer, codeHash) =>
      Promise.resolve(
        [...users.values()].find((row) => row.user.customer === customer && row.registrationCodeHash === codeHash)
          ?.user,
      ),
  };

  const enrollmentsRepository: OnboardingEnrollmentsRepository = {
    start({ tokenHash, customer, user, codePresented, expiresAt }) {
      for (const [id, open] of enrollments)
        if (
          open.customer === customer &&
          open.user.username === user.username &&
          (open.state === 'started' || open.state === 'pending')
        )
          enrollments.set(id, { ...open, state: 'superseded' });
      enrollments.set(key(customer, tokenHash), {
        tokenHash,
        customer,
        user,
        codePresented,
        state: 'started',
        device: undefined,
        faceAttempts: 0,
        expiresAt,
      });
      return Promise.resolve();
    },
    find: (customer, tokenHash) => Promise.resolve(enrollments.get(key(customer, tokenHash))),
    bindDevice(customer, tokenHash, device) {
      const row = enrollments.get(key(customer, tokenHash));
      if (row?.state !== 'started') return Promise.resolve(false);
      enrollments.set(key(customer, tokenHash), { ...row, state: 'pending', device });
      return Promise.resolve(true);
    },
    fail(customer, tokenHash, from) {
      const row = enrollments.get(key(customer, tokenHash));
      if (row === undefined || !from.includes(row.state)) return Promise.resolve(false);
      enrollments.set(key(customer, tokenHash), { ...row, state: 'failed' });
      return Promise.resolve(true);
    },
    recordFailedFace(customer, tokenHash, maxAttempts) {
      const row = enrollments.get(key(customer, tokenHash));
      if (row?.state !== 'pending') return Promise.resolve(undefined);
      const counted = {
        state: row.faceAttempts >= maxAttempts - 1 ? ('failed' as const) : ('pending' as const),
        faceAttempts: row.faceAttempts + 1,
      };
      enrollments.set(key(customer, tokenHash), { ...row, ...counted });
      return Promise.resolve(counted);
    },
    complete(customer, tokenHash, completed, at) {
      const row = enrollments.get(key(customer, tokenHash));
      if (row?.state !== 'pending') return Promise.resolve(false);
      enrollments.set(key(customer, tokenHash), { ...row, state: 'complete' });
      users.set(key(customer, row.user.username), {
        user: {
          ...row.user,
          customer,
          device: completed.device,
          sealedFaceTemplate: completed.sealedFaceTemplate,
          enrolledAt: at,
        },
        registrationCodeHash: completed.registrationCodeHash,
      });
      for (const [id, auth] of authentications)
        if (auth.customer === customer && auth.username === row.user.username) authentications.delete(id);
      return Promise.resolve(true);
    },
  };

  const authenticationsRepository: OnboardingAuthenticationsRepository = {
    start(a) {
      authentications.set(key(a.customer, a.tokenHash), { ...a, state: 'started', attempts: 0 });
      return Promise.resolve();
    },
    find: (customer, tokenHash) => Promise.resolve(authentications.get(key(customer, tokenHash))),
    advance(customer, tokenHash, from, to) {
      const row = authentications.get(key(customer, tokenHash));
      if (row?.state !== from) return Promise.resolve(false);
      authentications.set(key(customer, tokenHash), { ...row, state: to });
      return Promise.resolve(true);
    },
    stepUpToFace(customer, tokenHash) {
      const row = authentications.get(key(customer, tokenHash));
      if (row?.state !== 'device-verified' || row.finalCheck !== 'deviceSecurity') return Promise.resolve(false);
      authentications.set(key(customer, tokenHash), { ...row, finalCheck: 'verifyFace' });
      return Promise.resolve(true);
    },
    recordFailure(customer, tokenHash, from, maxAttempts) {
      const row = authentications.get(key(customer, tokenHash));
      if (row?.state !== from) return Promise.resolve(undefined);
      const counted = { state: row.attempts >= maxAttempts - 1 ? 'failed' : from, attempts: row.attempts + 1 } as const;
      authentications.set(key(customer, tokenHash), { ...row, ...counted });
      return Promise.resolve(counted);
    },
  };

  const policiesRepository: OnboardingPoliciesRepository = {
    get: (customer) => Promise.resolve(policies.get(customer) ?? DEFAULT_ONBOARDING_POLICY),
    set(customer, changes) {
      const next = { ...(policies.get(customer) ?? DEFAULT_ONBOARDING_POLICY), ...changes };
      policies.set(customer, next);
      return Promise.resolve(next);
    },
  };

  const eventsRepository: OnboardingEventsRepository = {
    record(event) {
      events.push(event);
      return Promise.resolve();
    },
    list: (customer, username) =>
      Promise.resolve(
        events
          .filter((e) => e.customer === customer && e.username === username)
          .map((e) => ({ ...e, at: new Date(now) })),
      ),
  };

  const fake: FakeOnboarding = {
    ctx: {
      users: usersRepository,
      enrollments: enrollmentsRepository,
      authentications: authenticationsRepository,
      policies: policiesRepository,
      events: eventsRepository,
      sealer: templateSealer(randomBytes(32)),
      checkFace: (_data, workflow, challenge) => {
        faceChecks.push(workflow);
        faceChallenges.push(challenge);
        return Promise.resolve(faceCheck(fake.face));
      },
      enrollmentTtlMs: ENROLLMENT_TTL_MS,
      authTtlMs: AUTH_TTL_MS,
      now: () => new Date(now),
      challenges: challengesRepository,
      challengeSettings: challengeSettings satisfies LivenessChallengeSettings,
    },
    users,
    enrollments,
    authentications,
    events,
    faceChecks,
    faceChallenges,
    challengeSettings,
    face: { decision: 'LIVE', template: faceVector(0) },
    setPolicy(customer, changes) {
      void policiesRepository.set(customer, changes);
    },
    advance(ms) {
      now += ms;
    },
  };
  return fake;
}

function faceCheck({ decision, template }: FakeFace): FaceCheck {
  const liveness: LivenessResult = {
    decision,
    score: decision === 'LIVE' ? 0.9 : 0.1,
    score_frr: decision === 'LIVE' ? 90 : 10,
    feedback: decision === 'LIVE' ? [] : [decision],
    decision_info: {
      // The flows pass on only the decision, feedback and score_frr (livenessSummary).
      IAD: { signals: {} as LivenessResult['decision_info']['IAD']['signals'] },
      PAD: { status: 'PASS', spoof_type_probability: { '2D_MASK': 0, '3D_MASK': 0, PHOTO: 0, SCREEN: 0, OTHER: 0 } },
    },
  };
  return { live: decision === 'LIVE', liveness, template };
}
