import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fftInPlace } from '../../../../../src/engines/voice/features/fft-plan.js';
import { fft1d } from '../../../../../src/lib/fft.js';
import { seededRandom } from '../../../../../src/lib/seeded-random.js';

/** Index of the first value that differs (Object.is: -0 and NaN too), or -1. */
function firstDifference(a: Float64Array, b: Float64Array): number {
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return i;
  return -1;
}

test('fftInPlace gives fft1d’s values to the bit, for every length (odd and even stage counts)', () => {
  const random = seededRandom(19);
  for (let n = 1; n <= 4096; n *= 2) {
    for (const kind of ['complex', 'real', 'zero-padded real'] as const) {
      const re = Float64Array.from({ length: n }, () => random() - 0.5);
      const im = Float64Array.from({ length: n }, () => (kind === 'complex' ? random() - 0.5 : 0));
      // A frame in the first part of the array, zeros after it: how the voice features call it.
      if (kind === 'zero-padded real') re.fill(0, Math.ceil(n * 0.78));
      const expectedRe = re.slice();
      const expectedIm = im.slice();
      fft1d(expectedRe, expectedIm);
      fftInPlace(re, im);
      assert.equal(firstDifference(re, expectedRe), -1, `${kind} re, n = ${n}`);
      assert.equal(firstDifference(im, expectedIm), -1, `${kind} im, n = ${n}`);
    }
  }
});

test('fftInPlace refuses lengths that are not a power of two, as fft1d does', () => {
  assert.throws(() => fftInPlace(new Float64Array(6), new Float64Array(6)), RangeError);
  assert.throws(() => fftInPlace(new Float64Array(8), new Float64Array(4)), RangeError);
});
