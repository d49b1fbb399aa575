import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gmmStatistics, mapMeanSupervector, type DiagonalGmm } from '../../../../src/engines/voice/diagonal-gmm.js';
import { seededRandom } from '../../../../src/lib/seeded-random.js';

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

/** The Baum-Welch statistics written the plain way: one component at a time, each sum in index order. */
function plainStatistics(gmm: DiagonalGmm, values: Float32Array, count: number): number[][] {
  const { components: C, dims: D, weights, means, variances } = gmm;
  const occupancy = new Float64Array(C);
  const first = new Float64Array(C * D);
  const second = new Float64Array(C * D);
  let logLikelihood = 0;
  const constants = Array.from({ length: C }, (_, c) => {
    let logDet = 0;
    for (let d = 0; d < D; d++) logDet += Math.log(variances[c * D + d] ?? 1);
    return Math.log(weights[c] ?? 0) - 0.5 * (logDet + D * Math.log(2 * Math.PI));
  });
  for (let t = 0; t < count; t++) {
    const logp = constants.map((constant, c) => {
      let q = 0;
      for (let d = 0; d < D; d++) {
        const diff = (values[t * D + d] ?? 0) - (means[c * D + d] ?? 0);
        q += diff * diff * (1 / (variances[c * D + d] ?? 1));
      }
      return constant - 0.5 * q;
    });
    const best = Math.max(...logp);
    let sum = 0;
    for (const l of logp) sum += Math.exp(l - best);
    const logSum = best + Math.log(sum);
    logLikelihood += logSum;
    logp.forEach((l, c) => {
      const gamma = Math.exp(l - logSum);
      if (gamma < 1e-5) return;
      occupancy[c] = (occupancy[c] ?? 0) + gamma;
      for (let d = 0; d < D; d++) {
        const x = values[t * D + d] ?? 0;
        first[c * D + d] = (first[c * D + d] ?? 0) + gamma * x;
        second[c * D + d] = (second[c * D + d] ?? 0) + gamma * x * x;
      }
    });
  }
  return [[...occupancy], [...first], [...second], [logLikelihood]];
}

test('the statistics are the plain per-component sums to the bit (components taken four at a time, and the rest)', () => {
  const random = seededRandom(3);
  const [C, D, T] = [7, 5, 40];
  const gmm: DiagonalGmm = {
    components: C,
    dims: D,
    weights: Float32Array.from({ length: C }, () => 0.05 + random()),
    means: Float32Array.from({ length: C * D }, () => 2 * random() - 1),
    variances: Float32Array.from({ length: C * D }, () => 0.1 + random()),
  };
  const values = Float32Array.from({ length: T * D }, () => 2 * random() - 1);
  const s = gmmStatistics(gmm, { frames: T, dims: D, values }, true);
  assert.deepEqual(
    [[...s.occupancy], [...s.first], [...(s.second ?? [])], [s.logLikelihood]],
    plainStatistics(gmm, values, T),
  );
});
