import type { ServerKeyPair } from '../../crypto/server-key-pair.js';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import { livenessContext, type LivenessContext } from '../../engines/liveness/passive-liveness.js';
import type { LivenessChallengeSettings } from '../../server/config.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import { livenessChallengesRepository, type LivenessChallengesRepository } from '../../store/liveness-challenges.js';
import { versionText } from '../../server/version.js';

/** The service name: the version route's and the responses' `version`. */
export const FACE_LIVENESS = 'face-liveness';

/** What the face-liveness domain functions work with: the engine, the decision settings, the key and clock. */
export interface FaceLivenessContext {
  readonly faceEngine: () => FaceEngine;
  /** The settings a decision taken at `now` applies (package age, clock skew, IAD modes). */
  readonly decisionContext: (now: number) => LivenessContext;
  /**
   * The face-liveness envelope pair: opens the `*Encrypted` packages and `/decrypt` (sealed for 'face-liveness'
   * only), served by `GET /face-liveness/getPublicKey`.
   */
  readonly envelopeKey: ServerKeyPair;
  /** `version` of every response, e.g. 'Veriport face-liveness 0.1.0'. */
  readonly version: string;
  /** Milliseconds since 1970: the responses' `timestamp` and the decisions' `now`. */
  readonly now: () => number;
  /** Server-issued challenges (liveness-challenge.ts): where they are kept, and their settings. */
  readonly challenges: LivenessChallengesRepository;
  readonly challengeSettings: LivenessChallengeSettings;
}

/**
 * Builds the face-liveness context from the server's dependencies.
 *
 * @example
 * const liveness = faceLivenessContext(deps);
 * await checkLiveness(liveness, body);
 */
export function faceLivenessContext(deps: ServiceDependencies, now: () => number = Date.now): FaceLivenessContext {
  return {
    faceEngine: deps.faceEngine,
    decisionContext: (at) => livenessContext(deps.config, at),
    envelopeKey: deps.envelopeKeys.key('face-liveness'),
    version: versionText(FACE_LIVENESS),
    now,
    challenges: livenessChallengesRepository(deps.store.db),
    challengeSettings: deps.config.livenessChallenge,
  };
}
