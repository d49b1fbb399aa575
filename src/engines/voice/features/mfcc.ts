/**
 * Mel-frequency cepstral coefficients on the shared power spectrogram (power-spectrum.ts): mel filterbank
 * (mel-filterbank.ts), log, orthonormal DCT-II.
 */
import type { FeatureMatrix } from './feature-matrix.js';
import { cepstraInto, orthonormalDct } from './cepstral-transform.js';
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
  const dct = orthonormalDct(filters, coefficients, Float32Array);
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
    cepstraInto(logMel, dct, coefficients, values, f * coefficients);
  }
  return { frames, dims: coefficients, values, logEnergy };
}
