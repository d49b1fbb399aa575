/**
 * Sub-band cepstral statistics (synthetic-speech cue family of voice-spoof-features/7). The speech band is
 * split into three sub-bands, 0-2, 2-4 and 4-7.2 kHz, each with its own 20 linear triangular filters on the
 * shared power spectrogram (features/power-spectrum.ts: 25 ms Hamming frames every 10 ms, 512-point FFT) and
 * its own DCT-II, so that each band's cepstrum describes that band alone (fusing classifiers over frequency
 * sub-bands is what Tak, Patino, Nautsch, Evans and Todisco, Interspeech 2020, found to beat all but 2 of the
 * 48 ASVspoof 2019 LA systems without a neural network: an artefact confined to one band is not averaged away
 * by the others). Per band, over the speech frames: the mean of c1..c12 (the band's envelope), their standard
 * deviation (how much the band's envelope moves: over-smoothed parametric synthesis moves it less, a diphone
 * engine's joins differently), the standard deviation of their deltas ((c[f+1] − c[f−1]) / 2, frames whose
 * neighbours are speech too: how fast it moves), and the band's level (mean c0) minus the mean of the three
 * band levels (the spectral tilt across bands, independent of loudness). 37 values per band, 111 in all.
 *
 * The spoof classifier scores them with one model per band (on that band's 37 values and the 20 named cues),
 * fused by the mean of the band logits (voice-spoof-classifier.ts). Appended to a single model's row instead,
 * these columns raised the held-out BPCER to 10-12% (docs/voice.md).
 *
 * Cost: reads the spectrogram voice-spoof-features.ts already computes; ~1.4 ms per 5 s.
 */
import { lfcc } from '../features/lfcc.js';
import type { PowerSpectrogram } from '../features/power-spectrum.js';

/** The sub-bands (Hz); the top stays under the engine resampler's 7.36 kHz cutoff. */
export const SUBBANDS = [
  { name: 'low', lowHz: 0, highHz: 2000 },
  { name: 'mid', lowHz: 2000, highHz: 4000 },
  { name: 'high', lowHz: 4000, highHz: 7200 },
] as const;
/** Linear triangular filters per sub-band (~95-150 Hz apart). */
const FILTERS = 20;
/** Cepstral coefficients c1..c12 per sub-band (c0, the level, enters only as the relative band level). */
export const SUBBAND_COEFFICIENTS = 12;
/** Values per sub-band: mean, deviation and delta deviation of c1..c12, and the relative level. */
export const SUBBAND_VALUES = 3 * SUBBAND_COEFFICIENTS + 1;

/** The feature names, band by band, in the order subbandCepstra writes them. */
export const SUBBAND_CEPSTRA_NAMES: readonly string[] = SUBBANDS.flatMap(({ name }) => [
  ...Array.from({ length: SUBBAND_COEFFICIENTS }, (_, c) => `subband.${name}.mean.c${c + 1}`),
  ...Array.from({ length: SUBBAND_COEFFICIENTS }, (_, c) => `subband.${name}.std.c${c + 1}`),
  ...Array.from({ length: SUBBAND_COEFFICIENTS }, (_, c) => `subband.${name}.deltaStd.c${c + 1}`),
  `subband.${name}.level`,
]);

/**
 * The sub-band cepstral statistics of the selected (speech) frames: SUBBANDS.length blocks of
 * SUBBAND_VALUES values (names in SUBBAND_CEPSTRA_NAMES). With fewer than two selected frames the
 * deviations are 0.
 *
 * @example
 * const spectrum = powerSpectrogram(samples, { sampleRate: 16_000 });
 * const values = subbandCepstra(spectrum, (f) => isSpeechFrame[f] === 1);
 * values.length; // 111
 */
export function subbandCepstra(spectrum: PowerSpectrogram, select: (frame: number) => boolean): Float64Array {
  const out = new Float64Array(SUBBANDS.length * SUBBAND_VALUES);
  const width = SUBBAND_COEFFICIENTS + 1;
  const levels = new Float64Array(SUBBANDS.length);
  const sum = new Float64Array(width);
  const squares = new Float64Array(width);
  const deltaSum = new Float64Array(width);
  const deltaSquares = new Float64Array(width);
  SUBBANDS.forEach((band, b) => {
    const { values, frames } = lfcc(spectrum, {
      filters: FILTERS,
      coefficients: width,
      lowHz: band.lowHz,
      highHz: band.highHz,
    });
    sum.fill(0);
    squares.fill(0);
    deltaSum.fill(0);
    deltaSquares.fill(0);
    let n = 0;
    let nDelta = 0;
    for (let f = 0; f < frames; f++) {
      if (!select(f)) continue;
      n++;
      const row = f * width;
      for (let c = 0; c < width; c++) {
        const v = values[row + c] ?? 0;
        sum[c] = (sum[c] ?? 0) + v;
        squares[c] = (squares[c] ?? 0) + v * v;
      }
      if (f < 1 || f + 1 >= frames || !select(f - 1) || !select(f + 1)) continue;
      nDelta++;
      for (let c = 0; c < width; c++) {
        const d = ((values[row + width + c] ?? 0) - (values[row - width + c] ?? 0)) / 2;
        deltaSum[c] = (deltaSum[c] ?? 0) + d;
        deltaSquares[c] = (deltaSquares[c] ?? 0) + d * d;
      }
    }
    const frameCount = Math.max(n, 1);
    const deltaCount = Math.max(nDelta, 1);
    const base = b * SUBBAND_VALUES;
    for (let c = 1; c < width; c++) {
      const mean = (sum[c] ?? 0) / frameCount;
      const deltaMean = (deltaSum[c] ?? 0) / deltaCount;
      out[base + c - 1] = mean;
      out[base + SUBBAND_COEFFICIENTS + c - 1] = Math.sqrt(Math.max((squares[c] ?? 0) / frameCount - mean * mean, 0));
      out[base + 2 * SUBBAND_COEFFICIENTS + c - 1] = Math.sqrt(
        Math.max((deltaSquares[c] ?? 0) / deltaCount - deltaMean * deltaMean, 0),
      );
    }
    levels[b] = (sum[0] ?? 0) / frameCount;
  });
  const meanLevel = levels.reduce((total, level) => total + level, 0) / SUBBANDS.length;
  levels.forEach((level, b) => (out[b * SUBBAND_VALUES + SUBBAND_VALUES - 1] = level - meanLevel));
  return out;
}
