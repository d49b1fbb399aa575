import type { MatchingContext } from '../../biometric-matching/matching-context.js';
import type { FaceAlgorithmName } from '../../engines/face/algorithms.js';
import { FACE_TEMPLATES } from '../../engines/face/face-template-family.js';
import { CacheGalleries } from '../../engines/matching/cache-galleries.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import { biometricEncountersRepository } from '../../store/biometric-encounters.js';
import { algorithmOf, faceVectors } from './face-samples.js';
import type { FaceSample, Workflow } from './schemas.js';

/** The service name: the version route's, the store's and the sealing context's. */
export const FACE_MATCHING = 'face-matching';

/**
 * What the face-matching domain functions (the shared ones of src/biometric-matching/ and this folder's)
 * work with: every customer's caches, their limits and the face engine.
 */
export type FaceMatchingContext = MatchingContext<FaceAlgorithmName, FaceSample, Workflow>;

/**
 * Builds the face-matching context from the server's dependencies.
 *
 * @example
 * const matching = faceMatchingContext(deps);
 * await addEncounter(matching, 'acme', 'staff', { id: 'alice', VISIBLE_FRONTAL: jpegBase64 });
 */
export function faceMatchingContext(deps: ServiceDependencies): FaceMatchingContext {
  const { config } = deps;
  return {
    caches: new CacheGalleries(
      (customer) => biometricEncountersRepository(deps.store.db, FACE_MATCHING, customer),
      deps.templateSealer,
      FACE_MATCHING,
      FACE_TEMPLATES,
    ),
    limitOf: (cacheName) => config.faceCacheLimits.get(cacheName) ?? config.faceCacheLimit,
    exports: deps.exportedTemplateSealer,
    vectors: (sample, field, algorithms) =>
      faceVectors(deps.faceEngine(), deps.exportedTemplateSealer, sample, field, algorithms),
    algorithmOf,
    calibrated: (algorithm, score) => FACE_TEMPLATES.calibrated(algorithm, score),
    hasRawSample: (sample) => sample.VISIBLE_FRONTAL !== undefined,
  };
}
