import { fft1d } from './fft.js';

/** Where one of the pair's power spectra goes: an array and the index of its bin 0. */
export interface SpectrumTarget {
  readonly into: Float32Array | Float64Array;
  readonly at?: number;
}

/**
 * The power spectra of two real signals from one complex FFT: the first signal in `re`, the second in `im`
 * (each zero-padded to the FFT length, a power of two). The transform of x + iy is X + iY, and since X and
 * Y of real signals are conjugate-symmetric they separate as X[k] = (Z[k] + conj Z[N−k]) / 2 and
 * Y[k] = (Z[k] − conj Z[N−k]) / 2i. Bins 0..N/2 of |X|² go to `a`, of |Y|² to `b`. About half the cost of
 * two transforms; the powers agree with two separate transforms to rounding (~1e-16 relative;
 * test/unit/lib/real-fft-pair.test.ts). `re` and `im` are overwritten.
 *
 * @example
 * re.fill(0).set(frameA);
 * im.fill(0).set(frameB);
 * powerSpectraOfPair(re, im, { into: powerA }, { into: powerB }); // powerA, powerB: N/2 + 1 bins each
 * @throws {RangeError} when the arrays differ in length or the length is not a power of two
 */
export function powerSpectraOfPair(re: Float64Array, im: Float64Array, a: SpectrumTarget, b: SpectrumTarget): void {
  fft1d(re, im);
  const n = re.length;
  const aAt = a.at ?? 0;
  const bAt = b.at ?? 0;
  for (let k = 0; k <= n / 2; k++) {
    const j = (n - k) & (n - 1);
    const zr = re[k] ?? 0;
    const zi = im[k] ?? 0;
    const wr = re[j] ?? 0;
    const wi = im[j] ?? 0;
    const ar = zr + wr;
    const ai = zi - wi;
    const br = zi + wi;
    const bi = wr - zr;
    a.into[aAt + k] = (ar * ar + ai * ai) / 4;
    b.into[bAt + k] = (br * br + bi * bi) / 4;
  }
}
