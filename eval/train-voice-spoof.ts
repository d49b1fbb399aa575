/**
 * `npm run eval -- train-voice-spoof [voiceDir] [--cache DIR] [--no-write]` trains the voice spoof
 * classifier and writes src/engines/voice/voice-spoof-model.json; `npm run eval -- voice-spoof [voiceDir]`
 * only evaluates (the spoof part of the voice evaluation). voiceDir defaults to ../shared/data/voice.
 *
 * Corpus (eval/voice-spoof-corpus.ts): bona fide LibriSpeech utterances and FSDD ten-digit phrases; attacks
 * generated with espeak-ng, flite, festival and simulated sox replays (of bona fide speech and of TTS), cached
 * under --cache (default /tmp/veriport-voice-spoof, never in the repository). Each item gets its voice
 * activity from the engine's Silero VAD and its features from voiceSpoofFeatures.
 *
 * Evaluation, speaker-disjoint (3 folds: each bona fide speaker, and the replays of its speech, in one fold):
 *  - leave one attack out: for each attack kind, models trained on bona fide + the other kinds of two folds
 *    score the third fold's bona fide and held-out-kind samples; each fold's thresholds come from the other
 *    folds' held-out bona fide scores. APCER / BPCER at alfa2/4/6 per unseen kind and pooled over kinds;
 *  - all kinds seen: the same folds with every kind in training; its held-out scores are the ones the
 *    shipped model's thresholds and score_frr are read from.
 * The shipped model is trained on everything. Writes reports/voice-spoof.{md,json} (aggregates only).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { detectSpeech } from '../src/engines/voice/voice-activity.js';
import { sigmoid } from '../src/lib/sigmoid.js';
import { spoofLogit, VOICE_SPOOF_MODEL_KIND, type CueRange } from '../src/engines/voice/voice-spoof-classifier.js';
import {
  VOICE_SPOOF_CUE_NAMES,
  VOICE_SPOOF_FEATURE_NAMES,
  VOICE_SPOOF_FEATURE_VERSION,
  voiceSpoofFeatures,
} from '../src/engines/voice/voice-spoof-features.js';
import { TARGET_BPCER_BY_LEVEL } from '../src/engines/liveness/workflows.js';
import {
  ATTACK_KINDS,
  buildCorpus,
  FOLDS,
  readCorpusWav,
  type CorpusItem,
  type CorpusKind,
} from './voice-spoof-corpus.js';
import { fitStandardiser, standardise, trainPadWeights } from './pad-training.js';
import { isFiniteNumberArray, isRecord } from '../src/lib/json-guards.js';

const MODEL_FILE = 'src/engines/voice/voice-spoof-model.json';
/**
 * L2 penalty of the logistic part (on standardised features and their squares), chosen on the
 * leave-one-attack-out error.
 */
const L2 = 100;
/** Cue-range margin in bona fide spreads (spread = 5-95% range / 3.3, a standard deviation for a normal). */
const MARGIN = 3;
const LEVELS = [2, 4, 6] as const;

interface Row {
  readonly item: CorpusItem;
  readonly features: readonly number[];
}

interface TrainedModel {
  readonly mean: number[];
  readonly std: number[];
  readonly weights: number[];
  readonly bias: number;
  readonly cueRange: CueRange;
}

const CUE_INDICES = VOICE_SPOOF_CUE_NAMES.map((name) => VOICE_SPOOF_FEATURE_NAMES.indexOf(name));

function quantileOf(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))] ?? 0;
}

/** Standardiser and cue range from the bona fide rows, logistic part from all rows (1 = bona fide). */
function train(rows: readonly Row[]): TrainedModel {
  const bonafide = rows.filter((row) => row.item.kind === 'bonafide').map((row) => row.features);
  const standardiser = fitStandardiser(bonafide);
  const expand = (features: readonly number[]): number[] => {
    const z = [...standardise(features, standardiser)];
    return [...z, ...z.map((v) => v * v)];
  };
  // The expanded columns (z and z²) are standardised again before the fit, so that L2 weighs them alike;
  // that second standardisation is folded into the weights and bias, leaving one affine map at run time.
  const fit = trainPadWeights(
    rows.map((row) => expand(row.features)),
    rows.map((row) => (row.item.kind === 'bonafide' ? 1 : 0)),
    L2,
  );
  const weights = fit.weights.map((w, j) => w / (fit.std[j] ?? 1));
  const bias = fit.bias - fit.weights.reduce((sum, w, j) => sum + (w * (fit.mean[j] ?? 0)) / (fit.std[j] ?? 1), 0);
  const centre: number[] = [];
  const scale: number[] = [];
  for (const index of CUE_INDICES) {
    const values = bonafide.map((features) => features[index] ?? 0).sort((a, b) => a - b);
    centre.push(quantileOf(values, 0.5));
    scale.push(Math.max((quantileOf(values, 0.95) - quantileOf(values, 0.05)) / 3.3, 1e-6));
  }
  return {
    mean: [...standardiser.mean],
    std: [...standardiser.std],
    weights,
    bias,
    cueRange: { features: CUE_INDICES, centre, scale, margin: MARGIN },
  };
}

