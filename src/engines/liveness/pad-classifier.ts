/**
 * The presentation-attack classifier: per-feature standardisation followed by L2-regularised logistic
 * regression, fitted by Newton's method (iteratively reweighted least squares) with a hand-written
 * Cholesky solve. Small on purpose: the training set is a few hundred images of a dozen people, and
 * a linear model over documented features can be read, checked and retrained in a second.
 */
import { PAD_FEATURE_NAMES, PAD_FEATURE_VERSION } from './pad-features.js';
import modelJson from './pad-model.json' with { type: 'json' };
import { solveSymmetricPositiveDefinite } from '../../lib/linear-solve.js';

/** Where the shipped weights came from and how well they did on people they were not trained on. */
export interface PadModelProvenance {
  readonly dataset: string;
  /** The person ids (identity column) whose images trained the final model. */
  readonly trainingPersons: readonly string[];
  readonly trainingImages: { readonly live: number; readonly spoof: number; readonly noFace: number };
  readonly command: string;
  readonly date: string;
  /** Held-out (leave-persons-out cross-validated) figures; see reports/pad-train.md. */
  readonly heldOut: Readonly<Record<string, unknown>>;
  readonly notes?: readonly string[];
}

export interface PadModel {
  readonly kind: 'standardised-logistic-regression';
  readonly featureVersion: string;
  readonly featureNames: readonly string[];
  /** Per-feature mean and standard deviation the features are standardised with. */
  readonly mean: readonly number[];
  readonly std: readonly number[];
  /** Logit weights on the standardised features; P(live) = σ(bias + w·z). */
  readonly weights: readonly number[];
  readonly bias: number;
  /** The L2 penalty it was fitted with. */
  readonly l2: number;
  readonly provenance: PadModelProvenance;
  /**
   * Cross-validated P(live) of every held-out face (each scored by a model that never saw its
   * person), ascending: the bona fide and attack distributions that liveness thresholds and
   * `score_frr` are read from.
   */
  readonly heldOutScores: { readonly live: readonly number[]; readonly spoof: readonly number[] };
}

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
 * @param x one row of features per example (already standardised: λ treats all weights alike)
 * @param y 1 for the positive class (live), 0 for the negative (spoof)
 * @example
 * const fit = fitLogistic(rows, labels, { l2: 1 });
 * const p = sigmoid(fit.bias + dot(fit.weights, row));
 */
export function fitLogistic(
  x: readonly ArrayLike<number>[],
  y: readonly number[],
  options: LogisticOptions,
): LogisticFit {
  const n = x.length;
  if (n === 0 || y.length !== n) throw new RangeError('fitLogistic needs as many labels as rows, and at least one row');
  const d = x[0]!.length;
  const m = d + 1; // parameters: weights, then bias
  const maxIterations = options.maxIterations ?? 50;
  const tolerance = options.tolerance ?? 1e-8;
  const theta = new Float64Array(m);
  const row = (i: number, j: number): number => (j < d ? x[i]![j]! : 1);

  const objective = (t: Float64Array): number => {
    let loss = 0;
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < m; j++) z += t[j]! * row(i, j);
      // −log-likelihood, written stably: log(1 + e^z) − y·z
      loss += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - y[i]! * z;
    }
    let penalty = 0;
    for (let j = 0; j < d; j++) penalty += t[j]! * t[j]!;
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
      for (let j = 0; j < m; j++) z += theta[j]! * row(i, j);
      const p = sigmoid(z);
      const residual = p - y[i]!;
      const weight = Math.max(p * (1 - p), 1e-12);
      for (let j = 0; j < m; j++) {
        const xj = row(i, j);
        gradient[j]! += residual * xj;
        for (let k = 0; k <= j; k++) hessian[j * m + k]! += weight * xj * row(i, k);
      }
    }
    for (let j = 0; j < d; j++) {
      gradient[j]! += options.l2 * theta[j]!;
      hessian[j * m + j]! += options.l2;
    }
    hessian[(m - 1) * m + (m - 1)]! += 1e-9; // keeps the bias direction positive definite when a class is absent
    for (let j = 0; j < m; j++) for (let k = j + 1; k < m; k++) hessian[j * m + k] = hessian[k * m + j]!;
    const step = solveSymmetricPositiveDefinite(hessian, gradient, m);
    let scale = 1;
    let candidate = theta.map((t, j) => t - step[j]!);
    let value = objective(candidate);
    while (value > current && scale > 1e-6) {
      scale /= 2;
      candidate = theta.map((t, j) => t - scale * step[j]!);
      value = objective(candidate);
    }
    let largest = 0;
    for (let j = 0; j < m; j++) largest = Math.max(largest, Math.abs(candidate[j]! - theta[j]!));
    theta.set(candidate);
    current = value;
    if (largest < tolerance) {
      converged = true;
      break;
    }
  }
  return { weights: theta.slice(0, d), bias: theta[d]!, iterations, converged };
}

