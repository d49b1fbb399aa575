import type { MatchingContext } from '../../biometric-matching/matching-context.js';
import { CacheGalleries } from '../../engines/matching/cache-galleries.js';
import { calibratedScore } from '../../engines/scoring/calibrated-score.js';
import { voiceCalibration } from '../../engines/voice/voice-calibration.js';
import type { VoiceAlgorithmName } from '../../engines/voice/voice-algorithms.js';
import { VOICE_TEMPLATES } from '../../engines/voice/voice-template-family.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import { biometricEncountersRepository } from '../../store/biometric-encounters.js';
import type { VoiceSamples, Workflow } from './schemas.js';
import { algorithmOf, calibrationTypeOf, voiceVectors } from './voice-samples.js';

/** The service name: the version route's, the store's and the sealing context's. */
export const VOICE_MATCHING = 'voice-matching';

/**
 * What the voice-matching domain functions (the shared ones of src/biometric-matching/ and this folder's)
 * work with: every customer's voice caches, their limits and the voice engine.
 */
export type VoiceMatchingContext = MatchingContext<VoiceAlgorithmName, VoiceSamples, Workflow>;

/**
 * Builds the voice-matching context from the server's dependencies.
 *
 * @example
 * const matching = voiceMatchingContext(deps);
 * await addEncounter(matching, 'acme', 'callers', { id: 'alice', voiceSamples: [{ data: wavBase64 }] });
 */
export function voiceMatchingContext(deps: ServiceDependencies): VoiceMatchingContext {
  const { config } = deps;
  return {
    caches: new CacheGalleries(
      (customer) => biometricEncountersRepository(deps.store.db, VOICE_MATCHING, customer),
      deps.templateSealer,
      VOICE_MATCHING,
      VOICE_TEMPLATES,
    ),
    limitOf: (cacheName) => config.voiceCacheLimits.get(cacheName) ?? config.voiceCacheLimit,
    exports: deps.exportedTemplateSealer,
    vectors: (sample, field, algorithms, workflow) =>
      voiceVectors(deps.voiceEngine(), deps.exportedTemplateSealer, sample, field, algorithms, workflow),
    algorithmOf,
    calibrated: (algorithm, score, workflow) =>
      calibratedScore(voiceCalibration(algorithm, calibrationTypeOf(workflow)), score),
    hasRawSample: (sample) => sample.voiceSamples !== undefined,
  };
}
