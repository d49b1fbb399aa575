/**
 * The trained parameters of the speaker templates (speaker-model.json, written by `npm run eval -- train-voice`),
 * checked field by field when loaded: a malformed or mismatched file stops the server at start.
 */
import { isFiniteNumber, isFiniteNumberArray, isRecord } from '../../lib/json-guards.js';
import type { DiagonalGmm } from './diagonal-gmm.js';
import { statisticsDimensions } from './speaker-features.js';
import modelJson from './speaker-model.json' with { type: 'json' };

/** The file format this build reads (2: with the score-normalisation cohort). */
export const SPEAKER_MODEL_FORMAT = 'veriport-speaker-model/2';
/**
 * The front end this build computes (speaker-features.ts); a model trained on another is refused. Bump it with
 * any change to the features, then retrain.
 */
export const SPEAKER_FEATURE_VERSION = 'mfcc20-delta-stats/1';

/** Front-end settings the model was trained with (and the run-time features must use). */
export interface SpeakerFeatureSettings {
  readonly coefficients: number;
  readonly filters: number;
  readonly lowHz: number;
  readonly highHz: number;
  readonly deltaWindow: number;
  /** Frames more than this many dB below the loud frames are dropped (feature-matrix.ts `energeticFrames`). */
  readonly energyRangeDb: number;
}

/** `y = matrix · (x − mean)`, `matrix` being `outDims × inDims` row-major. */
export interface SpeakerProjection {
  readonly inDims: number;
  readonly outDims: number;
  readonly mean: Float32Array;
  readonly matrix: Float32Array;
}

/** V600: utterance statistics of MFCC+Δ frames, projected by LDA. */
export interface StatisticsLdaModel {
  readonly kind: 'statistics-lda';
  readonly projection: SpeakerProjection;
}

/** V900: GMM-UBM MAP mean supervector, and how it is combined with the V600 vector. */
export interface SupervectorModel {
  readonly kind: 'gmm-map-supervector';
  readonly relevance: number;
  readonly ubm: DiagonalGmm;
  /** Share of the V600 vector in the concatenated template (0: the supervector alone). */
  readonly statisticsWeight: number;
}

export interface SpeakerModelProvenance {
  readonly dataset: string;
  readonly licence: string;
  readonly attribution: string;
  readonly trainingSpeakers: number;
  readonly command: string;
  readonly date: string;
  readonly notes: readonly string[];
}

/**
 * Templates of background speakers under this model (one row per training utterance, the whole utterance),
 * against which a template's score spread is measured (score-normalisation.ts). Stored as int8 rows with a
 * per-row scale (value = int8 · scale), as the matching gallery stores rows.
 */
export interface SpeakerCohort {
  readonly rows: number;
  readonly dims: number;
  /** `rows × dims`, row-major. */
  readonly values: Int8Array;
  /** One positive scale per row. */
  readonly scales: Float32Array;
}

/** What the templates are computed from: the model without its cohort (what training has before the cohort). */
export interface SpeakerTemplateModel {
  readonly format: typeof SPEAKER_MODEL_FORMAT;
  readonly featureVersion: string;
  readonly features: SpeakerFeatureSettings;
  readonly provenance: SpeakerModelProvenance;
  readonly V600: StatisticsLdaModel;
  readonly V900: SupervectorModel;
}

export interface SpeakerModel extends SpeakerTemplateModel {
  readonly cohort: { readonly V600: SpeakerCohort; readonly V900: SpeakerCohort };
}

/** Fewest cohort rows a model may carry: a score spread needs a population. */
export const MIN_COHORT_ROWS = 10;

/**
 * Checks a speaker model read from JSON (the shape eval/train-voice.ts writes) and returns it typed, with its
 * number arrays as Float32Arrays: every field present and of its type, every number finite, every matrix of the
 * size its dimensions say, variances and weights positive, and the cohort of each algorithm with at least
 * {@link MIN_COHORT_ROWS} rows of the algorithm's template length (the int8 rows as base64) and a positive scale
 * per row.
 *
 * @param origin names the file in the error
 * @example
 * const model = parseSpeakerModel(JSON.parse(readFileSync(path, 'utf8')), path);
 * @throws {Error} naming `origin` and the first thing wrong with it
 */
