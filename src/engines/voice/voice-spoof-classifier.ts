/**
 * The voice spoof classifier at run time, its parameters in voice-spoof-model.json (written by
 * eval/train-voice-spoof.ts). Five member models (voice-spoof-features/9: VOICE_SPOOF_MEMBERS): one per frequency
 * sub-band, on that band's cepstral statistics and the 20 named cues, so that an artefact confined to one band
 * is weighed by a model that sees that band alone (spoof-cues/subband-cepstra.ts), and two on the statistics
 * of the voice activity model's learnt representations (its decoder's activations; its first LSTM layer's
 * outputs) and the same cues (features/vad-activation-statistics.ts).
 * Since the twentieth session the five members are trained twice, once against synthetic speech and once
 * against replays (VOICE_SPOOF_GROUPS), and the sample's logit is the lesser of the two groups' mean member
 * logits: an attack is caught when either group finds it, where one model trained against every kind at once
 * adds the evidence up, so that what a replay keeps of live speech can outweigh its loudspeaker
 * (docs/voice.md, "Two groups of members"). Each member model has three parts, added on the logit scale:
 *  - a logistic regression on the standardised features, clipped to ±`clip` bona fide deviations, and their
 *    squares (the squares let one weight say "too far from bona fide either way": synthetic speech is drier
 *    than a live voice, a replay wetter; the clip bounds what one feature far outside anything trained on can
 *    add, so that an unseen attack kind's extreme value cannot swing the logit through a weight learned on
 *    other kinds);
 *  - a bona fide range check on the cues: the largest deviation of any cue from the bona fide centre, in
 *    bona fide spreads, lowers the logit by what exceeds a margin. It needs no attack examples, so it also
 *    stops an attack kind that training never saw when one of its cues is out of the live range;
 *  - a bona fide density check on the cues jointly: the Mahalanobis distance of the standardised cues from
 *    the bona fide mean (shrunk covariance of the bona fide training rows) lowers the logit by `gain` per
 *    unit beyond a margin. An attack can sit inside the live range on every cue alone and still be far from
 *    live speech in how its cues go together; this term, too, needs no attack example.
 */
import { isFiniteNumber, isFiniteNumberArray, isRecord, isUnknownArray } from '../../lib/json-guards.js';
import { VOICE_SPOOF_MEMBERS, VOICE_SPOOF_FEATURE_NAMES, VOICE_SPOOF_FEATURE_VERSION } from './voice-spoof-features.js';
import modelJson from './voice-spoof-model.json' with { type: 'json' };

export const VOICE_SPOOF_MODEL_KIND =
  'group-min(member-mean-logit(subbands+vad-activations+vad-first-layer:clipped-quadratic-logistic+cue-range+cue-density))';

/**
 * The member groups, in the model file's order: each holds the five VOICE_SPOOF_MEMBERS, trained against
 * synthetic speech (TTS engines and vocoded bona fide) or against replays (eval/train-voice-spoof.ts).
 */
export const VOICE_SPOOF_GROUPS = ['synthesis', 'replay'] as const;

/** The bona fide range check: per checked feature, a centre and a spread, and the margin (in spreads). */
export interface CueRange {
  /** Indices into the (member model's) feature row of the features checked. */
  readonly features: readonly number[];
  readonly centre: readonly number[];
  readonly scale: readonly number[];
  readonly margin: number;
}

/**
 * The bona fide density check: a Gaussian over the standardised checked features (z = (x − mean) / std with
 * the model's standardiser, not clipped), given by its mean and precision (inverse shrunk covariance).
 */
export interface CueDensity {
  /** Indices into the feature row of the features checked (m of them). */
  readonly features: readonly number[];
  /** Bona fide mean of their standardised values (m). */
  readonly centre: readonly number[];
  /** m×m precision matrix, row-major, symmetric. */
  readonly precision: readonly number[];
  /** Distance the logit is not lowered below (a high quantile of cross-fitted bona fide distances). */
  readonly margin: number;
  /** Logit lowered per unit of distance beyond the margin. */
  readonly gain: number;
}

/**
 * One member of the fusion: a classifier over `columns` of the feature row (its band's statistics or one
 * block of VAD statistics, and the cues); every other index in it (cueRange, cueDensity, the vectors' order)
 * refers to that sub-row.
 */
