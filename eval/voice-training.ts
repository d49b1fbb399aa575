/**
 * Training of the speaker-template parameters (not part of the server): the diagonal GMM universal background
 * model by EM with component splitting, and linear discriminant analysis (LDA) on labelled vectors.
 */
import { gmmStatistics, type DiagonalGmm } from '../src/engines/voice/diagonal-gmm.js';
import type { FeatureMatrix } from '../src/engines/voice/features/feature-matrix.js';

/** Smallest variance a component keeps (features are CMVN-normalised, so unit scale). */
const VARIANCE_FLOOR = 1e-3;

/**
 * Trains a diagonal GMM on pooled frames: one Gaussian, then repeated splitting of every component along its
 * standard deviation, each doubling followed by `iterationsPerSplit` EM iterations, until `components`
 * (a power of two) is reached.
 *
 * @example
 * const ubm = trainDiagonalGmm(pooledFrames, 64, 6);
 */
export function trainDiagonalGmm(
  frames: FeatureMatrix,
  components: number,
  iterationsPerSplit: number,
  log: (line: string) => void = () => undefined,
): DiagonalGmm {
  if ((components & (components - 1)) !== 0) throw new RangeError('components must be a power of two');
  const D = frames.dims;
  // One Gaussian: the global mean and variance.
  let gmm = mStep(gmmStatistics(single(D), frames, true), D, frames.frames);
  while (gmm.components < components) {
    gmm = split(gmm);
    for (let i = 0; i < iterationsPerSplit; i++) {
      const statistics = gmmStatistics(gmm, frames, true);
      log(
        `  GMM ${gmm.components} components, EM ${i + 1}: mean log-likelihood ${(statistics.logLikelihood / frames.frames).toFixed(3)}`,
      );
      gmm = mStep(statistics, D, frames.frames);
    }
  }
  return gmm;
}

function single(D: number): DiagonalGmm {
  return {
    components: 1,
    dims: D,
    weights: Float32Array.of(1),
    means: new Float32Array(D),
    variances: new Float32Array(D).fill(1e6),
  };
}

function mStep(
  statistics: ReturnType<typeof gmmStatistics>,
  D: number,
  totalFrames: number,
): DiagonalGmm & { components: number } {
  const C = statistics.occupancy.length;
  const second = statistics.second;
  if (second === undefined) throw new Error('the M-step needs second-order statistics');
  const weights = new Float32Array(C);
  const means = new Float32Array(C * D);
  const variances = new Float32Array(C * D);
  for (let c = 0; c < C; c++) {
    const n = Math.max(statistics.occupancy[c] ?? 0, 1e-3);
    weights[c] = n / totalFrames;
    for (let d = 0; d < D; d++) {
      const i = c * D + d;
      const mean = (statistics.first[i] ?? 0) / n;
      means[i] = mean;
      variances[i] = Math.max(VARIANCE_FLOOR, (second[i] ?? 0) / n - mean * mean);
    }
  }
  const total = weights.reduce((s, w) => s + w, 0);
  for (let c = 0; c < C; c++) weights[c] = (weights[c] ?? 0) / total;
  return { components: C, dims: D, weights, means, variances };
}

function split(gmm: DiagonalGmm): DiagonalGmm {
  const { components: C, dims: D } = gmm;
  const weights = new Float32Array(2 * C);
  const means = new Float32Array(2 * C * D);
  const variances = new Float32Array(2 * C * D);
  for (let c = 0; c < C; c++) {
    for (const [k, sign] of [
      [2 * c, 1],
      [2 * c + 1, -1],
    ] as const) {
      weights[k] = (gmm.weights[c] ?? 0) / 2;
      for (let d = 0; d < D; d++) {
        const v = gmm.variances[c * D + d] ?? 1;
        means[k * D + d] = (gmm.means[c * D + d] ?? 0) + sign * 0.2 * Math.sqrt(v);
        variances[k * D + d] = v;
      }
    }
  }
  return { components: 2 * C, dims: D, weights, means, variances };
}

/** A linear map `y = projection · (x − mean)`, `projection` being `outDims × inDims` row-major. */
export interface LinearProjection {
  readonly inDims: number;
  readonly outDims: number;
  readonly mean: Float64Array;
  readonly projection: Float64Array;
}

/**
 * Linear discriminant analysis: the directions that maximise between-speaker over within-speaker scatter,
 * scaled so that the within-speaker covariance of the output is the identity (LDA + WCCN in one map).
 * The within-class scatter is regularised by `shrinkage` × its mean diagonal.
 *
 * @example
 * const lda = fitLda(vectors, speakerOf, 150);
 */
