import { calibratedScore } from '../scoring/calibrated-score.js';
import type { TemplateFamily } from '../matching/template-family.js';
import { speakerVectorLength } from './speaker-template.js';
import { VOICE_ALGORITHM_NAMES, type VoiceAlgorithmName } from './voice-algorithms.js';
import { voiceCalibration } from './voice-calibration.js';

/**
 * The voice algorithms (V600, V900) as the matching caches and galleries see them; V600 by default (the
 * text-independent one, which also serves fixed phrases; docs/voice.md).
 *
 * @example
 * new CacheGalleries(repositoryOf, sealer, 'voice-matching', VOICE_TEMPLATES);
 */
export const VOICE_TEMPLATES: TemplateFamily<VoiceAlgorithmName> = {
  modality: 'voice',
  algorithms: VOICE_ALGORITHM_NAMES,
  defaultAlgorithm: 'V600',
  dimensions: (algorithm) => speakerVectorLength(algorithm),
  calibrated: (algorithm, score) => calibratedScore(voiceCalibration(algorithm), score),
};
