/**
 * The presentation-attack classifier at run time: per-feature standardisation followed by a logistic
 * regression, with the weights shipped in pad-model.json. Training (eval/pad-training.ts, run by
 * eval/train-pad.ts) is not part of the server.
 */
import { isFiniteNumber, isFiniteNumberArray, isRecord, isUnknownArray } from '../../lib/json-guards.js';
import { sigmoid } from '../../lib/sigmoid.js';
import { PAD_FEATURE_NAMES, PAD_FEATURE_VERSION } from './pad-features.js';
import modelJson from './pad-model.json' with { type: 'json' };

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

/**
 * P(positive class) of a raw feature row under standardisation + logistic weights.
 *
 * @example
 * scoreWith({ mean: [1], std: [2], weights: [3], bias: 0 }, [1]); // 0.5: the row sits at the mean
 * @throws {RangeError} when the row, the weights, the means and the deviations differ in length
 */
export function scoreWith(
  model: {
    readonly mean: ArrayLike<number>;
    readonly std: ArrayLike<number>;
    readonly weights: ArrayLike<number>;
    readonly bias: number;
  },
  features: ArrayLike<number>,
): number {
  const { mean, std, weights } = model;
  if (features.length !== weights.length)
    throw new RangeError(`expected ${weights.length} PAD features, got ${features.length}`);
  if (mean.length !== weights.length || std.length !== weights.length)
    throw new RangeError('a PAD model needs one mean and one deviation per weight');
  let z = model.bias;
  // In bounds: all four lengths are equal (so the `?? 0` never fires).
  for (let j = 0; j < features.length; j++)
    z += (weights[j] ?? 0) * (((features[j] ?? 0) - (mean[j] ?? 0)) / (std[j] ?? 0));
  return sigmoid(z);
}

let loaded: PadModel | undefined;

/**
 * The shipped PAD model (src/engines/liveness/pad-model.json, written by `eval/train-pad.ts`), checked
 * against the feature definitions of this build.
 *
 * @example
 * const { heldOutScores } = loadPadModel();
 * @throws {Error} when the file is malformed or was trained on another feature version or feature list
 */
export function loadPadModel(): PadModel {
  if (loaded) return loaded;
  const model = parsePadModel(modelJson, 'pad-model.json');
  if (model.featureVersion !== PAD_FEATURE_VERSION) {
    throw new Error(
      `pad-model.json was trained on ${model.featureVersion}, this build computes ${PAD_FEATURE_VERSION}: ` +
        'retrain it (eval/train-pad.ts)',
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
 * Checks a PAD model read from JSON (the shape eval/train-pad.ts writes) and returns it typed: every field
 * present and of its type, the numbers finite, the held-out scores ascending P(live) values (the order
 * pad-calibration.ts reads thresholds in). Whether the features match this build is loadPadModel's check.
 *
 * @param origin names the file in the error
 * @example
 * const model = parsePadModel(JSON.parse(readFileSync(path, 'utf8')), path);
 * @throws {Error} naming `origin` and the first thing wrong with it
 */
export function parsePadModel(json: unknown, origin: string): PadModel {
  const malformed = (what: string): Error =>
    new Error(`${origin} is not a valid PAD model: ${what} (retrain it with eval/train-pad.ts)`);
  if (!isRecord(json)) throw malformed('not a JSON object');
  const { kind, featureVersion, featureNames, mean, std, weights, bias, l2, provenance, heldOutScores } = json;
  if (kind !== 'standardised-logistic-regression') throw malformed('`kind` is not standardised-logistic-regression');
  if (typeof featureVersion !== 'string') throw malformed('`featureVersion` is not a string');
  if (!isStringArray(featureNames)) throw malformed('`featureNames` is not an array of strings');
  if (!isFiniteNumberArray(mean) || !isFiniteNumberArray(std) || !isFiniteNumberArray(weights))
    throw malformed('`mean`, `std` or `weights` is not an array of finite numbers');
  if (std.some((s) => s <= 0)) throw malformed('`std` holds a deviation that is not positive');
  if (!isFiniteNumber(bias) || !isFiniteNumber(l2)) throw malformed('`bias` or `l2` is not a finite number');
  if (!isRecord(heldOutScores)) throw malformed('`heldOutScores` is not an object');
  const { live, spoof } = heldOutScores;
  if (!isAscendingProbabilities(live) || !isAscendingProbabilities(spoof))
    throw malformed('`heldOutScores.live` or `.spoof` is not an ascending array of numbers in 0..1');
  return {
    kind,
    featureVersion,
    featureNames,
    mean,
    std,
    weights,
    bias,
    l2,
    provenance: parseProvenance(provenance, malformed),
    heldOutScores: { live, spoof },
  };
}

function parseProvenance(json: unknown, malformed: (what: string) => Error): PadModelProvenance {
  if (!isRecord(json)) throw malformed('`provenance` is not an object');
  const { dataset, trainingPersons, trainingImages, command, date, heldOut, notes } = json;
  if (typeof dataset !== 'string' || typeof command !== 'string' || typeof date !== 'string')
    throw malformed('`provenance` lacks a string `dataset`, `command` or `date`');
  if (!isStringArray(trainingPersons)) throw malformed('`provenance.trainingPersons` is not an array of strings');
  if (!isRecord(trainingImages)) throw malformed('`provenance.trainingImages` is not an object');
  const { live, spoof, noFace } = trainingImages;
  if (!isCount(live) || !isCount(spoof) || !isCount(noFace))
    throw malformed('`provenance.trainingImages` lacks a count of `live`, `spoof` or `noFace` images');
  if (!isRecord(heldOut)) throw malformed('`provenance.heldOut` is not an object');
  if (notes !== undefined && !isStringArray(notes)) throw malformed('`provenance.notes` is not an array of strings');
  return {
    dataset,
    trainingPersons,
    trainingImages: { live, spoof, noFace },
    command,
    date,
    heldOut,
    ...(notes === undefined ? {} : { notes }),
  };
}

function isCount(value: unknown): value is number {
  return isFiniteNumber(value) && Number.isInteger(value) && value >= 0;
}

function isStringArray(value: unknown): value is readonly string[] {
  return isUnknownArray(value) && value.every((item) => typeof item === 'string');
}

function isAscendingProbabilities(value: unknown): value is readonly number[] {
  return isFiniteNumberArray(value) && value.every((p, i) => p >= 0 && p <= 1 && (i === 0 || (value[i - 1] ?? p) <= p));
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