export interface Standardiser {
  readonly mean: Float64Array;
  readonly std: Float64Array;
}

/** Per-feature mean and standard deviation (a constant feature gets std 1, so it standardises to 0). */
export function fitStandardiser(x: readonly ArrayLike<number>[]): Standardiser {
  const d = x[0]?.length ?? 0;
  const mean = new Float64Array(d);
  const std = new Float64Array(d);
  for (const row of x) for (let j = 0; j < d; j++) mean[j]! += row[j]! / x.length;
  for (const row of x) for (let j = 0; j < d; j++) std[j]! += (row[j]! - mean[j]!) ** 2 / x.length;
  for (let j = 0; j < d; j++) std[j] = Math.sqrt(std[j]!) > 1e-12 ? Math.sqrt(std[j]!) : 1;
  return { mean, std };
}

export function standardise(
  row: ArrayLike<number>,
  s: { readonly mean: ArrayLike<number>; readonly std: ArrayLike<number> },
): Float64Array {
  const out = new Float64Array(row.length);
  for (let j = 0; j < row.length; j++) out[j] = (row[j]! - s.mean[j]!) / s.std[j]!;
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

/** P(positive class) of a raw feature row under standardisation + logistic weights. */
export function scoreWith(
  model: {
    readonly mean: ArrayLike<number>;
    readonly std: ArrayLike<number>;
    readonly weights: ArrayLike<number>;
    readonly bias: number;
  },
  features: ArrayLike<number>,
): number {
  if (features.length !== model.weights.length)
    throw new RangeError(`expected ${model.weights.length} PAD features, got ${features.length}`);
  let z = model.bias;
  for (let j = 0; j < features.length; j++) z += model.weights[j]! * ((features[j]! - model.mean[j]!) / model.std[j]!);
  return sigmoid(z);
}

export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

let loaded: PadModel | undefined;

/**
 * The shipped PAD model (src/engines/liveness/pad-model.json, written by `eval/train-pad.ts`), checked
 * against the feature definitions of this build.
 *
 * @throws {Error} when the file was trained on another feature version or feature list
 */
export function loadPadModel(): PadModel {
  if (loaded) return loaded;
  const model = modelJson as unknown as PadModel;
  if (model.featureVersion !== PAD_FEATURE_VERSION) {
    throw new Error(
      `pad-model.json was trained on ${model.featureVersion}, this build computes ${PAD_FEATURE_VERSION}: retrain it (eval/train-pad.ts)`,
    );
  }
  const d = PAD_FEATURE_NAMES.length;
  if (model.featureNames.length !== d || model.featureNames.some((name, i) => name !== PAD_FEATURE_NAMES[i])) {
    throw new Error('pad-model.json names other features than padFeatures computes: retrain it (eval/train-pad.ts)');
  }
  if (model.weights.length !== d || model.mean.length !== d || model.std.length !== d)
    throw new Error('pad-model.json: weight vectors do not match its feature list');
  loaded = model;
  return model;
}

/**
 * P(live) in 0..1 of a face's PAD features (from `padFeatures`) under the shipped model, or a model
 * given explicitly. Not calibrated on the target population: pick operating thresholds from the
 * held-out figures in the model's provenance, not from 0.5.
 *
 * @example
 * const pLive = padScore(padFeatures(image, face));
 */
export function padScore(features: ArrayLike<number>, model: PadModel = loadPadModel()): number {
  return scoreWith(model, features);
}
