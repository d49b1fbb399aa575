/**
 * Gaussian mixture with diagonal covariances over feature frames: the universal background model (UBM) of the
 * V900 speaker template, and the E-step its training (eval/voice-training.ts) repeats.
 */
import type { FeatureMatrix } from './features/feature-matrix.js';

/** A diagonal-covariance GMM; `means` and `variances` are `components × dims`, row-major. */
export interface DiagonalGmm {
  readonly components: number;
  readonly dims: number;
  readonly weights: Float32Array;
  readonly means: Float32Array;
  readonly variances: Float32Array;
}

/**
 * Zeroth, first (and optionally second) order statistics of frames under a GMM (Baum-Welch statistics):
 * `occupancy[c] = Σ γ_c(t)`, `first[c·D + d] = Σ γ_c(t) x_d(t)`, `second` likewise with x².
 */
export interface GmmStatistics {
  readonly occupancy: Float64Array;
  readonly first: Float64Array;
  readonly second?: Float64Array;
  /** Σ over frames of log p(x), for convergence checks. */
  readonly logLikelihood: number;
}

interface Prepared {
  readonly gmm: DiagonalGmm;
  readonly constants: Float64Array;
  readonly inverseVariances: Float64Array;
}

const prepared = new WeakMap<DiagonalGmm, Prepared>();

function prepare(gmm: DiagonalGmm): Prepared {
  const cached = prepared.get(gmm);
  if (cached !== undefined) return cached;
  const { components, dims, weights, variances } = gmm;
  const constants = new Float64Array(components);
  const inverseVariances = new Float64Array(components * dims);
  for (let c = 0; c < components; c++) {
    let logDet = 0;
    for (let d = 0; d < dims; d++) {
      const v = variances[c * dims + d] ?? 1;
      logDet += Math.log(v);
      inverseVariances[c * dims + d] = 1 / v;
    }
    constants[c] = Math.log(weights[c] ?? 0) - 0.5 * (logDet + dims * Math.log(2 * Math.PI));
  }
  const result = { gmm, constants, inverseVariances };
  prepared.set(gmm, result);
  return result;
}

/**
 * Accumulates the Baum-Welch statistics of every frame of `features` (whose `dims` must be the GMM's).
 *
 * @example
 * const { occupancy, first } = gmmStatistics(ubm, features); // then MAP-adapt the means
 * @throws {RangeError} when the feature dimension differs from the model's
 */
export function gmmStatistics(gmm: DiagonalGmm, features: FeatureMatrix, withSecond = false): GmmStatistics {
  const { components: C, dims: D, means } = gmm;
  if (features.dims !== D) throw new RangeError(`the GMM has ${D} dimensions, the features ${features.dims}`);
  const { constants, inverseVariances } = prepare(gmm);
  const occupancy = new Float64Array(C);
  const first = new Float64Array(C * D);
  const second = withSecond ? new Float64Array(C * D) : undefined;
  const logp = new Float64Array(C);
  const { values } = features;
  let logLikelihood = 0;
  for (let t = 0; t < features.frames; t++) {
    const row = t * D;
    let best = -Infinity;
    let c = 0;
    // Four components at a time, each summed in its own variable in the same order as one at a time (the same
    // value to the bit): the four chains of additions overlap.
    for (; c + 3 < C; c += 4) {
      let q0 = 0;
      let q1 = 0;
      let q2 = 0;
      let q3 = 0;
      const base0 = c * D;
      const base1 = base0 + D;
      const base2 = base1 + D;
      const base3 = base2 + D;
      for (let d = 0; d < D; d++) {
        const x = values[row + d] ?? 0;
        const diff0 = x - (means[base0 + d] ?? 0);
        const diff1 = x - (means[base1 + d] ?? 0);
        const diff2 = x - (means[base2 + d] ?? 0);
        const diff3 = x - (means[base3 + d] ?? 0);
        q0 += diff0 * diff0 * (inverseVariances[base0 + d] ?? 0);
        q1 += diff1 * diff1 * (inverseVariances[base1 + d] ?? 0);
        q2 += diff2 * diff2 * (inverseVariances[base2 + d] ?? 0);
        q3 += diff3 * diff3 * (inverseVariances[base3 + d] ?? 0);
      }
      const l0 = (constants[c] ?? 0) - 0.5 * q0;
      const l1 = (constants[c + 1] ?? 0) - 0.5 * q1;
      const l2 = (constants[c + 2] ?? 0) - 0.5 * q2;
      const l3 = (constants[c + 3] ?? 0) - 0.5 * q3;
      logp[c] = l0;
      logp[c + 1] = l1;
      logp[c + 2] = l2;
      logp[c + 3] = l3;
      if (l0 > best) best = l0;
      if (l1 > best) best = l1;
      if (l2 > best) best = l2;
      if (l3 > best) best = l3;
    }
    for (; c < C; c++) {
      let q = 0;
      const base = c * D;
      for (let d = 0; d < D; d++) {
        const diff = (values[row + d] ?? 0) - (means[base + d] ?? 0);
        q += diff * diff * (inverseVariances[base + d] ?? 0);
      }
      const l = (constants[c] ?? 0) - 0.5 * q;
      logp[c] = l;
      if (l > best) best = l;
    }
    let sum = 0;
    for (let c = 0; c < C; c++) sum += Math.exp((logp[c] ?? 0) - best);
    const logSum = best + Math.log(sum);
    logLikelihood += logSum;
    for (let c = 0; c < C; c++) {
      const gamma = Math.exp((logp[c] ?? 0) - logSum);
      // Posteriors below 1e-5 change no statistic measurably: skip their D multiply-adds.
      if (gamma < 1e-5) continue;
      occupancy[c] = (occupancy[c] ?? 0) + gamma;
      const base = c * D;
      for (let d = 0; d < D; d++) {
        const x = values[row + d] ?? 0;
        first[base + d] = (first[base + d] ?? 0) + gamma * x;
        if (second !== undefined) second[base + d] = (second[base + d] ?? 0) + gamma * x * x;
      }
    }
  }
  return second === undefined ? { occupancy, first, logLikelihood } : { occupancy, first, second, logLikelihood };
}

/**
 * The normalised mean supervector of MAP adaptation (Campbell's GMM supervector for the KL-divergence
 * kernel): per component `√w_c · (m̂_c − m_c) / σ_c` with `m̂_c = (F_c + r·m_c) / (N_c + r)`, so that the dot
 * product of two supervectors approximates the KL divergence between the adapted models. Not length-normalised.
 *
 * @example
 * const supervector = mapMeanSupervector(ubm, gmmStatistics(ubm, features), 16);
 */
export function mapMeanSupervector(gmm: DiagonalGmm, statistics: GmmStatistics, relevance: number): Float32Array {
  const { components: C, dims: D, weights, means, variances } = gmm;
  const out = new Float32Array(C * D);
  for (let c = 0; c < C; c++) {
    const n = statistics.occupancy[c] ?? 0;
    const scale = Math.sqrt(weights[c] ?? 0) / (n + relevance);
    for (let d = 0; d < D; d++) {
      const i = c * D + d;
      // m̂ − m = (F − N·m) / (N + r)
      out[i] = (scale * ((statistics.first[i] ?? 0) - n * (means[i] ?? 0))) / Math.sqrt(variances[i] ?? 1);
    }
  }
  return out;
}