export interface VoiceSpoofMemberModel {
  readonly name: string;
  /** The group it belongs to (VOICE_SPOOF_GROUPS); members without one form a single group. */
  readonly group?: string;
  /** Indices into the full feature row, in the order of this model's features. */
  readonly columns: readonly number[];
  /** Standardisation of the raw features (bona fide training rows' mean and deviation). */
  readonly mean: readonly number[];
  readonly std: readonly number[];
  /** Standardised features are clipped to ±clip before the logistic part. */
  readonly clip: number;
  /** 2·d logit weights: the d standardised (clipped) features, then their d squares. */
  readonly weights: readonly number[];
  readonly bias: number;
  readonly l2: number;
  readonly cueRange: CueRange;
  readonly cueDensity: CueDensity;
}

/** What scoring a member needs (a trained member model before it is written to the model file). */
export type MemberScorer = Pick<
  VoiceSpoofMemberModel,
  'group' | 'columns' | 'mean' | 'std' | 'clip' | 'weights' | 'bias' | 'cueRange' | 'cueDensity'
>;

export interface VoiceSpoofModel {
  readonly kind: typeof VOICE_SPOOF_MODEL_KIND;
  readonly featureVersion: string;
  readonly featureNames: readonly string[];
  /** The member models, group by group; the logit is the least group's mean of theirs (fusedSpoofLogit). */
  readonly members: readonly VoiceSpoofMemberModel[];
  /**
   * P(live) (of the fused logit) of speaker-disjoint cross-validated bona fide and attack samples, ascending:
   * what the security levels' thresholds and `scoreFrr` are read from (voice-liveness-levels.ts).
   */
  readonly heldOutScores: { readonly live: readonly number[]; readonly spoof: readonly number[] };
  /** Data, command, date and the leave-one-attack-out figures (free-form, shown in docs/voice.md). */
  readonly provenance: Readonly<Record<string, unknown>>;
}

/**
 * The classifier's logit (log odds of live) for a full feature row: per group of members (their `group`;
 * members without one are one group), the mean of the member models' logits, each on its own columns of the
 * row; the least of those means.
 *
 * @example
 * sigmoid(fusedSpoofLogit(loadVoiceSpoofModel(), voiceSpoofFeatures(samples, activity).row)); // P(live)
 * @throws {RangeError} when the row is too short for a member's columns
 */
export function fusedSpoofLogit(model: { readonly members: readonly MemberScorer[] }, row: ArrayLike<number>): number {
  const d = Math.max(0, ...model.members.flatMap((member) => member.columns)) + 1;
  if (row.length < d) throw new RangeError(`expected ${d} or more voice spoof features, got ${row.length}`);
  const groups = new Map<string | undefined, { total: number; count: number }>();
  for (const member of model.members) {
    const group = groups.get(member.group) ?? { total: 0, count: 0 };
    group.total += spoofLogit(member, memberRow(member.columns, row));
    group.count++;
    groups.set(member.group, group);
  }
  let least = Infinity;
  for (const { total, count } of groups.values()) least = Math.min(least, total / count);
  return Number.isFinite(least) ? least : 0;
}

/**
 * A member model's sub-row: the full row's values at `columns`, in that order.
 *
 * @example
 * memberRow([2, 0], [5, 6, 7]); // [7, 5]
 */
export function memberRow(columns: readonly number[], row: ArrayLike<number>): number[] {
  return columns.map((index) => row[index] ?? 0);
}

/**
 * One member model's logit for its own sub-row (memberRow).
 *
 * @example
 * spoofLogit(model.members[0], memberRow(model.members[0].columns, row));
 * @throws {RangeError} when the row's length differs from the model's feature count
 */
