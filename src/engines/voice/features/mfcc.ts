/**
 * Mel-frequency cepstral coefficients on the shared power spectrogram (power-spectrum.ts): mel filterbank
 * (mel-filterbank.ts), log, orthonormal DCT-II.
 */
import type { FeatureMatrix } from './feature-matrix.js';
import { melFilterbank } from './mel-filterbank.js';
import { powerSpectrogram } from './power-spectrum.js';

/** The MFCC layout; the defaults are what the speaker templates use. */
export interface MfccOptions {
  /** Samples per second (16 000 inside the voice engine). */
  readonly sampleRate?: number;
  /** Cepstral coefficients kept, c0 first (default 20). */
  readonly coefficients?: number;
  /** Mel filters (default 40). */
  readonly filters?: number;
  /** Band in Hz (default 20 to 7600). */
  readonly lowHz?: number;
  readonly highHz?: number;
}

/** The cepstra plus each frame's log energy (natural log of the frame's power), for frame selection. */
export interface MfccResult extends FeatureMatrix {
  readonly logEnergy: Float32Array;
}

/** Floor under filter energies: the log of a silent (all-zero) frame stays finite. */
const ENERGY_FLOOR = 1e-10;

const dctCache = new Map<string, Float32Array>();

/** Orthonormal DCT-II rows: `matrix[c * filters + m]`. */
function dctMatrix(coefficients: number, filters: number): Float32Array {
  const key = `${coefficients}/${filters}`;
  const cached = dctCache.get(key);
  if (cached !== undefined) return cached;
  const matrix = new Float32Array(coefficients * filters);
  for (let c = 0; c < coefficients; c++) {
    const scale = c === 0 ? Math.sqrt(1 / filters) : Math.sqrt(2 / filters);
    for (let m = 0; m < filters; m++) matrix[c * filters + m] = scale * Math.cos((Math.PI * c * (m + 0.5)) / filters);
  }
  dctCache.set(key, matrix);
  return matrix;
}

/**
 * MFCCs of a mono signal, one row per 25 ms frame every 10 ms.
 *
 * @example
 * const { frames, dims, values, logEnergy } = mfcc(speech16k); // dims 20
 * @throws {RangeError} when asked for more coefficients than filters, or a band that does not fit the rate
 */
export function mfcc(samples: Float32Array, options: MfccOptions = {}): MfccResult {
  const sampleRate = options.sampleRate ?? 16_000;
  const coefficients = options.coefficients ?? 20;
  const filters = options.filters ?? 40;
  if (coefficients > filters) throw new RangeError(`${coefficients} cepstra need at least as many filters`);
  const spectrum = powerSpectrogram(samples, { sampleRate });
  const bank = melFilterbank({
    sampleRate,
    fftLength: spectrum.fftLength,
    filters,
    lowHz: options.lowHz ?? 20,
    highHz: options.highHz ?? 7600,
  });
  const dct = dctMatrix(coefficients, filters);
  const { frames, bins, power } = spectrum;
  const values = new Float32Array(frames * coefficients);
  const logEnergy = new Float32Array(frames);
  const logMel = new Float32Array(filters);
  for (let f = 0; f < frames; f++) {
    const row = f * bins;
    let total = 0;
    for (let k = 0; k < bins; k++) total += power[row + k] ?? 0;
    logEnergy[f] = Math.log(total + ENERGY_FLOOR);
    for (let m = 0; m < filters; m++) {
      // In bounds: melFilterbank returns `filters` filters whose bins lie below `bins`.
      const filter = bank[m];
      let e = 0;
      if (filter !== undefined) {
        const { firstBin, weights } = filter;
        for (let j = 0; j < weights.length; j++) e += (weights[j] ?? 0) * (power[row + firstBin + j] ?? 0);
      }
      logMel[m] = Math.log(e + ENERGY_FLOOR);
    }
    // Two cepstra at a time, each summed in its own variable in the filters' order (the same value to the bit).
    let c = 0;
    for (; c + 1 < coefficients; c += 2) {
      let s0 = 0;
      let s1 = 0;
      const row0 = c * filters;
      const row1 = row0 + filters;
      for (let m = 0; m < filters; m++) {
        const x = logMel[m] ?? 0;
        s0 += (dct[row0 + m] ?? 0) * x;
        s1 += (dct[row1 + m] ?? 0) * x;
      }
      values[f * coefficients + c] = s0;
      values[f * coefficients + c + 1] = s1;
    }
    for (; c < coefficients; c++) {
      let s = 0;
      for (let m = 0; m < filters; m++) s += (dct[c * filters + m] ?? 0) * (logMel[m] ?? 0);
      values[f * coefficients + c] = s;
    }
  }
  return { frames, dims: coefficients, values, logEnergy };
}
