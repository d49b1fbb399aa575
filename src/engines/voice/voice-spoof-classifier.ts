/**
 * The voice spoof classifier at run time, its parameters in voice-spoof-model.json (written by
 * eval/train-voice-spoof.ts). Two parts, added on the logit scale:
 *  - a logistic regression on the standardised features and their squares (the squares let one weight say
 *    "too far from bona fide either way": synthetic speech is drier than a live voice, a replay wetter);
 *  - a bona fide range check on the cues: the largest deviation of any cue from the bona fide centre, in
 *    bona fide spreads, lowers the logit by what exceeds a margin. It needs no attack examples, so it also
 *    stops an attack kind that training never saw when one of its cues is out of the live range.
 */
import { isFiniteNumber, isFiniteNumberArray, isRecord, isUnknownArray } from '../../lib/json-guards.js';
import { VOICE_SPOOF_FEATURE_NAMES, VOICE_SPOOF_FEATURE_VERSION } from './voice-spoof-features.js';
import modelJson from './voice-spoof-model.json' with { type: 'json' };

export const VOICE_SPOOF_MODEL_KIND = 'quadratic-logistic+cue-range';

/** The bona fide range check: per checked feature, a centre and a spread, and the margin (in spreads). */
export interface CueRange {
  /** Indices into the feature row of the features checked. */
  readonly features: readonly number[];
  readonly centre: readonly number[];
  readonly scale: readonly number[];
  readonly margin: number;
}

export interface VoiceSpoofModel {
  readonly kind: typeof VOICE_SPOOF_MODEL_KIND;
  readonly featureVersion: string;
  readonly featureNames: readonly string[];
  /** Standardisation of the raw features (bona fide training rows' mean and deviation). */
  readonly mean: readonly number[];
  readonly std: readonly number[];
  /** 2·d logit weights: the d standardised features, then their d squares. */
  readonly weights: readonly number[];
  readonly bias: number;
  readonly l2: number;
  readonly cueRange: CueRange;
  /**
   * P(live) of speaker-disjoint cross-validated bona fide and attack samples, ascending: what the security
   * levels' thresholds and `scoreFrr` are read from (voice-liveness-levels.ts).
   */
  readonly heldOutScores: { readonly live: readonly number[]; readonly spoof: readonly number[] };
  /** Data, command, date and the leave-one-attack-out figures (free-form, shown in docs/voice.md). */
  readonly provenance: Readonly<Record<string, unknown>>;
}

/**
 * The classifier's logit (log odds of live) for a raw feature row.
 *
 * @example
 * sigmoid(spoofLogit(loadVoiceSpoofModel(), voiceSpoofFeatures(samples, activity).row)); // P(live)
 * @throws {RangeError} when the row's length differs from the model's feature count
 */
export function spoofLogit(
  model: Pick<VoiceSpoofModel, 'mean' | 'std' | 'weights' | 'bias' | 'cueRange'>,
  row: ArrayLike<number>,
): number {
  const d = model.mean.length;
  if (row.length !== d) throw new RangeError(`expected ${d} voice spoof features, got ${row.length}`);
  let logit = model.bias;
  // In bounds: the model was checked to hold d means, d deviations and 2·d weights.
  for (let j = 0; j < d; j++) {
    const z = ((row[j] ?? 0) - (model.mean[j] ?? 0)) / (model.std[j] ?? 1);
    logit += (model.weights[j] ?? 0) * z + (model.weights[d + j] ?? 0) * z * z;
  }
  return logit - Math.max(0, cueRangeDeviation(model.cueRange, row) - model.cueRange.margin);
}

/**
 * The largest deviation of a checked feature from its bona fide centre, in bona fide spreads.
 *
 * @example
 * cueRangeDeviation({ features: [0], centre: [1], scale: [2], margin: 3 }, [7]); // 3
 */
export function cueRangeDeviation(range: Omit<CueRange, 'margin'>, row: ArrayLike<number>): number {
  let worst = 0;
  range.features.forEach((index, k) => {
    worst = Math.max(worst, Math.abs((row[index] ?? 0) - (range.centre[k] ?? 0)) / (range.scale[k] ?? 1));
  });
  return worst;
}

let loaded: VoiceSpoofModel | undefined;

/**
 * The shipped model (voice-spoof-model.json), checked against this build's feature definitions.
 *
 * @example
 * loadVoiceSpoofModel().heldOutScores.live.length; // bona fide samples the thresholds are read from
 * @throws {Error} when the file is malformed or was trained on another feature version or list
 */
