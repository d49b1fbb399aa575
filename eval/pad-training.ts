/**
 * Training of the presentation-attack classifier (src/engines/liveness/pad-classifier.ts scores with
 * what this fits): per-feature standardisation followed by L2-regularised logistic regression, fitted
 * by Newton's method (iteratively reweighted least squares) with a hand-written Cholesky solve. Small on
 * purpose: the training set is a few hundred images of a dozen people, and a linear model over
 * documented features can be read, checked and retrained in a second. Only eval/train-pad.ts (and the
 * unit tests) use it; the server never trains.
 */
import { sigmoid } from '../src/lib/sigmoid.js';
import { solveSymmetricPositiveDefinite } from '../src/lib/linear-solve.js';

export interface LogisticFit {
  readonly weights: Float64Array;
  readonly bias: number;
  readonly iterations: number;
  readonly converged: boolean;
}

export interface LogisticOptions {
  /** L2 penalty λ on the weights (not the bias): the fit minimises −Σ log-likelihood + λ/2·|w|². */
  readonly l2: number;
  readonly maxIterations?: number;
  /** Stop when the largest Newton step on any parameter is below this. */
  readonly tolerance?: number;
}

/**
 * L2-regularised logistic regression by Newton's method (IRLS). The penalised objective is strictly
 * convex for λ > 0, so Newton converges from zero in a handful of steps; the step is halved while it
 * fails to lower the objective (only needed far from the optimum).
 *
 * @param x one row of features per example (already standardised: λ treats all weights alike), all of
 *   one length
 * @param y 1 for the positive class (live), 0 for the negative (spoof)
 * @example
 * const fit = fitLogistic(rows, labels, { l2: 1 });
 * const p = sigmoid(fit.bias + dot(fit.weights, row));
 * @throws {RangeError} when there are no rows, labels and rows differ in number, or rows differ in length
 */
export function fitLogistic(
  x: readonly ArrayLike<number>[],
  y: readonly number[],
  options: LogisticOptions,
): LogisticFit {
  const n = x.length;
  const [first] = x;
  if (first === undefined || y.length !== n)
    throw new RangeError('fitLogistic needs as many labels as rows, and at least one row');
  const d = first.length;
  if (x.some((row) => row.length !== d)) throw new RangeError('fitLogistic needs rows of one length');
  const m = d + 1; // parameters: weights, then bias
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-8;
  const theta = new Float64Array(m);
  // In bounds: i < n and j < d were checked above (so are the typed-array reads below).
  const row = (i: number, j: number): number => (j < d ? (x[i]?.[j] ?? 0) : 1);
  const label = (i: number): number => y[i] ?? 0;

  const objective = (t: Float64Array): number => {
    let loss = 0;
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < m; j++) z += (t[j] ?? 0) * row(i, j);
      // −log-likelihood, written stably: log(1 + e^z) − y·z
      loss += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - label(i) * z;
    }
    let penalty = 0;
    for (let j = 0; j < d; j++) {
      const w = t[j] ?? 0;
      penalty += w * w;
    }
    return loss + (options.l2 / 2) * penalty;
  };

  let current = objective(theta);
  let iterations = 0;
  let converged = false;
  const gradient = new Float64Array(m);
  const hessian = new Float64Array(m * m);
  while (iterations < maxIterations) {
    iterations++;
    gradient.fill(0);
    hessian.fill(0);
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < m; j++) z += (theta[j] ?? 0) * row(i, j);
      const p = sigmoid(z);
      const residual = p - label(i);
      const weight = Math.max(p * (1 - p), 1e-12);
      for (let j = 0; j < m; j++) {
        const xj = row(i, j);
        gradient[j] = (gradient[j] ?? 0) + residual * xj;
        for (let k = 0; k <= j; k++) hessian[j * m + k] = (hessian[j * m + k] ?? 0) + weight * xj * row(i, k);
      }
    }
    for (let j = 0; j < d; j++) {
      gradient[j] = (gradient[j] ?? 0) + options.l2 * (theta[j] ?? 0);
      hessian[j * m + j] = (hessian[j * m + j] ?? 0) + options.l2;
    }
    // Keeps the bias direction positive definite when a class is absent.
    hessian[(m - 1) * m + (m - 1)] = (hessian[(m - 1) * m + (m - 1)] ?? 0) + 1e-9;
    for (let j = 0; j < m; j++) for (let k = j + 1; k < m; k++) hessian[j * m + k] = hessian[k * m + j] ?? 0;
    const step = solveSymmetricPositiveDefinite(hessian, gradient, m);
    let scale = 1;
    let candidate = theta.map((t, j) => t - (step[j] ?? 0));
    let value = objective(candidate);
    while (value > current && scale > 1e-6) {
      scale /= 2;
      candidate = theta.map((t, j) => t - scale * (step[j] ?? 0));
      value = objective(candidate);
    }
    let largest = 0;
    for (let j = 0; j < m; j++) largest = Math.max(largest, Math.abs((candidate[j] ?? 0) - (theta[j] ?? 0)));
    theta.set(candidate);
    current = value;
    if (largest < tolerance) {
      converged = true;
      break;
    }
  }
  return { weights: theta.slice(0, d), bias: theta[d] ?? 0, iterations, converged };
}

