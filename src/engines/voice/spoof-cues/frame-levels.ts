/**
 * Per-frame levels in dB of a power spectrogram, the common input of the time-envelope cues
 * (reverberation tail, pause noise).
 */
import type { PowerSpectrogram } from '../features/power-spectrum.js';

/** Level of a frame with no energy at all (digital silence), so that differences stay finite. */
export const SILENCE_DB = -100;

/**
 * 10·log10 of each frame's total power relative to a full-scale sine frame, floored at SILENCE_DB.
 *
 * @example
 * frameLevelsDb(powerSpectrogram(samples, { sampleRate: 16_000 })); // one level per 10 ms frame
 */
export function frameLevelsDb(spectrum: PowerSpectrogram): Float64Array {
  const { frames, bins, fftLength } = spectrum;
  const levels = new Float64Array(frames);
  // A full-scale sine through a 400-sample Hamming window: peak bin power ≈ (0.54·N/2)²; the reference
  // only shifts every level by one constant.
  const reference = (0.54 * (fftLength * 0.78)) ** 2 / 4;
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let k = 1; k < bins; k++) sum += spectrum.power[f * bins + k] ?? 0;
    levels[f] = Math.max(SILENCE_DB, 10 * Math.log10(sum / reference + 1e-30));
  }
  return levels;
}

/**
 * The q-quantile (0..1) of some values (nearest rank on a sorted copy); NaN for none.
 *
 * @example
 * quantile([3, 1, 2], 0.5); // 2
 */
export function quantile(values: ArrayLike<number>, q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.round(q * (sorted.length - 1))))] ?? Number.NaN;
}
