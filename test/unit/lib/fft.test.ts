import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fft1d, fft2d } from '../../../src/lib/fft.js';
import { seededRandom } from '../../../src/lib/seeded-random.js';

/**
 * The textbook form fft1d reproduces: bit reversal, then one sweep per stage with the twiddle factor advanced by
 * recurrence within each block (what fft1d was before its stages were grouped and its twiddles tabulated).
 */
function referenceFft(re: Float64Array, im: Float64Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j] ?? 0, re[i] ?? 0];
      [im[i], im[j]] = [im[j] ?? 0, im[i] ?? 0];
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

/** Index of the first value that differs (Object.is: -0 and NaN too), or -1. */
function firstDifference(a: Float64Array, b: Float64Array): number {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

test('fft1d gives the one-stage-per-sweep values to the bit, for every length (odd and even stage counts)', () => {
  const random = seededRandom(19);
  for (let n = 1; n <= 4096; n *= 2) {
    for (const kind of ['complex', 'real', 'zero-padded real'] as const) {
      const re = Float64Array.from({ length: n }, () => random() - 0.5);
      const im = Float64Array.from({ length: n }, () => (kind === 'complex' ? random() - 0.5 : 0));
      // A frame in the first part of the array, zeros after it: how the voice features call it.
      if (kind === 'zero-padded real') re.fill(0, Math.ceil(n * 0.78));
      const expectedRe = re.slice();
      const expectedIm = im.slice();
      referenceFft(expectedRe, expectedIm);
      fft1d(re, im);
      assert.equal(firstDifference(re, expectedRe), -1, `${kind} re, n = ${n}`);
      assert.equal(firstDifference(im, expectedIm), -1, `${kind} im, n = ${n}`);
    }
  }
});

test('fft1d matches a direct DFT', () => {
  const random = seededRandom(7);
  const n = 64;
  const re = Float64Array.from({ length: n }, () => random() - 0.5);
  const im = Float64Array.from({ length: n }, () => random() - 0.5);
  const outRe = re.slice();
  const outIm = im.slice();
  fft1d(outRe, outIm);
  for (let k = 0; k < n; k++) {
    let sumRe = 0;
    let sumIm = 0;
    for (let t = 0; t < n; t++) {
      const angle = (-2 * Math.PI * k * t) / n;
      sumRe += (re[t] ?? 0) * Math.cos(angle) - (im[t] ?? 0) * Math.sin(angle);
      sumIm += (re[t] ?? 0) * Math.sin(angle) + (im[t] ?? 0) * Math.cos(angle);
    }
    assert.ok(Math.abs((outRe[k] ?? 0) - sumRe) < 1e-9 && Math.abs((outIm[k] ?? 0) - sumIm) < 1e-9, `bin ${k}`);
  }
});

test('fft2d of a constant is its sum at DC only', () => {
  const re = new Float64Array(64).fill(1);
  const im = new Float64Array(64);
  fft2d(re, im, 8);
  assert.equal(re[0], 64);
  for (let i = 1; i < 64; i++) assert.ok(Math.abs(re[i] ?? 0) < 1e-12 && Math.abs(im[i] ?? 0) < 1e-12);
});

test('fft1d refuses lengths that are not a power of two', () => {
  assert.throws(() => fft1d(new Float64Array(6), new Float64Array(6)), RangeError);
  assert.throws(() => fft1d(new Float64Array(8), new Float64Array(4)), RangeError);
});
