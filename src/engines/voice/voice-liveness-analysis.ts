import type { AnalyzedSample } from './voice-sample-analysis.js';
import { voiceSpoofScore } from './voice-spoof-detection.js';
import type { VoiceMeasurement } from './voice-tasks.js';

/**
 * Least speech a liveness decision is made on: below it the spoof cues (reverberation tail, periodicity,
 * breath noise, long-term spectrum) are measured on too few frames to be trusted.
 */
export const MIN_LIVENESS_SPEECH_SECONDS = 1;

/** Below this much speech a sample holds no speech at all (a few stray VAD frames in noise). */
export const NO_SPEECH_SECONDS = 0.1;

/**
 * Share of samples at full scale above which a recording is clipped: clipping adds harmonics and flattens
 * peaks, which the spoof cues would read as a synthesis or replay artefact, so no decision is made.
 */
export const MAX_CLIPPED_SHARE = 0.01;

/** Why a sample cannot be judged live or spoof: the spec's UNABLE_TO_CALCULATE_LIVENESS causes. */
export type VoiceLivenessProblem = 'no-speech' | 'too-short' | 'clipped';

/** What the `liveness` task answers of one sample: its measurement and a spoof score, or why there is none. */
export type VoiceLivenessOutput =
  | {
      readonly kind: 'scored';
      readonly measurement: VoiceMeasurement;
      /** Probability that the sample is live speech (0..1). */
      readonly pLive: number;
      readonly cues: Readonly<Record<string, number>>;
    }
  | { readonly kind: 'unable'; readonly measurement: VoiceMeasurement; readonly problem: VoiceLivenessProblem };

/**
 * Whether a measured sample can be judged, or the first reason it cannot: no speech, less than
 * {@link MIN_LIVENESS_SPEECH_SECONDS} of speech, or clipped.
 *
 * @example
 * livenessProblem({ speechSeconds: 0.6, clippedShare: 0 }); // 'too-short'
 */
export function livenessProblem(
  measurement: Pick<VoiceMeasurement, 'speechSeconds' | 'clippedShare'>,
): VoiceLivenessProblem | undefined {
  if (measurement.speechSeconds < NO_SPEECH_SECONDS) return 'no-speech';
  if (measurement.speechSeconds < MIN_LIVENESS_SPEECH_SECONDS) return 'too-short';
  if (measurement.clippedShare > MAX_CLIPPED_SHARE) return 'clipped';
  return undefined;
}

/**
 * Scores one decoded sample live or spoof ({@link voiceSpoofScore}) when it can be judged. The `liveness`
 * task's handler.
 *
 * @example
 * const output = sampleLiveness(analyzed, measurement);
 * if (output.kind === 'scored') output.pLive; // 0.93
 */
export function sampleLiveness(sample: AnalyzedSample, measurement: VoiceMeasurement): VoiceLivenessOutput {
  const problem = livenessProblem(measurement);
  if (problem !== undefined) return { kind: 'unable', measurement, problem };
  const { pLive, cues } = voiceSpoofScore(sample.audio.samples, sample.activity);
  return { kind: 'scored', measurement, pLive, cues };
}