export interface Standardiser {
  readonly mean: Float64Array;
  readonly std: Float64Array;
}

/**
 * Per-feature mean and standard deviation (a constant feature gets std 1, so it standardises to 0).
 *
 * @example
 * fitStandardiser([[1, 5], [3, 5]]); // { mean: [2, 5], std: [1, 1] }
 * @throws {RangeError} when the rows differ in length
 */
export function fitStandardiser(x: readonly ArrayLike<number>[]): Standardiser {
  const d = x[0]?.length ?? 0;
  if (x.some((row) => row.length !== d)) throw new RangeError('fitStandardiser needs rows of one length');
  const mean = new Float64Array(d);
  const std = new Float64Array(d);
  // In bounds: every row holds d values (so are the typed-array reads).
  for (const row of x) for (let j = 0; j < d; j++) mean[j] = (mean[j] ?? 0) + (row[j] ?? 0) / x.length;
  for (const row of x)
    for (let j = 0; j < d; j++) std[j] = (std[j] ?? 0) + ((row[j] ?? 0) - (mean[j] ?? 0)) ** 2 / x.length;
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j] ?? 0) > 1e-12 ? Math.sqrt(std[j] ?? 0) : 1;
  return { mean, std };
}

/**
 * A raw feature row standardised: (value − mean) / std per feature.
 *
 * @example
 * standardise([4, 5], fitStandardiser([[1, 5], [3, 5]])); // [2, 0]
 * @throws {RangeError} when the row and the standardiser differ in length
 */
export function standardise(row: ArrayLike<number>, s: Standardiser): Float64Array {
  if (s.mean.length !== row.length || s.std.length !== row.length)
    throw new RangeError(`expected ${s.mean.length} features, got ${row.length}`);
  const out = new Float64Array(row.length);
  for (let j = 0; j < row.length; j++) out[j] = ((row[j] ?? 0) - (s.mean[j] ?? 0)) / (s.std[j] ?? 0);
  return out;
}

/** A standardiser and logistic fit in one, trained on raw feature rows (1 = live, 0 = spoof). */
export interface TrainedPadWeights {
  readonly mean: number[];
  readonly std: number[];
  readonly weights: number[];
  readonly bias: number;
  readonly l2: number;
  readonly converged: boolean;
}

/**
 * Standardises the rows with their own mean and std and fits the logistic regression on them.
 *
 * @example
 * const weights = trainPadWeights(trainRows, trainLabels, 1);
 * const p = scoreWith(weights, testRow);
 */
export function trainPadWeights(x: readonly ArrayLike<number>[], y: readonly number[], l2: number): TrainedPadWeights {
  const s = fitStandardiser(x);
  const fit = fitLogistic(
    x.map((row) => standardise(row, s)),
    y,
    { l2 },
  );
  return {
    mean: [...s.mean],
    std: [...s.std],
    weights: [...fit.weights],
    bias: fit.bias,
    l2,
    converged: fit.converged,
  };
}
