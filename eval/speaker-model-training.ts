/**
 * Trains the speaker model (src/engines/voice/speaker-model.json) from speech of labelled speakers: the V600
 * LDA on utterance statistics of segments (each utterance cut into 1, 2, 3 and 4 parts, so a speaker with one
 * utterance still shows within-speaker variation), the V900 UBM on the pooled CMVN-normalised frames; then the
 * score-normalisation cohort: both algorithms' templates of every training utterance under the new model.
 */
import { quantisationScale, quantise } from '../src/engines/matching/vector-gallery.js';
import { normaliseMeanVariance, type FeatureMatrix } from '../src/engines/voice/features/feature-matrix.js';
import { speakerFrames, utteranceStatistics } from '../src/engines/voice/speaker-features.js';
import {
  parseSpeakerModel,
  parseSpeakerTemplateModel,
  SPEAKER_FEATURE_VERSION,
  SPEAKER_MODEL_FORMAT,
  type SpeakerFeatureSettings,
  type SpeakerModel,
  type SpeakerModelProvenance,
} from '../src/engines/voice/speaker-model.js';
import { speakerVectors } from '../src/engines/voice/speaker-template.js';
import { VOICE_ALGORITHM_NAMES } from '../src/engines/voice/voice-algorithms.js';
import { fitLda, trainDiagonalGmm } from './voice-training.js';

/** Speech of one speaker (the VAD's speech samples of one recording). */
export interface SpeakerSpeech {
  readonly speaker: string;
  readonly speech: Float32Array;
}

/** What was chosen by measurement (docs/voice.md, reports/voice-verification.md). */
export const SPEAKER_TRAINING = {
  features: {
    coefficients: 20,
    filters: 40,
    lowHz: 20,
    highHz: 7600,
    deltaWindow: 2,
    energyRangeDb: 80,
  } satisfies SpeakerFeatureSettings,
  ldaDims: 120,
  /**
   * Within-speaker scatter regularised by this share of its mean diagonal before LDA: the scatter comes from parts
   * of one utterance per speaker, so it underestimates real within-speaker variation. 0.05 against 0.001:
   * TEXT_INDEPENDENT FNMR@FMR 1e-2 10.4% → 6.8%, EER 3.9% → 3.5% (V600, 5-fold; docs/voice.md).
   */
  ldaShrinkage: 0.05,
  ubmComponents: 64,
  ubmFrames: 40_000,
  emIterationsPerSplit: 5,
  relevance: 16,
  statisticsWeight: 0.75,
} as const;

export type SpeakerTrainingOptions = {
  -readonly [K in keyof typeof SPEAKER_TRAINING]?: (typeof SPEAKER_TRAINING)[K];
} & { readonly log?: (line: string) => void };

/** The parts an utterance is cut into for the LDA: the whole, halves, thirds and quarters. */
export function trainingSegments(speech: Float32Array): Float32Array[] {
  const out: Float32Array[] = [speech];
  for (const parts of [2, 3, 4]) {
    const length = Math.floor(speech.length / parts);
    for (let i = 0; i < parts; i++) out.push(speech.subarray(i * length, (i + 1) * length));
  }
  return out;
}

/**
 * Trains both algorithms' parameters, computes the cohort (the templates of every utterance of `data` under
 * the trained parameters: a fold model's cohort is its own training speakers) and returns the model (checked by
 * the engine's own parser).
 *
 * @example
 * const model = trainSpeakerModel(background, provenance);
 */
