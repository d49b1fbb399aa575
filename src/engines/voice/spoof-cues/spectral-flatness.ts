/**
 * Spectral flatness (synthetic-speech cue): vocoders and LPC/diphone synthesis excite the vocal-tract
 * filter with idealised pulses and noise, which shows in how peaky or flat each frame's spectrum is and in
 * how little that varies from frame to frame.
 */
import type { PowerSpectrogram } from '../features/power-spectrum.js';

export interface SpectralFlatnessCues {
  /** Mean over speech frames of log10(geometric mean / arithmetic mean) of the power in 100–4000 Hz. */
  readonly mean: number;
  /** Its standard deviation over the speech frames. */
  readonly spread: number;
}

/** The band measured: below 4 kHz, so that band limiting (its own cue) does not decide it. */
const LOW_HZ = 100;
const HIGH_HZ = 4000;

/**
 * Flatness statistics of the frames `select` keeps (the speech frames).
 *
 * @example
 * spectralFlatness(spectrum, (f) => isSpeech[f] === 1); // { mean: -1.1, spread: 0.35 } for speech
 */
export function spectralFlatness(
  spectrum: PowerSpectrogram,
  select: (frame: number) => boolean = () => true,
): SpectralFlatnessCues {
  const { frames, bins, fftLength, sampleRate } = spectrum;
  const first = Math.ceil((LOW_HZ * fftLength) / sampleRate);
  const last = Math.min(bins - 1, Math.floor((HIGH_HZ * fftLength) / sampleRate));
  const values: number[] = [];
  for (let f = 0; f < frames; f++) {
    if (!select(f)) continue;
    let logSum = 0;
    let sum = 0;
    for (let k = first; k <= last; k++) {
      const p = (spectrum.power[f * bins + k] ?? 0) + 1e-12;
      logSum += Math.log(p);
      sum += p;
    }
    const count = last - first + 1;
    values.push((logSum / count - Math.log(sum / count)) / Math.LN10);
  }
  if (values.length === 0) return { mean: 0, spread: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const spread = Math.sqrt(values.reduce((a, b) => a + (b - mean) ** 2, 0) / values.length);
  return { mean, spread };
}
