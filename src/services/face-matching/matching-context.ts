import type { ExportedTemplateSealer } from '../../crypto/exported-template-sealing.js';
import type { FaceAlgorithmName } from '../../engines/face/algorithms.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import { biometricEncountersRepository } from '../../store/biometric-encounters.js';
import { CacheGalleries } from './cache-galleries.js';
import { faceVectors, type FaceVectors } from './face-samples.js';
import type { FaceSample } from './schemas.js';

/** The service name: the version route's and the sealing context's. */
export const FACE_MATCHING = 'face-matching';

/**
 * What the face-matching domain functions work with: every customer's caches (the functions take the caller's
 * customer scope and reach only its caches), their limits and the face engine.
 */
export interface FaceMatchingContext {
  readonly caches: CacheGalleries;
  /** Most encounters a cache of this name may hold, in each customer's namespace. */
  limitOf(cacheName: string): number;
  /** Seals the templates `/export` answers and opens imported ones. */
  readonly exports: ExportedTemplateSealer;
  /** Unit vectors of a sample for the given algorithms ({@link faceVectors}); `field` names it in errors. */
  vectors(sample: FaceSample, field: string, algorithms: readonly FaceAlgorithmName[]): Promise<FaceVectors>;
}

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
    ),
    limitOf: (cacheName) => config.faceCacheLimits.get(cacheName) ?? config.faceCacheLimit,
    exports: deps.exportedTemplateSealer,
    vectors: (sample, field, algorithms) =>
      faceVectors(deps.faceEngine(), deps.exportedTemplateSealer, sample, field, algorithms),
  };
}