export function trainSpeakerModel(
  data: readonly SpeakerSpeech[],
  provenance: SpeakerModelProvenance,
  options: SpeakerTrainingOptions = {},
): { model: SpeakerModel; json: unknown } {
  const settings = { ...SPEAKER_TRAINING, ...options };
  const log = options.log ?? (() => undefined);
  const { features } = settings;
  const statistics: Float64Array[] = [];
  const labels: string[] = [];
  const whole: FeatureMatrix[] = [];
  for (const { speaker, speech } of data) {
    for (const [i, segment] of trainingSegments(speech).entries()) {
      const frames = speakerFrames(segment, features);
      if (frames.frames < 10) continue;
      statistics.push(utteranceStatistics(frames, features.coefficients));
      labels.push(speaker);
      if (i === 0) whole.push(normaliseMeanVariance(frames));
    }
  }
  log(`  LDA on ${statistics.length} segments of ${new Set(labels).size} speakers`);
  const lda = fitLda(statistics, labels, settings.ldaDims, settings.ldaShrinkage);
  log(`  UBM of ${settings.ubmComponents} components on ${settings.ubmFrames} of the pooled frames`);
  const ubm = trainDiagonalGmm(
    pooledFrames(whole, settings.ubmFrames),
    settings.ubmComponents,
    settings.emIterationsPerSplit,
    log,
  );
  const templateJson = {
    format: SPEAKER_MODEL_FORMAT,
    featureVersion: SPEAKER_FEATURE_VERSION,
    features,
    provenance,
    V600: {
      kind: 'statistics-lda',
      projection: {
        inDims: lda.inDims,
        outDims: lda.outDims,
        mean: rounded(lda.mean),
        matrix: rounded(lda.projection),
      },
    },
    V900: {
      kind: 'gmm-map-supervector',
      relevance: settings.relevance,
      statisticsWeight: settings.statisticsWeight,
      ubm: {
        components: ubm.components,
        dims: ubm.dims,
        weights: rounded(ubm.weights),
        means: rounded(ubm.means),
        variances: rounded(ubm.variances),
      },
    },
  };
  const templateModel = parseSpeakerTemplateModel(templateJson, 'the trained speaker model');
  log(`  cohort: templates of the ${data.length} training utterances`);
  const cohortVectors = data.map(({ speech }) => speakerVectors(speech, VOICE_ALGORITHM_NAMES, templateModel));
  const cohort = Object.fromEntries(
    VOICE_ALGORITHM_NAMES.map((algorithm) => [
      algorithm,
      int8Rows(
        cohortVectors.map((vectors) => {
          const vector = vectors[algorithm];
          if (vector === undefined) throw new Error(`no ${algorithm} template`);
          return vector;
        }),
      ),
    ]),
  );
  const json = {
    ...templateJson,
    cohort: {
      description:
        "Score-normalisation cohort (src/engines/voice/score-normalisation.ts): each algorithm's template of every training utterance, int8 rows (base64, row-major) with a per-row scale (value = int8 × scale).",
      ...cohort,
    },
  };
  return { model: parseSpeakerModel(json, 'the trained speaker model'), json };
}

/** Rows quantised as the matching gallery stores them: int8 with a symmetric per-row scale (max |v| → 127). */
function int8Rows(rows: readonly Float32Array[]): { rows: number; dims: number; scales: number[]; int8: string } {
  const dims = rows[0]?.length ?? 0;
  const bytes = new Int8Array(rows.length * dims);
  const scales = rows.map((row, r) => {
    // Written to JSON with 7 significant digits, and the values quantised with the scale as written.
    const scale = Number(quantisationScale(row).toPrecision(7));
    for (let d = 0; d < dims; d++) bytes[r * dims + d] = quantise(row[d] ?? 0, scale);
    return scale;
  });
  return { rows: rows.length, dims, scales, int8: Buffer.from(bytes.buffer).toString('base64') };
}

/** Every k-th frame of all utterances, about `maxFrames` in all. */
function pooledFrames(matrices: readonly FeatureMatrix[], maxFrames: number): FeatureMatrix {
  const [first] = matrices;
  if (first === undefined) throw new RangeError('no frames to train a UBM on');
  const dims = first.dims;
  const total = matrices.reduce((s, m) => s + m.frames, 0);
  const stride = Math.max(1, Math.ceil(total / maxFrames));
  const values = new Float32Array(Math.ceil(total / stride) * dims);
  let k = 0;
  let rows = 0;
  for (const m of matrices) {
    for (let t = 0; t < m.frames; t++, k++) {
      if (k % stride !== 0) continue;
      values.set(m.values.subarray(t * dims, (t + 1) * dims), rows * dims);
      rows++;
    }
  }
  return { frames: rows, dims, values: values.subarray(0, rows * dims) };
}

/** Seven significant digits: float32 precision, a third of the JSON of full doubles. */
function rounded(values: ArrayLike<number>): number[] {
  return Array.from(values, (v) => Number(v.toPrecision(7)));
}