export function fitLda(
  vectors: readonly Float64Array[],
  labels: readonly string[],
  outDims: number,
  shrinkage = 1e-3,
): LinearProjection {
  const [first] = vectors;
  if (first === undefined || vectors.length !== labels.length) throw new RangeError('fitLda needs labelled vectors');
  const D = first.length;
  const mean = new Float64Array(D);
  for (const v of vectors) for (let d = 0; d < D; d++) mean[d] = (mean[d] ?? 0) + (v[d] ?? 0) / vectors.length;
  const groups = new Map<string, Float64Array[]>();
  vectors.forEach((v, i) => {
    const label = labels[i] ?? '';
    const group = groups.get(label) ?? [];
    group.push(v);
    groups.set(label, group);
  });
  const within = new Float64Array(D * D);
  const between = new Float64Array(D * D);
  const centred = new Float64Array(D);
  for (const group of groups.values()) {
    const groupMean = new Float64Array(D);
    for (const v of group) for (let d = 0; d < D; d++) groupMean[d] = (groupMean[d] ?? 0) + (v[d] ?? 0) / group.length;
    for (const v of group) {
      for (let d = 0; d < D; d++) centred[d] = (v[d] ?? 0) - (groupMean[d] ?? 0);
      addOuter(within, centred, 1);
    }
    for (let d = 0; d < D; d++) centred[d] = (groupMean[d] ?? 0) - (mean[d] ?? 0);
    addOuter(between, centred, group.length);
  }
  let trace = 0;
  for (let d = 0; d < D; d++) trace += within[d * D + d] ?? 0;
  for (let d = 0; d < D; d++) within[d * D + d] = (within[d * D + d] ?? 0) + (shrinkage * trace) / D;
  const scale = 1 / vectors.length;
  for (let i = 0; i < D * D; i++) {
    within[i] = (within[i] ?? 0) * scale;
    between[i] = (between[i] ?? 0) * scale;
  }
  // Whiten the within-class scatter (W^{-1/2} by eigendecomposition), then diagonalise the between-class one.
  const w = symmetricEigen(within, D);
  const whitening = new Float64Array(D * D); // rows: eigenvectors / sqrt(eigenvalue)
  for (let k = 0; k < D; k++) {
    const s = 1 / Math.sqrt(Math.max(w.values[k] ?? 0, 1e-12));
    for (let d = 0; d < D; d++) whitening[k * D + d] = (w.vectors[k * D + d] ?? 0) * s;
  }
  const whitenedBetween = multiply(multiply(whitening, between, D, D, D), transpose(whitening, D, D), D, D, D);
  const b = symmetricEigen(whitenedBetween, D);
  const order = Array.from({ length: D }, (_, k) => k).sort((p, q) => (b.values[q] ?? 0) - (b.values[p] ?? 0));
  const kept = Math.min(outDims, D);
  const top = new Float64Array(kept * D);
  order.slice(0, kept).forEach((k, row) => top.set(b.vectors.subarray(k * D, (k + 1) * D), row * D));
  return { inDims: D, outDims: kept, mean, projection: multiply(top, whitening, kept, D, D) };
}

/**
 * Applies a projection.
 *
 * @example
 * const y = project(lda, x);
 */
export function project(p: LinearProjection, x: ArrayLike<number>): Float64Array {
  const out = new Float64Array(p.outDims);
  for (let k = 0; k < p.outDims; k++) {
    let s = 0;
    for (let d = 0; d < p.inDims; d++) s += (p.projection[k * p.inDims + d] ?? 0) * ((x[d] ?? 0) - (p.mean[d] ?? 0));
    out[k] = s;
  }
  return out;
}

function addOuter(target: Float64Array, v: Float64Array, weight: number): void {
  const D = v.length;
  for (let i = 0; i < D; i++) {
    const vi = (v[i] ?? 0) * weight;
    if (vi === 0) continue;
    for (let j = 0; j < D; j++) target[i * D + j] = (target[i * D + j] ?? 0) + vi * (v[j] ?? 0);
  }
}

function multiply(a: Float64Array, b: Float64Array, rows: number, inner: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) {
    for (let k = 0; k < inner; k++) {
      const aik = a[i * inner + k] ?? 0;
      if (aik === 0) continue;
      for (let j = 0; j < cols; j++) out[i * cols + j] = (out[i * cols + j] ?? 0) + aik * (b[k * cols + j] ?? 0);
    }
  }
  return out;
}

function transpose(a: Float64Array, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let j = 0; j < cols; j++) out[j * rows + i] = a[i * cols + j] ?? 0;
  return out;
}

/**
 * Eigen-decomposition of a symmetric matrix by cyclic Jacobi rotations: `values[k]` with eigenvector
 * `vectors[k·n .. k·n + n − 1]` (unsorted).
 *
 * @example
 * symmetricEigen(Float64Array.of(2, 0, 0, 1), 2).values; // [2, 1]
 */