export function parseSpeakerModel(json: unknown, origin: string): SpeakerModel {
  const model = parseSpeakerTemplateModel(json, origin);
  const malformed = malformedModel(origin);
  if (!isRecord(json) || !isRecord(json.cohort)) throw malformed('`cohort` is not an object');
  const v600 = model.V600.projection.outDims;
  const { ubm, statisticsWeight } = model.V900;
  const cohort = {
    V600: cohortOf(json.cohort.V600, 'V600', v600, malformed),
    V900: cohortOf(json.cohort.V900, 'V900', ubm.components * ubm.dims + (statisticsWeight > 0 ? v600 : 0), malformed),
  };
  if (cohort.V600.rows !== cohort.V900.rows) throw malformed('`cohort.V600` and `cohort.V900` differ in rows');
  return { ...model, cohort };
}

function malformedModel(origin: string): (what: string) => Error {
  return (what) =>
    new Error(`${origin} is not a valid speaker model: ${what} (retrain it with \`npm run eval -- train-voice\`)`);
}

function cohortOf(value: unknown, name: string, dims: number, malformed: (what: string) => Error): SpeakerCohort {
  if (!isRecord(value)) throw malformed(`\`cohort.${name}\` is not an object`);
  const { rows, dims: declared, scales, int8 } = value;
  if (!isFiniteNumber(rows) || !Number.isInteger(rows) || rows < MIN_COHORT_ROWS)
    throw malformed(`\`cohort.${name}.rows\` is not an integer >= ${MIN_COHORT_ROWS}`);
  if (declared !== dims) throw malformed(`\`cohort.${name}.dims\` is not ${dims}, the ${name} template length`);
  if (!isFiniteNumberArray(scales) || scales.length !== rows || scales.some((s) => !(s > 0)))
    throw malformed(`\`cohort.${name}.scales\` is not ${rows} positive numbers`);
  if (typeof int8 !== 'string') throw malformed(`\`cohort.${name}.int8\` is not a base64 string`);
  const bytes = Buffer.from(int8, 'base64');
  if (bytes.toString('base64') !== int8 || bytes.length !== rows * dims)
    throw malformed(`\`cohort.${name}.int8\` is not the base64 of ${rows} × ${dims} bytes`);
  return {
    rows,
    dims,
    values: new Int8Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)),
    scales: Float32Array.from(scales),
  };
}

/**
 * {@link parseSpeakerModel} without the cohort (ignored if present): what the templates need, and what training
 * has before it computes the cohort's templates.
 *
 * @example
 * const templateModel = parseSpeakerTemplateModel(jsonWithoutCohort, 'the trained speaker model');
 * @throws {Error} naming `origin` and the first thing wrong with it
 */
