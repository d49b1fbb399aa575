/**
 * Voice spoof detection: P(live) of a sample from its spoof features (voice-spoof-features.ts) under the
 * shipped classifier (voice-spoof-classifier.ts).
 */
import type { SpeechActivity } from './voice-activity.js';
import { sigmoid } from '../../lib/sigmoid.js';
import { fusedSpoofLogit, loadVoiceSpoofModel, type VoiceSpoofModel } from './voice-spoof-classifier.js';
import { voiceSpoofFeatures } from './voice-spoof-features.js';

export interface VoiceSpoofResult {
  /** Probability that the sample is live speech, 0..1 (thresholds: voice-liveness-levels.ts). */
  readonly pLive: number;
  /** The named replay and synthetic-speech cues the decision used (their meanings: spoof-cues/). */
  readonly cues: Readonly<Record<string, number>>;
}

/**
 * Scores a 16 kHz mono sample live or spoof, given its voice activity (detectSpeech).
 *
 * @example
 * const activity = await detectSpeech(samples);
 * const { pLive, cues } = voiceSpoofScore(samples, activity);
 * pLive >= voiceLivenessThreshold(parseVoiceWorkflow('alfa4')); // LIVE at level 4
 */
export function voiceSpoofScore(
  samples: Float32Array,
  activity: SpeechActivity,
  model: VoiceSpoofModel = loadVoiceSpoofModel(),
): VoiceSpoofResult {
  const { row, cues } = voiceSpoofFeatures(samples, activity);
  return { pLive: sigmoid(fusedSpoofLogit(model, row)), cues };
}