export function spoofLogit(
  model: Pick<VoiceSpoofMemberModel, 'mean' | 'std' | 'clip' | 'weights' | 'bias' | 'cueRange' | 'cueDensity'>,
  row: ArrayLike<number>,
): number {
  const d = model.mean.length;
  if (row.length !== d) throw new RangeError(`expected ${d} voice spoof features, got ${row.length}`);
  let logit = model.bias;
  // In bounds: the model was checked to hold d means, d deviations and 2·d weights.
  for (let j = 0; j < d; j++) {
    const z = Math.max(-model.clip, Math.min(model.clip, ((row[j] ?? 0) - (model.mean[j] ?? 0)) / (model.std[j] ?? 1)));
    logit += (model.weights[j] ?? 0) * z + (model.weights[d + j] ?? 0) * z * z;
  }
  const { cueRange, cueDensity } = model;
  logit -= Math.max(0, cueRangeDeviation(cueRange, row) - cueRange.margin);
  return logit - cueDensity.gain * Math.max(0, cueDensityDistance(model, row) - cueDensity.margin);
}

/**
 * The Mahalanobis distance of a row's standardised checked features from the bona fide centre.
 *
 * @example
 * const density = { features: [0, 1], centre: [0, 0], precision: [1, 0, 0, 1], margin: 0, gain: 1 };
 * cueDensityDistance({ mean: [0, 0], std: [1, 1], cueDensity: density }, [3, 4]); // 5
 */
export function cueDensityDistance(
  model: Pick<VoiceSpoofMemberModel, 'mean' | 'std' | 'cueDensity'>,
  row: ArrayLike<number>,
): number {
  const { features, centre, precision } = model.cueDensity;
  const m = features.length;
  // In bounds: the model was checked to hold m centres, an m×m precision and feature indices below d.
  const v = features.map(
    (index, k) => ((row[index] ?? 0) - (model.mean[index] ?? 0)) / (model.std[index] ?? 1) - (centre[k] ?? 0),
  );
  let squared = 0;
  for (let i = 0; i < m; i++) {
    let dot = 0;
    for (let k = 0; k < m; k++) dot += (precision[i * m + k] ?? 0) * (v[k] ?? 0);
    squared += (v[i] ?? 0) * dot;
  }
  return Math.sqrt(Math.max(0, squared));
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
  const members = VOICE_SPOOF_GROUPS.flatMap((group) => VOICE_SPOOF_MEMBERS.map((member) => ({ ...member, group })));
  const sameColumns = (a: readonly number[], b: readonly number[]): boolean =>
    a.length === b.length && a.every((index, i) => index === b[i]);
  if (
    model.members.length !== members.length ||
    model.members.some(
      (member, m) =>
        member.name !== members[m]?.name ||
        member.group !== members[m]?.group ||
        !sameColumns(member.columns, members[m]?.columns ?? []),
    )
  )
    throw new Error('voice-spoof-model.json has other member models than this build defines: retrain it');
  loaded = model;
  return model;
}