export function parseSpeakerTemplateModel(json: unknown, origin: string): SpeakerTemplateModel {
  const malformed = malformedModel(origin);
  if (!isRecord(json)) throw malformed('not a JSON object');
  const { format, featureVersion, features, provenance, V600, V900 } = json;
  if (format !== SPEAKER_MODEL_FORMAT) throw malformed(`\`format\` is not ${SPEAKER_MODEL_FORMAT}`);
  if (typeof featureVersion !== 'string') throw malformed('`featureVersion` is not a string');

  if (!isRecord(features)) throw malformed('`features` is not an object');
  const settings = {
    coefficients: positiveInteger(features.coefficients, 'features.coefficients'),
    filters: positiveInteger(features.filters, 'features.filters'),
    lowHz: finite(features.lowHz, 'features.lowHz'),
    highHz: finite(features.highHz, 'features.highHz'),
    deltaWindow: positiveInteger(features.deltaWindow, 'features.deltaWindow'),
    energyRangeDb: finite(features.energyRangeDb, 'features.energyRangeDb'),
  };
  if (settings.coefficients > settings.filters) throw malformed('more cepstra than mel filters');
  if (!(settings.lowHz >= 0 && settings.highHz > settings.lowHz && settings.highHz <= 8000))
    throw malformed('the mel band does not fit a 16 kHz signal');

  if (!isRecord(provenance)) throw malformed('`provenance` is not an object');
  const { dataset, licence, attribution, trainingSpeakers, command, date, notes } = provenance;
  if (
    typeof dataset !== 'string' ||
    typeof licence !== 'string' ||
    typeof attribution !== 'string' ||
    typeof command !== 'string' ||
    typeof date !== 'string'
  )
    throw malformed('`provenance` lacks a string `dataset`, `licence`, `attribution`, `command` or `date`');
  if (!Array.isArray(notes) || !notes.every((n): n is string => typeof n === 'string'))
    throw malformed('`provenance.notes` is not an array of strings');

  if (!isRecord(V600) || V600.kind !== 'statistics-lda') throw malformed('`V600` is not a statistics-lda model');
  const v600: StatisticsLdaModel = { kind: 'statistics-lda', projection: projectionOf(V600.projection, 'V600') };
  if (v600.projection.inDims !== statisticsDimensions(settings.coefficients))
    throw malformed('`V600.projection.inDims` is not the length of the utterance statistics');

  if (!isRecord(V900) || V900.kind !== 'gmm-map-supervector')
    throw malformed('`V900` is not a gmm-map-supervector model');
  const relevance = finite(V900.relevance, 'V900.relevance');
  const statisticsWeight = finite(V900.statisticsWeight, 'V900.statisticsWeight');
  if (relevance <= 0) throw malformed('`V900.relevance` is not positive');
  if (statisticsWeight < 0 || statisticsWeight > 1) throw malformed('`V900.statisticsWeight` is not in 0..1');
  const ubm = V900.ubm;
  if (!isRecord(ubm)) throw malformed('`V900.ubm` is not an object');
  const components = positiveInteger(ubm.components, 'V900.ubm.components');
  const dims = positiveInteger(ubm.dims, 'V900.ubm.dims');
  const weights = numbers(ubm.weights, components, 'V900.ubm.weights');
  const means = numbers(ubm.means, components * dims, 'V900.ubm.means');
  const variances = numbers(ubm.variances, components * dims, 'V900.ubm.variances');
  if (weights.some((w) => w <= 0) || variances.some((v) => v <= 0))
    throw malformed('`V900.ubm` holds a weight or variance that is not positive');
  if (dims !== 2 * settings.coefficients) throw malformed('`V900.ubm.dims` is not the MFCC+Δ dimension');

  return {
    format: SPEAKER_MODEL_FORMAT,
    featureVersion,
    features: settings,
    provenance: {
      dataset,
      licence,
      attribution,
      trainingSpeakers: finite(trainingSpeakers, 'trainingSpeakers'),
      command,
      date,
      notes,
    },
    V600: v600,
    V900: {
      kind: 'gmm-map-supervector',
      relevance,
      statisticsWeight,
      ubm: { components, dims, weights, means, variances },
    },
  };

  function finite(value: unknown, name: string): number {
    if (!isFiniteNumber(value)) throw malformed(`\`${name}\` is not a finite number`);
    return value;
  }
  function positiveInteger(value: unknown, name: string): number {
    if (!isFiniteNumber(value) || !Number.isInteger(value) || value < 1)
      throw malformed(`\`${name}\` is not a positive integer`);
    return value;
  }
  function numbers(value: unknown, length: number, name: string): Float32Array {
    if (!isFiniteNumberArray(value)) throw malformed(`\`${name}\` is not an array of finite numbers`);
    if (value.length !== length) throw malformed(`\`${name}\` holds ${value.length} numbers, not ${length}`);
    return Float32Array.from(value);
  }
  function projectionOf(value: unknown, name: string): SpeakerProjection {
    if (!isRecord(value)) throw malformed(`\`${name}.projection\` is not an object`);
    const inDims = positiveInteger(value.inDims, `${name}.projection.inDims`);
    const outDims = positiveInteger(value.outDims, `${name}.projection.outDims`);
    return {
      inDims,
      outDims,
      mean: numbers(value.mean, inDims, `${name}.projection.mean`),
      matrix: numbers(value.matrix, inDims * outDims, `${name}.projection.matrix`),
    };
  }
}

let loaded: SpeakerModel | undefined;

/**
 * The shipped speaker model (src/engines/voice/speaker-model.json), checked, and checked against the features
 * this build computes.
 *
 * @example
 * loadSpeakerModel().V600.projection.outDims; // the V600 template length
 * @throws {Error} when the file is malformed or was trained on another feature version
 */
export function loadSpeakerModel(): SpeakerModel {
  if (loaded) return loaded;
  const model = parseSpeakerModel(modelJson, 'src/engines/voice/speaker-model.json');
  if (model.featureVersion !== SPEAKER_FEATURE_VERSION) {
    throw new Error(
      `speaker-model.json was trained on ${model.featureVersion}, this build computes ${SPEAKER_FEATURE_VERSION}: ` +
        'retrain it (`npm run eval -- train-voice`)',
    );
  }
  loaded = model;
  return model;
}
