/**
 * Linear-frequency cepstral coefficients (LFCC): triangular filters evenly spaced in Hz on a power
 * spectrogram, log energies, DCT-II. The linear spacing keeps the resolution of the high band where
 * synthesis and replay leave their traces (the mel scale blurs it), which is why spoofing countermeasures
 * use it (ASVspoof baselines).
 */
import { cepstraInto, orthonormalDct } from './cepstral-transform.js';
import type { PowerSpectrogram } from './power-spectrum.js';

export interface LfccOptions {
  /** Triangular filters between lowHz and highHz (default 20). */
  readonly filters?: number;
  /** Cepstral coefficients kept, c0 first (default 20, at most `filters`). */
  readonly coefficients?: number;
  /** Band covered (default 0 Hz to the Nyquist frequency). */
  readonly lowHz?: number;
  readonly highHz?: number;
}

/** Cepstra of consecutive frames, row-major: `values[f * coefficients + c]`. */
export interface Cepstrogram {
  readonly frames: number;
  readonly coefficients: number;
  readonly values: Float32Array;
}

interface LinearFilter {
  readonly firstBin: number;
  readonly weights: Float32Array;
}

const bankCache = new Map<string, readonly LinearFilter[]>();

/**
 * Triangular filters (peak 1) evenly spaced in Hz, overlapping by half, over the bins of an FFT layout.
 *
 * @example
 * linearFilterbank({ sampleRate: 16_000, fftLength: 512, filters: 20, lowHz: 0, highHz: 8000 }).length; // 20
 * @throws {RangeError} when the band does not fit the signal or a filter would cover no bin
 */
export function linearFilterbank(layout: {
  readonly sampleRate: number;
  readonly fftLength: number;
  readonly filters: number;
  readonly lowHz: number;
  readonly highHz: number;
}): readonly LinearFilter[] {
  const { sampleRate, fftLength, filters, lowHz, highHz } = layout;
  const key = `${sampleRate}/${fftLength}/${filters}/${lowHz}/${highHz}`;
  const cached = bankCache.get(key);
  if (cached !== undefined) return cached;
  if (!(lowHz >= 0 && highHz > lowHz && highHz <= sampleRate / 2))
    throw new RangeError(`LFCC band ${lowHz}-${highHz} Hz does not fit a ${sampleRate} Hz signal`);
  if (!Number.isInteger(filters) || filters < 1) throw new RangeError('an LFCC filterbank needs at least one filter');
  const binHz = sampleRate / fftLength;
  const step = (highHz - lowHz) / (filters + 1);
  const bank: LinearFilter[] = [];
  for (let m = 0; m < filters; m++) {
    const left = (lowHz + m * step) / binHz;
    const centre = (lowHz + (m + 1) * step) / binHz;
    const right = (lowHz + (m + 2) * step) / binHz;
    const firstBin = Math.ceil(left);
    const lastBin = Math.floor(right);
    if (lastBin < firstBin) throw new RangeError(`LFCC filter ${m} covers no FFT bin: use fewer filters`);
    const weights = new Float32Array(lastBin - firstBin + 1);
    for (let k = firstBin; k <= lastBin; k++)
      weights[k - firstBin] = k <= centre ? (k - left) / (centre - left) : (right - k) / (right - centre);
    bank.push({ firstBin, weights });
  }
  bankCache.set(key, bank);
  return bank;
}

/** Floor under filter energies before the log, so digital silence gives a finite value. */
const ENERGY_FLOOR = 1e-10;

/**
 * LFCCs of every frame of a power spectrogram.
 *
 * @example
 * const cepstra = lfcc(powerSpectrogram(speech, { sampleRate: 16_000 }));
 * cepstra.coefficients; // 20
 * @throws {RangeError} for more coefficients than filters, or a band that does not fit the spectrogram
 */
export function lfcc(spectrum: PowerSpectrogram, options: LfccOptions = {}): Cepstrogram {
  const filters = options.filters ?? 20;
  const coefficients = options.coefficients ?? 20;
  if (coefficients > filters) throw new RangeError('LFCC needs no more coefficients than filters');
  const bank = linearFilterbank({
    sampleRate: spectrum.sampleRate,
    fftLength: spectrum.fftLength,
    filters,
    lowHz: options.lowHz ?? 0,
    highHz: options.highHz ?? spectrum.sampleRate / 2,
  });
  const { frames, bins, power } = spectrum;
  const values = new Float32Array(frames * coefficients);
  const logEnergy = new Float64Array(filters);
  const dct = orthonormalDct(filters, coefficients, Float64Array);
  for (let f = 0; f < frames; f++) {
    const row = f * bins;
    for (let m = 0; m < filters; m++) {
      // In bounds: every filter lies within the bins (checked when the bank was built).
      const filter = bank[m];
      let energy = 0;
      if (filter !== undefined)
        for (let k = 0; k < filter.weights.length; k++)
          energy += (filter.weights[k] ?? 0) * (power[row + filter.firstBin + k] ?? 0);
      logEnergy[m] = Math.log(Math.max(energy, ENERGY_FLOOR));
    }
    cepstraInto(logEnergy, dct, coefficients, values, f * coefficients);
  }
  return { frames, coefficients, values };
}
