/**
 * Fast Fourier transforms of complex arrays held as separate real and imaginary parts, in place.
 * Lengths are powers of two; every index read is in bounds, so the `?? 0` on typed-array reads never fires.
 */

/**
 * In-place iterative radix-2 Cooley–Tukey FFT (length a power of two), unnormalised, e^(−2πi·kn/N).
 *
 * @example
 * const re = Float64Array.of(1, 0, 0, 0);
 * const im = new Float64Array(4);
 * fft1d(re, im); // re = [1, 1, 1, 1], im = [0, 0, 0, 0]: an impulse has a flat spectrum
 * @throws {RangeError} when the arrays differ in length or the length is not a power of two
 */
export function fft1d(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  if ((n & (n - 1)) !== 0 || im.length !== n)
    throw new RangeError('fft1d needs two arrays of the same power-of-two length');
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      const r = re[i] ?? 0;
      re[i] = re[j] ?? 0;
      re[j] = r;
      const m = im[i] ?? 0;
      im[i] = im[j] ?? 0;
      im[j] = m;
    }
  }
  for (let length = 2; length <= n; length <<= 1) {
    const angle = (-2 * Math.PI) / length;
    const wRe = Math.cos(angle);
    const wIm = Math.sin(angle);
    for (let start = 0; start < n; start += length) {
      let cRe = 1;
      let cIm = 0;
      for (let k = 0; k < length / 2; k++) {
        const a = start + k;
        const b = a + length / 2;
        const bRe = re[b] ?? 0;
        const bIm = im[b] ?? 0;
        const aRe = re[a] ?? 0;
        const aIm = im[a] ?? 0;
        const tRe = bRe * cRe - bIm * cIm;
        const tIm = bRe * cIm + bIm * cRe;
        re[b] = aRe - tRe;
        im[b] = aIm - tIm;
        re[a] = aRe + tRe;
        im[a] = aIm + tIm;
        const nextRe = cRe * wRe - cIm * wIm;
        cIm = cRe * wIm + cIm * wRe;
        cRe = nextRe;
      }
    }
  }
}

/**
 * In-place 2-D FFT of a size×size complex array stored row by row (rows first, then columns).
 *
 * @example
 * const re = new Float64Array(64).fill(1); // an 8×8 constant
 * const im = new Float64Array(64);
 * fft2d(re, im, 8); // re[0] = 64 (the DC term), every other bin 0
 * @throws {RangeError} when the arrays are not size×size or size is not a power of two
 */
export function fft2d(re: Float64Array, im: Float64Array, size: number): void {
  if (re.length !== size * size || im.length !== size * size) throw new RangeError('fft2d needs two size×size arrays');
  const rowRe = new Float64Array(size);
  const rowIm = new Float64Array(size);
  for (let y = 0; y < size; y++) {
    const row = y * size;
    rowRe.set(re.subarray(row, row + size));
    rowIm.set(im.subarray(row, row + size));
    fft1d(rowRe, rowIm);
    re.set(rowRe, row);
    im.set(rowIm, row);
  }
  for (let x = 0; x < size; x++) {
    for (let y = 0; y < size; y++) {
      rowRe[y] = re[y * size + x] ?? 0;
      rowIm[y] = im[y * size + x] ?? 0;
    }
    fft1d(rowRe, rowIm);
    for (let y = 0; y < size; y++) {
      re[y * size + x] = rowRe[y] ?? 0;
      im[y * size + x] = rowIm[y] ?? 0;
    }
  }
}