export function loadVoiceSpoofModel(): VoiceSpoofModel {
  if (loaded) return loaded;
  const model = parseVoiceSpoofModel(modelJson, 'voice-spoof-model.json');
  if (model.featureVersion !== VOICE_SPOOF_FEATURE_VERSION)
    throw new Error(
      `voice-spoof-model.json was trained on ${model.featureVersion}, this build computes ${VOICE_SPOOF_FEATURE_VERSION}: retrain it (npm run eval -- train-voice-spoof)`,
    );
  const names = VOICE_SPOOF_FEATURE_NAMES;
  if (model.featureNames.length !== names.length || model.featureNames.some((name, i) => name !== names[i]))
    throw new Error('voice-spoof-model.json names other features than this build computes: retrain it');
  loaded = model;
  return model;
}

/**
 * Checks a voice spoof model read from JSON and returns it typed: every field present and of its type,
 * vectors of matching lengths, deviations positive, feature indices in range, held-out scores ascending
 * probabilities.
 *
 * @param origin names the file in the error
 * @example
 * const model = parseVoiceSpoofModel(JSON.parse(readFileSync(path, 'utf8')), path);
 * @throws {Error} naming `origin` and the first thing wrong with it
 */
export function parseVoiceSpoofModel(json: unknown, origin: string): VoiceSpoofModel {
  const malformed = (what: string): Error =>
    new Error(
      `${origin} is not a valid voice spoof model: ${what} (retrain it with npm run eval -- train-voice-spoof)`,
    );
  if (!isRecord(json)) throw malformed('not a JSON object');
  const { kind, featureVersion, featureNames, mean, std, weights, bias, l2, cueRange, heldOutScores, provenance } =
    json;
  if (kind !== VOICE_SPOOF_MODEL_KIND) throw malformed(`\`kind\` is not ${VOICE_SPOOF_MODEL_KIND}`);
  if (typeof featureVersion !== 'string') throw malformed('`featureVersion` is not a string');
  if (!isUnknownArray(featureNames) || !featureNames.every((name) => typeof name === 'string'))
    throw malformed('`featureNames` is not an array of strings');
  const names = featureNames.filter((name): name is string => typeof name === 'string');
  const d = names.length;
  if (!isFiniteNumberArray(mean) || !isFiniteNumberArray(std) || !isFiniteNumberArray(weights))
    throw malformed('`mean`, `std` or `weights` is not an array of finite numbers');
  if (mean.length !== d || std.length !== d || weights.length !== 2 * d)
    throw malformed('`mean` and `std` need one value per feature, `weights` two');
  if (std.some((s) => s <= 0)) throw malformed('`std` holds a deviation that is not positive');
  if (!isFiniteNumber(bias) || !isFiniteNumber(l2)) throw malformed('`bias` or `l2` is not a finite number');
  if (!isRecord(cueRange)) throw malformed('`cueRange` is not an object');
  const { features, centre, scale, margin } = cueRange;
  if (!isFiniteNumberArray(features) || !features.every((i) => Number.isInteger(i) && i >= 0 && i < d))
    throw malformed('`cueRange.features` is not an array of feature indices');
  if (!isFiniteNumberArray(centre) || !isFiniteNumberArray(scale) || !isFiniteNumber(margin))
    throw malformed('`cueRange.centre`, `.scale` or `.margin` is not numeric');
  if (centre.length !== features.length || scale.length !== features.length || scale.some((s) => s <= 0))
    throw malformed('`cueRange` needs one centre and one positive scale per checked feature');
  if (!isRecord(heldOutScores)) throw malformed('`heldOutScores` is not an object');
  const { live, spoof } = heldOutScores;
  if (!isAscendingProbabilities(live) || !isAscendingProbabilities(spoof) || live.length === 0)
    throw malformed('`heldOutScores.live` or `.spoof` is not an ascending (non-empty) array of numbers in 0..1');
  if (!isRecord(provenance)) throw malformed('`provenance` is not an object');
  return {
    kind,
    featureVersion,
    featureNames: names,
    mean,
    std,
    weights,
    bias,
    l2,
    cueRange: { features, centre, scale, margin },
    heldOutScores: { live, spoof },
    provenance,
  };
}

function isAscendingProbabilities(value: unknown): value is readonly number[] {
  return isFiniteNumberArray(value) && value.every((p, i) => p >= 0 && p <= 1 && (i === 0 || (value[i - 1] ?? p) <= p));
}
