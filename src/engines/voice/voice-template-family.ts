import { dot } from '../../lib/vectors.js';
import { calibratedScore } from '../scoring/calibrated-score.js';
import type { TemplateFamily } from '../matching/template-family.js';
import { normalisedSpeakerVector } from './score-normalisation.js';
import { speakerVectorLength } from './speaker-template.js';
import { VOICE_ALGORITHM_NAMES, type VoiceAlgorithmName } from './voice-algorithms.js';
import { voiceCalibration } from './voice-calibration.js';

/**
 * The voice algorithms (V600, V900) as the matching caches and galleries see them; V600 by default (the
 * text-independent one, which also serves fixed phrases; docs/voice.md). Templates are scored normalised
 * (score-normalisation.ts): galleries hold n(x), probes are scaled the same way, and the score is n(a)·n(b),
 * not a cosine.
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
  scoringVector: (algorithm, unit) => normalisedSpeakerVector(unit, algorithm),
  similarity: (algorithm, a, b) => dot(normalisedSpeakerVector(a, algorithm), normalisedSpeakerVector(b, algorithm)),
};
