/**
 * Triangular filters evenly spaced on the mel scale, applied to power spectra (the front half of MFCC).
 */

/** Where the filters lie. */
export interface MelFilterbankOptions {
  readonly sampleRate: number;
  /** FFT length of the spectra the bank is applied to (bins = fftLength / 2 + 1). */
  readonly fftLength: number;
  readonly filters: number;
  /** Lower edge of the first filter in Hz. */
  readonly lowHz: number;
  /** Upper edge of the last filter in Hz (at most the Nyquist frequency). */
  readonly highHz: number;
}

/** One triangle: its weights over the bins `firstBin .. firstBin + weights.length - 1`. */
export interface MelFilter {
  readonly firstBin: number;
  readonly weights: Float32Array;
}

/**
 * Hz to mel (O'Shaughnessy: 2595·log10(1 + f/700)).
 *
 * @example
 * hzToMel(1000); // ≈ 1000
 */
export function hzToMel(hz: number): number {
  return 2595 * Math.log10(1 + hz / 700);
}

/**
 * Mel to Hz, the inverse of {@link hzToMel}.
 *
 * @example
 * melToHz(hzToMel(440)); // 440
 */
export function melToHz(mel: number): number {
  return 700 * (10 ** (mel / 2595) - 1);
}

const bankCache = new Map<string, readonly MelFilter[]>();

/**
 * The triangular mel filters (peak weight 1) for a spectrum layout; cached per layout.
 *
 * @example
 * const bank = melFilterbank({ sampleRate: 16_000, fftLength: 512, filters: 40, lowHz: 20, highHz: 7600 });
 * bank.length; // 40
 * @throws {RangeError} when the band is empty, beyond Nyquist, or too narrow for the filter count
 */
export function melFilterbank(options: MelFilterbankOptions): readonly MelFilter[] {
  const { sampleRate, fftLength, filters, lowHz, highHz } = options;
  const key = `${sampleRate}/${fftLength}/${filters}/${lowHz}/${highHz}`;
  const cached = bankCache.get(key);
  if (cached !== undefined) return cached;
  if (!(lowHz >= 0 && highHz > lowHz && highHz <= sampleRate / 2))
    throw new RangeError(`mel band ${lowHz}-${highHz} Hz does not fit a ${sampleRate} Hz signal`);
  if (!Number.isInteger(filters) || filters < 1) throw new RangeError('a mel filterbank needs at least one filter');
  const binHz = sampleRate / fftLength;
  const lowMel = hzToMel(lowHz);
  const step = (hzToMel(highHz) - lowMel) / (filters + 1);
  const edges = Array.from({ length: filters + 2 }, (_, i) => melToHz(lowMel + i * step) / binHz);
  const bank: MelFilter[] = [];
  for (let m = 0; m < filters; m++) {
    // In bounds: m + 2 <= filters + 1.
    const left = edges[m] ?? 0;
    const centre = edges[m + 1] ?? 0;
    const right = edges[m + 2] ?? 0;
    const firstBin = Math.ceil(left);
    const lastBin = Math.floor(right);
    if (lastBin < firstBin) throw new RangeError(`mel filter ${m} covers no FFT bin: use fewer filters`);
    const weights = new Float32Array(lastBin - firstBin + 1);
    for (let k = firstBin; k <= lastBin; k++) {
      weights[k - firstBin] = k <= centre ? (k - left) / (centre - left) : (right - k) / (right - centre);
    }
    bank.push({ firstBin, weights });
  }
  bankCache.set(key, bank);
  return bank;
}
