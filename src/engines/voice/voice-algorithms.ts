/**
 * The spec's two voice algorithms. Both turn speech into a UNIT vector of fixed length, stored and exported as
 * such, so the face engine's vector gallery and template codec serve voice unchanged; scores are dot products
 * of the templates after S-norm scaling against a background cohort (score-normalisation.ts).
 *
 * - V600: statistics of MFCC(20)+Δ frames (means, deviations, correlations of the cepstra) projected by linear
 *   discriminant analysis: strongest on short and text-independent samples.
 * - V900: a GMM universal background model, MAP-adapted to the sample; its normalised mean supervector
 *   (the KL-divergence kernel) concatenated with the V600 vector (√0.75·V600 ⊕ √0.25·supervector).
 */
import { speakerVectorLength } from './speaker-template.js';

export const VOICE_ALGORITHM_NAMES = ['V600', 'V900'] as const;

export type VoiceAlgorithmName = (typeof VOICE_ALGORITHM_NAMES)[number];

/** The spec's voice sample types. */
export const VOICE_SAMPLE_TYPES = ['STATIC_PHRASE', 'TEXT_INDEPENDENT'] as const;

export type VoiceSampleType = (typeof VOICE_SAMPLE_TYPES)[number];

/**
 * Whether a string names a voice algorithm.
 *
 * @example
 * isVoiceAlgorithmName('V600'); // true
 * isVoiceAlgorithmName('F500'); // false
 */
export function isVoiceAlgorithmName(value: string): value is VoiceAlgorithmName {
  return (VOICE_ALGORITHM_NAMES as readonly string[]).includes(value);
}

/**
 * The template length of a voice algorithm (fixed by the shipped speaker model).
 *
 * @example
 * voiceAlgorithmDimensions('V600'); // the V600 LDA dimension
 */
export function voiceAlgorithmDimensions(algorithm: VoiceAlgorithmName): number {
  return speakerVectorLength(algorithm);
}