const pLiveOf = (model: TrainedModel, row: Row): number => sigmoid(spoofLogit(model, row.features));

interface Scored {
  readonly row: Row;
  readonly pLive: number;
}

/** Speaker-disjoint cross-validation: fold f scored by a model trained on the other folds' `trainOn` rows. */
function crossValidate(rows: readonly Row[], trainOn: (row: Row) => boolean, testOn: (row: Row) => boolean): Scored[] {
  const scored: Scored[] = [];
  for (let fold = 0; fold < FOLDS; fold++) {
    const model = train(rows.filter((row) => row.item.fold !== fold && trainOn(row)));
    for (const row of rows) if (row.item.fold === fold && testOn(row)) scored.push({ row, pLive: pLiveOf(model, row) });
  }
  return scored;
}

interface ErrorCounts {
  attacks: number;
  accepted: number;
  bonafide: number;
  rejected: number;
}

/** APCER/BPCER counts at a target BPCER, each fold's threshold read off the other folds' bona fide scores. */
function errorsAt(scored: readonly Scored[], targetBpcer: number): ErrorCounts {
  const counts: ErrorCounts = { attacks: 0, accepted: 0, bonafide: 0, rejected: 0 };
  for (let fold = 0; fold < FOLDS; fold++) {
    const reference = scored
      .filter((s) => s.row.item.fold !== fold && s.row.item.kind === 'bonafide')
      .map((s) => s.pLive)
      .sort((a, b) => a - b);
    const threshold = reference[Math.min(reference.length - 1, Math.floor(targetBpcer * reference.length))] ?? 0;
    for (const s of scored) {
      if (s.row.item.fold !== fold) continue;
      if (s.row.item.kind === 'bonafide') {
        counts.bonafide++;
        if (s.pLive < threshold) counts.rejected++;
      } else {
        counts.attacks++;
        if (s.pLive >= threshold) counts.accepted++;
      }
    }
  }
  return counts;
}

/** Equal error rate of pooled scores (bona fide vs attacks), thresholds at every score. */
function equalErrorRate(scored: readonly Scored[]): number {
  const live = scored.filter((s) => s.row.item.kind === 'bonafide').map((s) => s.pLive);
  const spoof = scored.filter((s) => s.row.item.kind !== 'bonafide').map((s) => s.pLive);
  let best = 1;
  for (const t of [...live, ...spoof]) {
    const bpcer = live.filter((p) => p < t).length / live.length;
    const apcer = spoof.filter((p) => p >= t).length / spoof.length;
    best = Math.min(best, Math.max(bpcer, apcer));
  }
  return best;
}

/** Feature rows cached by file path; an unreadable or foreign cache is ignored. */
function readFeatureCache(path: string): Map<string, number[]> {
  const rows = new Map<string, number[]>();
  if (!existsSync(path)) return rows;
  const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isRecord(json)) return rows;
  for (const [file, row] of Object.entries(json))
    if (isFiniteNumberArray(row) && row.length === VOICE_SPOOF_FEATURE_NAMES.length) rows.set(file, [...row]);
  return rows;
}

