import { speakerSpeech } from './speaker-speech.js';
import { speakerVectors } from './speaker-template.js';
import type { VoiceAlgorithmName } from './voice-algorithms.js';
import type { AnalyzedSample } from './voice-sample-analysis.js';
import type { VoiceMeasurement } from './voice-tasks.js';

/**
 * The least speech a template is computed from, whatever a request's `minVoiceLengthSeconds`: below it a
 * speaker model has too few frames (8 VAD frames) to say anything about a voice.
 */
export const MIN_TEMPLATE_SPEECH_SECONDS = 0.25;

/** What the `template` task is asked: the algorithms, and the speech a sample must hold to get templates. */
export interface VoiceTemplateInput {
  readonly algorithms: readonly VoiceAlgorithmName[];
  readonly minSpeechSeconds: number;
}

/**
 * What the `template` task answers of one sample: its measurement and, when it holds enough speech, a unit
 * speaker vector per algorithm asked for.
 */
export interface VoiceTemplateOutput {
  readonly measurement: VoiceMeasurement;
  /** Absent when the sample has less speech than asked for (`minSpeechSeconds`, at least 0.25 s). */
  readonly vectors?: Partial<Record<VoiceAlgorithmName, Float32Array>>;
  /** The speech a sample had to hold: the request's minimum or {@link MIN_TEMPLATE_SPEECH_SECONDS}. */
  readonly minSpeechSeconds: number;
}

/**
 * The speaker vectors of one decoded sample, from its speech frames widened by a short margin (speakerSpeech:
 * the path the shipped model and calibration were measured on); none when it has less speech than asked for.
 * The `template` task's handler.
 *
 * @example
 * const { vectors } = sampleTemplates(analyzed, measurement, { algorithms: ['V600', 'V900'], minSpeechSeconds: 1 });
 * vectors?.V600; // Float32Array, unit length
 */
export function sampleTemplates(
  sample: AnalyzedSample,
  measurement: VoiceMeasurement,
  input: VoiceTemplateInput,
): VoiceTemplateOutput {
  const minSpeechSeconds = Math.max(input.minSpeechSeconds, MIN_TEMPLATE_SPEECH_SECONDS);
  if (measurement.speechSeconds < minSpeechSeconds) return { measurement, minSpeechSeconds };
  const vectors = speakerVectors(speakerSpeech(sample.audio.samples, sample.activity), input.algorithms);
  return { measurement, vectors, minSpeechSeconds };
}
