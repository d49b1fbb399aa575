import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fft1d } from '../../../src/lib/fft.js';
import { powerSpectraOfPair } from '../../../src/lib/real-fft-pair.js';
import { seededRandom } from '../../../src/lib/seeded-random.js';

/** |FFT|² of one real signal, bins 0..n/2, by its own complex transform. */
function powerAlone(signal: Float64Array): Float64Array {
  const re = Float64Array.from(signal);
  const im = new Float64Array(signal.length);
  fft1d(re, im);
  return Float64Array.from({ length: signal.length / 2 + 1 }, (_, k) => (re[k] ?? 0) ** 2 + (im[k] ?? 0) ** 2);
}

function assertClose(actual: ArrayLike<number>, expected: ArrayLike<number>, label: string): void {
  assert.equal(actual.length, expected.length, label);
  let scale = 0;
  for (let k = 0; k < expected.length; k++) scale = Math.max(scale, Math.abs(expected[k] ?? 0));
  for (let k = 0; k < expected.length; k++)
    assert.ok(Math.abs((actual[k] ?? 0) - (expected[k] ?? 0)) <= 1e-12 * scale, `${label}: bin ${k}`);
}

test('two real signals in one FFT give each one’s power spectrum, at every length and with a zero partner', () => {
  const random = seededRandom(11);
  for (const n of [2, 8, 64, 512, 1024]) {
    const a = Float64Array.from({ length: n }, () => random() - 0.5);
    const b = Float64Array.from({ length: n }, (_, i) => Math.sin(i / 3) + 0.3 * (random() - 0.5));
    const powerA = new Float64Array(n / 2 + 1);
    const powerB = new Float64Array(n / 2 + 1);
    powerSpectraOfPair(Float64Array.from(a), Float64Array.from(b), { into: powerA }, { into: powerB });
    assertClose(powerA, powerAlone(a), `a, n = ${n}`);
    assertClose(powerB, powerAlone(b), `b, n = ${n}`);
    powerSpectraOfPair(Float64Array.from(a), new Float64Array(n), { into: powerA }, { into: powerB });
    assertClose(powerA, powerAlone(a), `a alone, n = ${n}`);
    const peak = Math.max(...powerA);
    assert.ok(
      powerB.every((p) => p <= 1e-12 * peak),
      'a zero partner has no power, to rounding',
    );
  }
});

test('the spectra land at the given offsets of their targets, float32 rows included', () => {
  const n = 16;
  const a = Float64Array.from({ length: n }, (_, i) => (i % 5) - 2);
  const b = Float64Array.from({ length: n }, (_, i) => (i === 3 ? 1 : 0));
  const rows = new Float32Array(3 * (n / 2 + 1)).fill(-1);
  powerSpectraOfPair(Float64Array.from(a), Float64Array.from(b), { into: rows, at: 9 }, { into: rows, at: 18 });
  assert.ok(
    rows.subarray(0, 9).every((v) => v === -1),
    'the first row is left alone',
  );
  assertClose(rows.subarray(9, 18), Float32Array.from(powerAlone(a)), 'second row');
  // An impulse has a flat power spectrum.
  assert.ok(rows.subarray(18).every((v) => Math.abs(v - 1) < 1e-6));
  assert.throws(() => powerSpectraOfPair(new Float64Array(6), new Float64Array(6), { into: rows }, { into: rows }));
});