const percent = (part: number, whole: number): string => (whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)}%`);

export interface VoiceSpoofEvaluation {
  readonly markdown: string;
  readonly json: Record<string, unknown>;
  readonly heldOut: { readonly live: number[]; readonly spoof: number[] };
  readonly model: TrainedModel;
  readonly counts: Readonly<Record<string, number>>;
}

/**
 * Builds the corpus, computes every item's features, evaluates leave-one-attack-out and all-kinds-seen, and
 * trains the model on everything.
 *
 * @example
 * const voiceDir = '../shared/data/voice';
 * const { markdown } = await evaluateVoiceSpoof({ voiceDir, cacheDir: '/tmp/veriport-voice-spoof' });
 */
export async function evaluateVoiceSpoof(options: {
  voiceDir: string;
  cacheDir: string;
}): Promise<VoiceSpoofEvaluation> {
  const items = buildCorpus({ ...options, log: (line) => console.log(`corpus: ${line}`) });
  // Features are kept beside the audio cache, keyed by file and feature version, so a re-run skips the VAD.
  const featureCache = join(options.cacheDir, `features-${VOICE_SPOOF_FEATURE_VERSION.replace('/', '-')}.json`);
  const cached = readFeatureCache(featureCache);
  const rows: Row[] = [];
  let featureMs = 0;
  let speechSeconds = 0;
  let computed = 0;
  for (const item of items) {
    const known = cached.get(item.path);
    if (known !== undefined) {
      rows.push({ item, features: known });
      continue;
    }
    const samples = readCorpusWav(item.path);
    const activity = await detectSpeech(samples);
    const started = performance.now();
    const { row } = voiceSpoofFeatures(samples, activity);
    featureMs += performance.now() - started;
    speechSeconds += samples.length / 16_000;
    computed++;
    rows.push({ item, features: [...row] });
    if (computed % 200 === 0) console.log(`features: ${computed} computed`);
  }
  writeFileSync(featureCache, JSON.stringify(Object.fromEntries(rows.map((row) => [row.item.path, row.features]))));
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.item.kind] = (counts[row.item.kind] ?? 0) + 1;

  const lines: string[] = [];
  const json: Record<string, unknown> = { counts, levels: {}, leaveOneAttackOut: {}, allKindsSeen: {} };
  lines.push('| unseen attack kind | attacks | APCER alfa2 | APCER alfa4 | BPCER alfa4 | APCER alfa6 | EER |');
  lines.push('|---|---|---|---|---|---|---|');
  const pooled = new Map<number, ErrorCounts>(
    LEVELS.map((level) => [level, { attacks: 0, accepted: 0, bonafide: 0, rejected: 0 }]),
  );
  const loao: Record<string, unknown> = {};
  for (const held of ATTACK_KINDS) {
    const scored = crossValidate(
      rows,
      (row) => row.item.kind !== held,
      (row) => row.item.kind === 'bonafide' || row.item.kind === held,
    );
    const byLevel = LEVELS.map((level) => errorsAt(scored, TARGET_BPCER_BY_LEVEL[level - 1] ?? 0));
    byLevel.forEach((c, i) => {
      const total = pooled.get(LEVELS[i] ?? 0);
      if (total === undefined) return;
      total.attacks += c.attacks;
      total.accepted += c.accepted;
      total.bonafide += c.bonafide;
      total.rejected += c.rejected;
    });
    const [l2, l4, l6] = byLevel;
    const eer = equalErrorRate(scored);
    if (l2 && l4 && l6) {
      lines.push(
        `| ${held} | ${l4.attacks} | ${percent(l2.accepted, l2.attacks)} | ${percent(l4.accepted, l4.attacks)} | ${percent(l4.rejected, l4.bonafide)} | ${percent(l6.accepted, l6.attacks)} | ${(100 * eer).toFixed(1)}% |`,
      );
      loao[held] = {
        attacks: l4.attacks,
        apcer: byLevel.map((c) => c.accepted / c.attacks),
        bpcer: byLevel.map((c) => c.rejected / c.bonafide),
        eer,
      };
    }
  }
  const [p2, p4, p6] = LEVELS.map((level) => pooled.get(level));
  if (p2 && p4 && p6) {
    lines.push(
      `| **pooled over unseen kinds** | ${p4.attacks} | ${percent(p2.accepted, p2.attacks)} | **${percent(p4.accepted, p4.attacks)}** | **${percent(p4.rejected, p4.bonafide)}** | ${percent(p6.accepted, p6.attacks)} | |`,
    );
    loao.pooled = {
      apcer: [p2, p4, p6].map((c) => c.accepted / c.attacks),
      bpcer: [p2, p4, p6].map((c) => c.rejected / c.bonafide),
    };
  }
  json.leaveOneAttackOut = loao;

  const seen = crossValidate(
    rows,
    () => true,
    () => true,
  );
  lines.push('');
  lines.push(
    'All attack kinds seen in training (speaker-disjoint 3-fold cross-validation; the shipped thresholds come from these scores):',
  );
  lines.push('');
  lines.push('| level | target BPCER | APCER | BPCER |');
  lines.push('|---|---|---|---|');
  const seenJson: Record<string, unknown> = { eer: equalErrorRate(seen) };
  for (const level of LEVELS) {
    const target = TARGET_BPCER_BY_LEVEL[level - 1] ?? 0;
    const c = errorsAt(seen, target);
    lines.push(
      `| alfa${level} | ${(100 * target).toFixed(0)}% | ${percent(c.accepted, c.attacks)} | ${percent(c.rejected, c.bonafide)} |`,
    );
    seenJson[`alfa${level}`] = { apcer: c.accepted / c.attacks, bpcer: c.rejected / c.bonafide };
  }
  lines.push(
    `\nEER all kinds seen: ${(100 * equalErrorRate(seen)).toFixed(1)}%. ${computed > 0 ? `Feature extraction: ${((featureMs / speechSeconds) * 5).toFixed(1)} ms per 5 s of audio (mean over ${computed} corpus files, this machine, shared with other work).` : 'Features read from the cache.'}`,
  );
  json.allKindsSeen = seenJson;
  if (computed > 0) json.featureMsPer5s = (featureMs / speechSeconds) * 5;
  const round = (p: number): number => Math.round(p * 1e5) / 1e5;
  return {
    markdown: lines.join('\n'),
    json,
    heldOut: {
      live: seen
        .filter((s) => s.row.item.kind === 'bonafide')
        .map((s) => round(s.pLive))
        .sort((a, b) => a - b),
      spoof: seen
        .filter((s) => s.row.item.kind !== 'bonafide')
        .map((s) => round(s.pLive))
        .sort((a, b) => a - b),
    },
    model: train(rows),
    counts,
  };
}

function parseCli(argv: string[]): { voiceDir: string; cacheDir: string; write: boolean } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      cache: { type: 'string', default: '/tmp/veriport-voice-spoof' },
      'no-write': { type: 'boolean', default: false },
    },
  });
  return {
    voiceDir: resolve(positionals[0] ?? '../shared/data/voice'),
    cacheDir: resolve(values.cache),
    write: !values['no-write'],
  };
}

function writeReport(evaluation: VoiceSpoofEvaluation): void {
  mkdirSync('reports', { recursive: true });
  const header = `# Voice spoof detection: leave-one-attack-out\n\nCorpus: ${Object.entries(evaluation.counts)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')}.\n\n`;
  writeFileSync('reports/voice-spoof.md', `${header}${evaluation.markdown}\n`);
  writeFileSync('reports/voice-spoof.json', `${JSON.stringify(evaluation.json, null, 1)}\n`);
}

