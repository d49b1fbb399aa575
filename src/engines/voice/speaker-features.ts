/**
 * The speaker templates' front end: MFCC+Δ frames of the loud part of the speech, and the utterance statistics
 * V600 projects.
 */
import { appendDeltas, energeticFrames, selectFrames, type FeatureMatrix } from './features/feature-matrix.js';
import { mfcc } from './features/mfcc.js';
import type { SpeakerFeatureSettings } from './speaker-model.js';

/**
 * MFCC + Δ frames of 16 kHz speech, keeping the frames within `energyRangeDb` of the loud ones (pauses and
 * breath between words carry little of the speaker). Not normalised: the statistics keep the cepstral means.
 *
 * @example
 * const frames = speakerFrames(speech, loadSpeakerModel().features); // dims 40
 */
export function speakerFrames(speech: Float32Array, settings: SpeakerFeatureSettings): FeatureMatrix {
  const cepstra = mfcc(speech, {
    sampleRate: 16_000,
    coefficients: settings.coefficients,
    filters: settings.filters,
    lowHz: settings.lowHz,
    highHz: settings.highHz,
  });
  const withDeltas = appendDeltas(cepstra, settings.deltaWindow);
  return selectFrames(withDeltas, energeticFrames(cepstra.logEnergy, settings.energyRangeDb));
}

/**
 * Length of {@link utteranceStatistics} for `coefficients` cepstra: mean and deviation of every MFCC+Δ column,
 * and the correlation of every pair of static cepstra.
 *
 * @example
 * statisticsDimensions(20); // 40 + 40 + 190 = 270
 */
export function statisticsDimensions(coefficients: number): number {
  return 4 * coefficients + (coefficients * (coefficients - 1)) / 2;
}

/**
 * Utterance statistics of MFCC+Δ frames (`dims` = 2 × `coefficients`): per column mean and standard deviation,
 * then the correlation coefficients of the static cepstra pairs (the shape of the vocal tract's spectral
 * envelope, not only its average).
 *
 * @example
 * const stats = utteranceStatistics(frames, 20); // Float64Array(270)
 * @throws {RangeError} when the frames are not MFCC+Δ of `coefficients` cepstra
 */
export function utteranceStatistics(frames: FeatureMatrix, coefficients: number): Float64Array {
  const { dims, values } = frames;
  if (dims !== 2 * coefficients) throw new RangeError(`expected ${2 * coefficients}-dimensional MFCC+Δ frames`);
  const n = Math.max(1, frames.frames);
  const mean = new Float64Array(dims);
  const std = new Float64Array(dims);
  for (let t = 0; t < frames.frames; t++)
    for (let d = 0; d < dims; d++) mean[d] = (mean[d] ?? 0) + (values[t * dims + d] ?? 0) / n;
  const out = new Float64Array(statisticsDimensions(coefficients));
  const cross = new Float64Array(coefficients * coefficients);
  for (let t = 0; t < frames.frames; t++) {
    const row = t * dims;
    for (let d = 0; d < dims; d++) {
      const x = (values[row + d] ?? 0) - (mean[d] ?? 0);
      std[d] = (std[d] ?? 0) + x * x;
    }
    for (let i = 0; i < coefficients; i++) {
      const xi = (values[row + i] ?? 0) - (mean[i] ?? 0);
      for (let j = i + 1; j < coefficients; j++)
        cross[i * coefficients + j] =
          (cross[i * coefficients + j] ?? 0) + xi * ((values[row + j] ?? 0) - (mean[j] ?? 0));
    }
  }
  for (let d = 0; d < dims; d++) {
    std[d] = Math.sqrt(Math.max((std[d] ?? 0) / n, 1e-8));
    out[d] = mean[d] ?? 0;
    out[dims + d] = std[d] ?? 0;
  }
  let k = 2 * dims;
  for (let i = 0; i < coefficients; i++) {
    for (let j = i + 1; j < coefficients; j++) {
      out[k++] = (cross[i * coefficients + j] ?? 0) / n / ((std[i] ?? 1) * (std[j] ?? 1));
    }
  }
  return out;
}
