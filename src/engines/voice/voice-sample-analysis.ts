import { detectSpeech, type SpeechActivity } from './voice-activity.js';
import { decodeVoiceSample, VOICE_SAMPLE_RATE, type VoiceAudio } from './voice-decoding.js';
import type { VoiceMeasurement } from './voice-tasks.js';

/** A decoded sample and its speech frames: what every voice task starts from. */
export interface AnalyzedSample {
  readonly audio: VoiceAudio;
  readonly activity: SpeechActivity;
}

/**
 * Decodes an encoded voice sample and finds its speech.
 *
 * @throws {VoiceSampleError} when the sample is undecodable, empty or too long
 * @example
 * const { audio, activity } = await analyzeSample(bytes);
 */
export async function analyzeSample(sample: Uint8Array): Promise<AnalyzedSample> {
  const audio = await decodeVoiceSample(sample);
  return { audio, activity: await detectSpeech(audio.samples) };
}

/**
 * The `measure` task's answer for an analysed sample (and what the other tasks report along).
 *
 * @example
 * measurementOf(await analyzeSample(bytes)).speechSeconds; // e.g. 2.4
 */
export function measurementOf({ audio, activity }: AnalyzedSample): VoiceMeasurement {
  return {
    durationSeconds: audio.samples.length / VOICE_SAMPLE_RATE,
    speechSeconds: activity.speechSeconds,
    clippedShare: audio.clippedShare,
    format: audio.format,
    sourceSampleRate: audio.sourceSampleRate,
    sourceChannels: audio.sourceChannels,
  };
}