/**
 * `npm run eval -- voice-spoof [voiceDir]`: the leave-one-attack-out table (reports/voice-spoof.md).
 *
 * @example
 * await evalVoiceSpoof(['../shared/data/voice']);
 */
export async function evalVoiceSpoof(argv: string[]): Promise<void> {
  const evaluation = await evaluateVoiceSpoof(parseCli(argv));
  console.log(evaluation.markdown);
  writeReport(evaluation);
}

/**
 * `npm run eval -- train-voice-spoof [voiceDir] [--no-write]`: evaluates, then writes the model trained on
 * every kind to src/engines/voice/voice-spoof-model.json.
 *
 * @example
 * await trainVoiceSpoof(['../shared/data/voice']);
 */
export async function trainVoiceSpoof(argv: string[]): Promise<void> {
  const options = parseCli(argv);
  const evaluation = await evaluateVoiceSpoof(options);
  console.log(evaluation.markdown);
  writeReport(evaluation);
  if (!options.write) return;
  const round = (values: readonly number[]): number[] => values.map((v) => Math.round(v * 1e6) / 1e6);
  const { model } = evaluation;
  const file = {
    kind: VOICE_SPOOF_MODEL_KIND,
    featureVersion: VOICE_SPOOF_FEATURE_VERSION,
    featureNames: VOICE_SPOOF_FEATURE_NAMES,
    mean: round(model.mean),
    std: round(model.std),
    weights: round(model.weights),
    bias: Math.round(model.bias * 1e6) / 1e6,
    l2: L2,
    cueRange: { ...model.cueRange, centre: round(model.cueRange.centre), scale: round(model.cueRange.scale) },
    heldOutScores: evaluation.heldOut,
    provenance: {
      command: 'npm run eval -- train-voice-spoof ../shared/data/voice',
      date: new Date().toISOString().slice(0, 10),
      bonafide:
        'LibriSpeech train-clean-100 (251 speakers, one utterance each; V. Panayotov et al., ICASSP 2015, CC BY 4.0) and the Free Spoken Digit Dataset (6 speakers, ten-digit phrases; CC BY-SA 4.0)',
      attacks:
        'generated: espeak-ng voices and variants, flite (kal, kal16, awb, rms, slt), festival (kal, ked diphone; slt HTS), sox-simulated replays of bona fide and TTS speech (loudspeaker roll-off and band limit, room reverb, mains hum, re-recording noise)',
      counts: evaluation.counts,
      evaluation: evaluation.json,
      notes: [
        'No real replay recording and no modern neural TTS: the figures say how the classifier meets these simulated and old-engine attacks, not field attacks (docs/voice.md).',
      ],
    },
  };
  writeFileSync(MODEL_FILE, `${JSON.stringify(file, null, 1)}\n`);
  console.log(`wrote ${MODEL_FILE}`);
}

/** Exposed for the unit tests of the arithmetic. */
export const testing = { errorsAt, equalErrorRate, train } satisfies Record<string, unknown>;
export type { CorpusKind };
