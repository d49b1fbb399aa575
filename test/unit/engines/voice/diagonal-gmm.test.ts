import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gmmStatistics, mapMeanSupervector, type DiagonalGmm } from '../../../../src/engines/voice/diagonal-gmm.js';

/** Two well-separated 2-D components at (−5, 0) and (5, 0), unit variances. */
const UBM: DiagonalGmm = {
  components: 2,
  dims: 2,
  weights: Float32Array.of(0.5, 0.5),
  means: Float32Array.of(-5, 0, 5, 0),
  variances: Float32Array.of(1, 1, 1, 1),
};

const frames = (...rows: [number, number][]): { frames: number; dims: number; values: Float32Array } => ({
  frames: rows.length,
  dims: 2,
  values: Float32Array.from(rows.flat()),
});

test('Baum-Welch statistics assign each frame to its component', () => {
  const s = gmmStatistics(UBM, frames([-5, 0], [-5, 0], [5, 0]), true);
  assert.ok(Math.abs((s.occupancy[0] ?? 0) - 2) < 1e-6);
  assert.ok(Math.abs((s.occupancy[1] ?? 0) - 1) < 1e-6);
  assert.ok(Math.abs((s.first[0] ?? 0) + 10) < 1e-5);
  assert.ok(Math.abs((s.second?.[2] ?? 0) - 25) < 1e-5);
  assert.ok(Number.isFinite(s.logLikelihood));
  assert.throws(() => gmmStatistics(UBM, { frames: 1, dims: 3, values: new Float32Array(3) }), RangeError);
});

test('the MAP supervector is zero at the UBM means and moves with the speaker, damped by the relevance factor', () => {
  const atMeans = mapMeanSupervector(UBM, gmmStatistics(UBM, frames([-5, 0], [5, 0])), 16);
  assert.ok(atMeans.every((v) => Math.abs(v) < 1e-6));
  const shifted = frames([-4, 0], [-4, 0], [-4, 0], [-4, 0]);
  const weak = mapMeanSupervector(UBM, gmmStatistics(UBM, shifted), 16);
  const strong = mapMeanSupervector(UBM, gmmStatistics(UBM, shifted), 1);
  // √0.5 · (4 · 1) / (4 + r) / 1 on component 0's first dimension; nothing on component 1.
  assert.ok(Math.abs((weak[0] ?? 0) - (Math.SQRT1_2 * 4) / 20) < 1e-5);
  assert.ok(Math.abs((strong[0] ?? 0) - (Math.SQRT1_2 * 4) / 5) < 1e-5);
  assert.ok(Math.abs(weak[2] ?? 0) < 1e-6);
});