export function symmetricEigen(matrix: Float64Array, n: number): { values: Float64Array; vectors: Float64Array } {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(n * n);
  for (let i = 0; i < n; i++) v[i * n + i] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let off = 0;
    for (let p = 0; p < n; p++) for (let q = p + 1; q < n; q++) off += (a[p * n + q] ?? 0) ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < n; p++) {
      for (let q = p + 1; q < n; q++) {
        const apq = a[p * n + q] ?? 0;
        if (Math.abs(apq) < 1e-300) continue;
        const app = a[p * n + p] ?? 0;
        const aqq = a[q * n + q] ?? 0;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < n; k++) {
          const akp = a[k * n + p] ?? 0;
          const akq = a[k * n + q] ?? 0;
          a[k * n + p] = c * akp - s * akq;
          a[k * n + q] = s * akp + c * akq;
        }
        for (let k = 0; k < n; k++) {
          const apk = a[p * n + k] ?? 0;
          const aqk = a[q * n + k] ?? 0;
          a[p * n + k] = c * apk - s * aqk;
          a[q * n + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < n; k++) {
          const vpk = v[p * n + k] ?? 0;
          const vqk = v[q * n + k] ?? 0;
          v[p * n + k] = c * vpk - s * vqk;
          v[q * n + k] = s * vpk + c * vqk;
        }
      }
    }
  }
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = a[i * n + i] ?? 0;
  return { values, vectors: v };
}

/**
 * Principal component analysis of many high-dimensional vectors by subspace iteration (never forming the
 * D×D covariance): the `outDims` leading directions, as a projection with the data mean.
 *
 * @example
 * const pca = fitPca(supervectors, 200);
 */
export function fitPca(vectors: readonly ArrayLike<number>[], outDims: number, iterations = 12): LinearProjection {
  const [first] = vectors;
  if (first === undefined) throw new RangeError('fitPca needs vectors');
  const D = first.length;
  const N = vectors.length;
  const k = Math.min(outDims, D, N);
  const mean = new Float64Array(D);
  for (const v of vectors) for (let d = 0; d < D; d++) mean[d] = (mean[d] ?? 0) + (v[d] ?? 0) / N;
  const x = new Float64Array(N * D);
  vectors.forEach((v, n) => {
    for (let d = 0; d < D; d++) x[n * D + d] = (v[d] ?? 0) - (mean[d] ?? 0);
  });
  // Start from the first k centred vectors (deterministic), orthonormalised.
  let basis = new Float64Array(k * D);
  for (let j = 0; j < k; j++) basis.set(x.subarray((j % N) * D, (j % N) * D + D), j * D);
  orthonormaliseRows(basis, k, D);
  const scores = new Float64Array(N * k);
  for (let it = 0; it < iterations; it++) {
    // scores = X · basisᵀ (N×k); basis = scoresᵀ · X (k×D)
    for (let n = 0; n < N; n++) {
      for (let j = 0; j < k; j++) {
        let s = 0;
        for (let d = 0; d < D; d++) s += (x[n * D + d] ?? 0) * (basis[j * D + d] ?? 0);
        scores[n * k + j] = s;
      }
    }
    const next = new Float64Array(k * D);
    for (let n = 0; n < N; n++) {
      for (let j = 0; j < k; j++) {
        const s = scores[n * k + j] ?? 0;
        for (let d = 0; d < D; d++) next[j * D + d] = (next[j * D + d] ?? 0) + s * (x[n * D + d] ?? 0);
      }
    }
    orthonormaliseRows(next, k, D);
    basis = next;
  }
  return { inDims: D, outDims: k, mean, projection: basis };
}

function orthonormaliseRows(rows: Float64Array, k: number, D: number): void {
  for (let j = 0; j < k; j++) {
    const row = rows.subarray(j * D, (j + 1) * D);
    for (let i = 0; i < j; i++) {
      const other = rows.subarray(i * D, (i + 1) * D);
      let s = 0;
      for (let d = 0; d < D; d++) s += (row[d] ?? 0) * (other[d] ?? 0);
      for (let d = 0; d < D; d++) row[d] = (row[d] ?? 0) - s * (other[d] ?? 0);
    }
    let norm = 0;
    for (let d = 0; d < D; d++) norm += (row[d] ?? 0) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < D; d++) row[d] = (row[d] ?? 0) / norm;
  }
}

/**
 * Two projections applied one after the other, as one (`second ∘ first`).
 *
 * @example
 * const pcaLda = composeProjections(pca, lda);
 */
export function composeProjections(first: LinearProjection, second: LinearProjection): LinearProjection {
  if (second.inDims !== first.outDims) throw new RangeError('the projections do not chain');
  const { inDims: D } = first;
  const projection = new Float64Array(second.outDims * D);
  for (let i = 0; i < second.outDims; i++) {
    for (let k = 0; k < first.outDims; k++) {
      const a = second.projection[i * first.outDims + k] ?? 0;
      for (let d = 0; d < D; d++)
        projection[i * D + d] = (projection[i * D + d] ?? 0) + a * (first.projection[k * D + d] ?? 0);
    }
  }
  // y = B(A(x − m1) − m2) = BA(x − m1 − A⁺m2); with A orthonormal rows (PCA), A⁺ = Aᵀ.
  const mean = Float64Array.from(first.mean);
  for (let k = 0; k < first.outDims; k++) {
    const m2 = second.mean[k] ?? 0;
    for (let d = 0; d < D; d++) mean[d] = (mean[d] ?? 0) + m2 * (first.projection[k * D + d] ?? 0);
  }
  return { inDims: D, outDims: second.outDims, mean, projection };
}
