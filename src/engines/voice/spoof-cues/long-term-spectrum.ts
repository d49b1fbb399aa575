/**
 * The long-term average spectrum of selected frames, with the spectrogram's pre-emphasis undone, so
 * that band and roll-off cues read the signal's own spectral balance.
 */
import type { PowerSpectrogram } from '../features/power-spectrum.js';

/** Mean power per bin (0 Hz to Nyquist) and the width of a bin in Hz. */
export interface LongTermSpectrum {
  readonly power: Float64Array;
  readonly binHz: number;
}

/**
 * Mean de-emphasised power per bin over the frames `select` keeps (all frames when none is given).
 *
 * @param preEmphasis the coefficient the spectrogram was computed with (powerSpectrogram's default 0.97)
 * @example
 * const ltas = longTermSpectrum(powerSpectrogram(samples, { sampleRate: 16_000 }), (f) => speech[f] === 1);
 */
export function longTermSpectrum(
  spectrum: PowerSpectrogram,
  select: (frame: number) => boolean = () => true,
  preEmphasis = 0.97,
): LongTermSpectrum {
  const { frames, bins, fftLength, sampleRate } = spectrum;
  const power = new Float64Array(bins);
  let count = 0;
  for (let f = 0; f < frames; f++) {
    if (!select(f)) continue;
    count++;
    for (let k = 0; k < bins; k++) power[k] = (power[k] ?? 0) + (spectrum.power[f * bins + k] ?? 0);
  }
  for (let k = 0; k < bins; k++) {
    // |1 − a·e^{−iω}|² is the pre-emphasis gain at bin k; floored so that 0 Hz stays finite.
    const omega = (2 * Math.PI * k) / fftLength;
    const gain = 1 + preEmphasis * preEmphasis - 2 * preEmphasis * Math.cos(omega);
    power[k] = (power[k] ?? 0) / Math.max(count, 1) / Math.max(gain, 1e-3);
  }
  return { power, binHz: sampleRate / fftLength };
}

/**
 * Total power of a long-term spectrum between two frequencies (bins whose centre lies in [lowHz, highHz)).
 *
 * @example
 * bandPower(ltas, 300, 4000);
 */
export function bandPower(spectrum: LongTermSpectrum, lowHz: number, highHz: number): number {
  let sum = 0;
  const first = Math.max(0, Math.ceil(lowHz / spectrum.binHz));
  const last = Math.min(spectrum.power.length, Math.ceil(highHz / spectrum.binHz));
  for (let k = first; k < last; k++) sum += spectrum.power[k] ?? 0;
  return sum;
}

/** Floor under powers before a log ratio: digital silence gives a large finite ratio, not −∞. */
export const POWER_FLOOR = 1e-12;

/**
 * log10 of the power ratio of two bands.
 *
 * @example
 * bandRatio(ltas, [4000, 8000], [300, 4000]); // ≈ −1.5 for full-band speech, far lower when band-limited
 */
export function bandRatio(
  spectrum: LongTermSpectrum,
  numerator: readonly [number, number],
  denominator: readonly [number, number],
): number {
  return (
    Math.log10(bandPower(spectrum, numerator[0], numerator[1]) + POWER_FLOOR) -
    Math.log10(bandPower(spectrum, denominator[0], denominator[1]) + POWER_FLOOR)
  );
}