/**
 * Checks a voice spoof model read from JSON and returns it typed: every field, and every member model's
 * field, present and of its type, a member's columns indices into the feature row, its vectors of matching
 * lengths, deviations positive, its cue indices in its own row, held-out scores ascending probabilities.
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
  const { kind, featureVersion, featureNames, members, heldOutScores, provenance } = json;
  if (kind !== VOICE_SPOOF_MODEL_KIND) throw malformed(`\`kind\` is not ${VOICE_SPOOF_MODEL_KIND}`);
  if (typeof featureVersion !== 'string') throw malformed('`featureVersion` is not a string');
  if (!isUnknownArray(featureNames) || !featureNames.every((name) => typeof name === 'string'))
    throw malformed('`featureNames` is not an array of strings');
  const names = featureNames.filter((name): name is string => typeof name === 'string');
  if (!isUnknownArray(members) || members.length === 0) throw malformed('`members` is not a non-empty array');
  const parsedMembers: VoiceSpoofMemberModel[] = [];
  for (const [m, member] of members.entries()) {
    const parsed = parseMemberModel(member, names.length);
    if (typeof parsed === 'string') throw malformed(`members[${m}]: ${parsed}`);
    parsedMembers.push(parsed);
  }
  if (!isRecord(heldOutScores)) throw malformed('`heldOutScores` is not an object');
  const { live, spoof } = heldOutScores;
  if (!isAscendingProbabilities(live) || !isAscendingProbabilities(spoof) || live.length === 0)
    throw malformed('`heldOutScores.live` or `.spoof` is not an ascending (non-empty) array of numbers in 0..1');
  if (!isRecord(provenance)) throw malformed('`provenance` is not an object');
  return {
    kind,
    featureVersion,
    featureNames: names,
    members: parsedMembers,
    heldOutScores: { live, spoof },
    provenance,
  };
}

/** One checked member model over a row of `rowLength` features, or what is wrong with it. */
function parseMemberModel(json: unknown, rowLength: number): VoiceSpoofMemberModel | string {
  if (!isRecord(json)) return 'not an object';
  const { name, group, columns, mean, std, clip, weights, bias, l2, cueRange, cueDensity } = json;
  if (typeof name !== 'string') return '`name` is not a string';
  if (group !== undefined && typeof group !== 'string') return '`group` is not a string';
  if (
    !isFiniteNumberArray(columns) ||
    columns.length === 0 ||
    !columns.every((i) => Number.isInteger(i) && i >= 0 && i < rowLength)
  )
    return '`columns` is not a non-empty array of feature indices';
  const d = columns.length;
  if (!isFiniteNumberArray(mean) || !isFiniteNumberArray(std) || !isFiniteNumberArray(weights))
    return '`mean`, `std` or `weights` is not an array of finite numbers';
  if (mean.length !== d || std.length !== d || weights.length !== 2 * d)
    return '`mean` and `std` need one value per feature, `weights` two';
  if (std.some((s) => s <= 0)) return '`std` holds a deviation that is not positive';
  if (!isFiniteNumber(bias) || !isFiniteNumber(l2)) return '`bias` or `l2` is not a finite number';
  if (!isFiniteNumber(clip) || clip <= 0) return '`clip` is not a positive number';
  if (!isRecord(cueRange)) return '`cueRange` is not an object';
  const { features, centre, scale, margin } = cueRange;
  if (!isFiniteNumberArray(features) || !features.every((i) => Number.isInteger(i) && i >= 0 && i < d))
    return '`cueRange.features` is not an array of feature indices';
  if (!isFiniteNumberArray(centre) || !isFiniteNumberArray(scale) || !isFiniteNumber(margin))
    return '`cueRange.centre`, `.scale` or `.margin` is not numeric';
  if (centre.length !== features.length || scale.length !== features.length || scale.some((s) => s <= 0))
    return '`cueRange` needs one centre and one positive scale per checked feature';
  const density = parseCueDensity(cueDensity, d);
  if (typeof density === 'string') return density;
  return {
    name,
    ...(group === undefined ? {} : { group }),
    columns,
    mean,
    std,
    clip,
    weights,
    bias,
    l2,
    cueRange: { features, centre, scale, margin },
    cueDensity: density,
  };
}

/** The checked cue density, or what is wrong with it. */
function parseCueDensity(json: unknown, d: number): CueDensity | string {
  if (!isRecord(json)) return '`cueDensity` is not an object';
  const { features, centre, precision, margin, gain } = json;
  if (!isFiniteNumberArray(features) || !features.every((i) => Number.isInteger(i) && i >= 0 && i < d))
    return '`cueDensity.features` is not an array of feature indices';
  const m = features.length;
  if (!isFiniteNumberArray(centre) || centre.length !== m) return '`cueDensity.centre` needs one number per feature';
  if (!isFiniteNumberArray(precision) || precision.length !== m * m)
    return '`cueDensity.precision` is not an m×m array of numbers (m checked features)';
  for (let i = 0; i < m; i++) {
    if (!((precision[i * m + i] ?? 0) > 0)) return '`cueDensity.precision` has a diagonal entry that is not positive';
    for (let k = 0; k < i; k++)
      if (precision[i * m + k] !== precision[k * m + i]) return '`cueDensity.precision` is not symmetric';
  }
  if (!isFiniteNumber(margin) || margin < 0 || !isFiniteNumber(gain) || gain < 0)
    return '`cueDensity.margin` or `.gain` is not a non-negative number';
  return { features, centre, precision, margin, gain };
}

function isAscendingProbabilities(value: unknown): value is readonly number[] {
  return isFiniteNumberArray(value) && value.every((p, i) => p >= 0 && p <= 1 && (i === 0 || (value[i - 1] ?? p) <= p));
}
