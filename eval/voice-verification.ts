/**
 * `npm run eval -- voice-verification <voice dir> [--folds 5] [--no-calibration] [--timing-runs 20]`
 *
 * Speaker verification accuracy of V600 and V900 per voice sample type, every sample read the way the
 * service reads it (decodeVoiceSample → Silero VAD → speech frames with a margin (speakerSpeech) → speakerVectors)
 * and every pair scored the way the service scores it: n(a)·n(b), n = normalisedSpeakerVector under the model
 * that made the templates (its own cohort). The raw cosines a·b of the same pairs are reported as well (the
 * figures before score normalisation):
 *  - TEXT_INDEPENDENT, clean read speech: `<dir>/background` (LibriSpeech, one utterance per speaker) by
 *    leave-speakers-out cross-validation: speakers dealt round-robin into `--folds` folds, a speaker model
 *    trained on the other folds (eval/speaker-model-training.ts, as train-voice does), and each held-out
 *    utterance's speech cut into two non-overlapping halves: genuine = the two halves of one utterance,
 *    impostor = halves of two held-out speakers of the fold. Halves of one recording share the session, so
 *    this is an optimistic text-independent figure. Also reported (not calibrated): the same pairs restricted to
 *    utterances with ≥ 2 s of speech per half, where the misses are fewest.
 *  - STATIC_PHRASE, `<dir>/dev/fsdd` (Free Spoken Digit Dataset, 6 speakers × 10 digits × 30 repetitions),
 *    with the shipped model (never trained on FSDD): a phrase = the ten digits of one repetition in order;
 *    genuine = same speaker, other repetition; impostor = other speaker (any repetition). Also single digits:
 *    same digit, same/other speaker. A digit with less speech than the service's template minimum is refused
 *    by the service, so a pair with a refused side counts as a non-match (ISO/IEC 19795-1 FRR/FAR: a false
 *    non-match when genuine, a correct rejection when impostor), as a user meets it.
 * Per algorithm and sample type: EER and FNMR at FMR 10^-2. Also the time of the templates of a 5 s sample on
 * one thread (median over `--timing-runs`), and of decoding + VAD for comparison.
 * Writes reports/voice-verification.{md,json} and (unless --no-calibration) the calibration tables
 * src/engines/voice/calibration/<algorithm>.<sample type>.json from normalised impostor scores: TEXT_INDEPENDENT
 * from the cross-validated held-out impostors (each fold model with its own training-speaker cohort),
 * STATIC_PHRASE from the FSDD phrase impostors (the shipped model and cohort).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildCalibrationTable } from '../src/engines/scoring/score-calibration.js';
import { normalisedSpeakerVector } from '../src/engines/voice/score-normalisation.js';
import { loadSpeakerModel, type SpeakerModel } from '../src/engines/voice/speaker-model.js';
import { speakerVectors } from '../src/engines/voice/speaker-template.js';
import {
  VOICE_ALGORITHM_NAMES,
  type VoiceAlgorithmName,
  type VoiceSampleType,
} from '../src/engines/voice/voice-algorithms.js';
import { MIN_TEMPLATE_SPEECH_SECONDS } from '../src/engines/voice/voice-templating.js';
import { dot } from '../src/lib/vectors.js';
import { trainSpeakerModel, type SpeakerSpeech } from './speaker-model-training.js';
import { LIBRISPEECH_ATTRIBUTION } from './train-voice.js';
import { equalErrorRate, fnmrAtFmr, sortScores } from './verification-metrics.js';
import { backgroundSpeech, decodedFile, speechOf } from './voice-speech.js';

type Vectors = Partial<Record<VoiceAlgorithmName, Float32Array>>;

interface Scores {
  genuine: number[];
  impostor: number[];
}

interface ResultRow {
  readonly sampleType: VoiceSampleType;
  readonly set: string;
  readonly algorithm: VoiceAlgorithmName;
  /** `normalised`: the service's score n(a)·n(b); `raw`: the cosine a·b (before score normalisation). */
  readonly scoring: keyof ScoreSets;
  readonly genuine: number;
  readonly impostor: number;
  readonly eer: number;
  readonly fnmrAtFmr1e2: number;
}

const emptyScores = (): Record<VoiceAlgorithmName, Scores> => ({
  V600: { genuine: [], impostor: [] },
  V900: { genuine: [], impostor: [] },
});

/** Scores of the same pairs as the service answers them (normalised) and as raw cosines (before). */
interface ScoreSets {
  normalised: Record<VoiceAlgorithmName, Scores>;
  raw: Record<VoiceAlgorithmName, Scores>;
}

const emptyScoreSets = (): ScoreSets => ({ normalised: emptyScores(), raw: emptyScores() });

/** A sample's unit templates and their normalised forms (normalisedSpeakerVector under the same model). */
interface Templates {
  unit: Vectors;
  normalised: Vectors;
}

function templatesOf(speech: Float32Array, model: SpeakerModel): Templates {
  const unit = speakerVectors(speech, VOICE_ALGORITHM_NAMES, model);
  const normalised: Vectors = {};
  for (const algorithm of VOICE_ALGORITHM_NAMES)
    normalised[algorithm] = normalisedSpeakerVector(vectorOf(unit, algorithm), algorithm, model);
  return { unit, normalised };
}

/** Both scores of a pair: n(a)·n(b) as the service scores it, and the raw cosine a·b. */
function scoresOf(a: Templates, b: Templates, algorithm: VoiceAlgorithmName): { normalised: number; raw: number } {
  return {
    normalised: dot(vectorOf(a.normalised, algorithm), vectorOf(b.normalised, algorithm)),
    raw: dot(vectorOf(a.unit, algorithm), vectorOf(b.unit, algorithm)),
  };
}

function vectorOf(vectors: Vectors, algorithm: VoiceAlgorithmName): Float32Array {
  const v = vectors[algorithm];
  if (v === undefined) throw new Error(`no ${algorithm} vector`);
  return v;
}

function halves(speech: Float32Array): [Float32Array, Float32Array] {
  const middle = Math.floor(speech.length / 2);
  return [speech.subarray(0, middle), speech.subarray(middle)];
}

/** Text-independent scores by leave-speakers-out cross-validation on the background utterances. */
/**
 * Speech (VAD frames with their margin) an utterance needs for the "longer utterances" row: halves of ≥ 2 s. The
 * misses of the text-independent figure concentrate on the shorter utterances (docs/voice.md).
 */
const LONG_UTTERANCE_SAMPLES = 4 * 16_000;

function crossValidatedTextIndependent(
  background: readonly SpeakerSpeech[],
  folds: number,
  log: (line: string) => void,
): { all: ScoreSets; long: ScoreSets } {
  const scores = emptyScoreSets();
  const long = emptyScoreSets();
  for (let fold = 0; fold < folds; fold++) {
    const started = Date.now();
    const train = background.filter((_, i) => i % folds !== fold);
    const test = background.filter((_, i) => i % folds === fold);
    const { model } = trainSpeakerModel(train, provenanceOf('cross-validation fold', train.length));
    // The fold model's cohort is its own training speakers: no held-out speaker is in it.
    const pairs = test.map(({ speech }) => halves(speech).map((h) => templatesOf(h, model)));
    const isLong = test.map(({ speech }) => speech.length >= LONG_UTTERANCE_SAMPLES);
    const push = (kind: keyof Scores, algorithm: VoiceAlgorithmName, s: { normalised: number; raw: number }) => {
      scores.normalised[algorithm][kind].push(s.normalised);
      scores.raw[algorithm][kind].push(s.raw);
    };
    const pushLong = (kind: keyof Scores, algorithm: VoiceAlgorithmName, s: { normalised: number; raw: number }) => {
      long.normalised[algorithm][kind].push(s.normalised);
      long.raw[algorithm][kind].push(s.raw);
    };
    for (const algorithm of VOICE_ALGORITHM_NAMES) {
      for (let a = 0; a < pairs.length; a++) {
        const [first, second] = pairs[a] ?? [];
        if (first === undefined || second === undefined) continue;
        const genuine = scoresOf(first, second, algorithm);
        push('genuine', algorithm, genuine);
        if (isLong[a] === true) pushLong('genuine', algorithm, genuine);
        for (let b = 0; b < pairs.length; b++) {
          const other = pairs[b]?.[1];
          if (b === a || other === undefined) continue;
          const impostor = scoresOf(first, other, algorithm);
          push('impostor', algorithm, impostor);
          if (isLong[a] === true && isLong[b] === true) pushLong('impostor', algorithm, impostor);
        }
      }
    }
    log(
      `  fold ${fold + 1}/${folds}: ${train.length} training, ${test.length} held-out speakers (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  return { all: scores, long };
}

function provenanceOf(what: string, speakers: number): Parameters<typeof trainSpeakerModel>[1] {
  return {
    dataset: `LibriSpeech background, ${what}`,
    licence: 'CC BY 4.0',
    attribution: LIBRISPEECH_ATTRIBUTION,
    trainingSpeakers: speakers,
    command: 'npm run eval -- voice-verification',
    date: new Date().toISOString().slice(0, 10),
    notes: [],
  };
}

interface DigitFile {
  readonly digit: number;
  readonly speaker: string;
  readonly repetition: number;
  readonly samples: Float32Array;
}

async function readFsdd(dir: string): Promise<DigitFile[]> {
  const files: DigitFile[] = [];
  for (const name of readdirSync(dir).sort()) {
    const match = /^(\d)_([a-z]+)_(\d+)\.wav$/.exec(name);
    if (match === null) continue;
    const [, digit, speaker, repetition] = match;
    if (digit === undefined || speaker === undefined || repetition === undefined) continue;
    files.push({
      digit: Number(digit),
      speaker,
      repetition: Number(repetition),
      samples: await decodedFile(join(dir, name)),
    });
  }
  return files;
}

function concatenate(parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The score a pair gets when the service refused one side: below every score (normalised scores are not
 * bounded by −1), so never a match.
 */
const REFUSED_SCORE = -Infinity;

/**
 * Scores of every pair of items, genuine when `sameSpeaker`, skipped unless `comparable`; a pair with a side the
 * service refused (`templates` undefined) scores {@link REFUSED_SCORE}.
 */
function pairScores<T extends { readonly speaker: string; readonly templates: Templates | undefined }>(
  items: readonly T[],
  comparable: (a: T, b: T) => boolean,
): ScoreSets {
  const scores = emptyScoreSets();
  for (let i = 0; i < items.length; i++) {
    for (let j = i + 1; j < items.length; j++) {
      const a = items[i];
      const b = items[j];
      if (a === undefined || b === undefined || !comparable(a, b)) continue;
      for (const algorithm of VOICE_ALGORITHM_NAMES) {
        const s =
          a.templates === undefined || b.templates === undefined
            ? { normalised: REFUSED_SCORE, raw: REFUSED_SCORE }
            : scoresOf(a.templates, b.templates, algorithm);
        const kind = a.speaker === b.speaker ? 'genuine' : 'impostor';
        scores.normalised[algorithm][kind].push(s.normalised);
        scores.raw[algorithm][kind].push(s.raw);
      }
    }
  }
  return scores;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Runs the evaluation (see the file comment).
 *
 * @example
 * await evalVoiceVerification(['../shared/data/voice']);
 */
export async function evalVoiceVerification(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      folds: { type: 'string', default: '5' },
      'no-calibration': { type: 'boolean', default: false },
      'timing-runs': { type: 'string', default: '20' },
    },
  });
  const [dir] = positionals;
  if (dir === undefined)
    throw new Error('usage: npm run eval -- voice-verification <voice dir> [--folds 5] [--no-calibration]');
  const folds = Number(values.folds);
  const timingRuns = Number(values['timing-runs']);
  const log = (line: string): void => console.log(line);
  const command = `npm run eval -- voice-verification ${argv.join(' ')}`;

  log('reading LibriSpeech background (decode + VAD)...');
  const background = await backgroundSpeech(join(dir, 'background'));
  log(`text-independent: ${folds}-fold leave-speakers-out cross-validation on ${background.length} speakers`);
  const { all: textIndependent, long: textIndependentLong } = crossValidatedTextIndependent(background, folds, log);
  const longUtterances = background.filter((b) => b.speech.length >= LONG_UTTERANCE_SAMPLES).length;

  log('reading FSDD (decode)...');
  const fsdd = await readFsdd(join(dir, 'dev', 'fsdd'));
  const fsddSpeakers = [...new Set(fsdd.map((f) => f.speaker))].sort();
  const shipped = loadSpeakerModel();
  const phrases: { speaker: string; repetition: number; templates: Templates }[] = [];
  for (const speaker of fsddSpeakers) {
    const repetitions = [...new Set(fsdd.filter((f) => f.speaker === speaker).map((f) => f.repetition))].sort(
      (a, b) => a - b,
    );
    for (const repetition of repetitions) {
      const parts = fsdd
        .filter((f) => f.speaker === speaker && f.repetition === repetition)
        .sort((a, b) => a.digit - b.digit)
        .map((f) => f.samples);
      if (parts.length !== 10) continue;
      const { speech } = await speechOf(concatenate(parts));
      phrases.push({ speaker, repetition, templates: templatesOf(speech, shipped) });
    }
  }
  const phraseScores = pairScores(phrases, () => true);
  const digits: { speaker: string; digit: number; templates: Templates | undefined }[] = [];
  let refusedDigits = 0;
  for (const file of fsdd) {
    const { speech, speechSeconds } = await speechOf(file.samples);
    const refused = speechSeconds < MIN_TEMPLATE_SPEECH_SECONDS;
    if (refused) refusedDigits++;
    const templates = refused ? undefined : templatesOf(speech, shipped);
    digits.push({ speaker: file.speaker, digit: file.digit, templates });
  }
  const digitScores = pairScores(digits, (a, b) => a.digit === b.digit);
  const accepted = digits.filter((d) => d.templates !== undefined);
  const acceptedDigitScores = pairScores(accepted, (a, b) => a.digit === b.digit);

  const rows: ResultRow[] = [];
  const sets: [VoiceSampleType, string, ScoreSets][] = [
    ['TEXT_INDEPENDENT', `LibriSpeech halves, ${background.length} held-out speakers (${folds}-fold)`, textIndependent],
    [
      'TEXT_INDEPENDENT',
      `LibriSpeech halves of the ${longUtterances} utterances with ≥ ${LONG_UTTERANCE_SAMPLES / 32_000} s per half (same folds; not calibrated)`,
      textIndependentLong,
    ],
    ['STATIC_PHRASE', `FSDD 10-digit phrases (${phrases.length}, ${fsddSpeakers.length} speakers)`, phraseScores],
    [
      'STATIC_PHRASE',
      `FSDD single digits (${digits.length}; ${refusedDigits} refused, < ${MIN_TEMPLATE_SPEECH_SECONDS} s speech, ` +
        'counted as non-matches)',
      digitScores,
    ],
    [
      'STATIC_PHRASE',
      `FSDD single digits, the ${accepted.length} accepted ones only (not calibrated)`,
      acceptedDigitScores,
    ],
  ];
  for (const scoring of ['normalised', 'raw'] as const) {
    for (const [sampleType, set, scoreSets] of sets) {
      const scores = scoreSets[scoring];
      for (const algorithm of VOICE_ALGORITHM_NAMES) {
        const sorted = sortScores({
          genuine: Float64Array.from(scores[algorithm].genuine),
          impostor: Float64Array.from(scores[algorithm].impostor),
        });
        rows.push({
          sampleType,
          set,
          algorithm,
          scoring,
          genuine: sorted.genuine.length,
          impostor: sorted.impostor.length,
          eer: equalErrorRate(sorted).eer,
          fnmrAtFmr1e2: fnmrAtFmr(sorted, 0.01).fnmr,
        });
      }
    }
  }

  // Timing: 5 s of speech from the first background utterances that have it.
  const fiveSeconds = background
    .filter((b) => b.speech.length >= 80_000)
    .slice(0, 5)
    .map((b) => b.speech.subarray(0, 80_000));
  // Wall-clock time and this thread's CPU time (process.cpuUsage: what one core spends, whatever else runs), median
  // over `timingRuns` runs of `work` on the inputs in turn.
  const timed = <T>(inputs: readonly T[], work: (input: T) => void): { wallMs: number; cpuMs: number } => {
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let run = 0; run < timingRuns; run++) {
      const input = inputs[run % inputs.length];
      if (input === undefined) break;
      const started = performance.now();
      const cpuStarted = process.cpuUsage();
      work(input);
      const used = process.cpuUsage(cpuStarted);
      wall.push(performance.now() - started);
      cpu.push((used.user + used.system) / 1000);
    }
    return { wallMs: median(wall), cpuMs: median(cpu) };
  };
  const timing: Record<string, { wallMs: number; cpuMs: number }> = {};
  const runs: [string, readonly VoiceAlgorithmName[]][] = [
    ...VOICE_ALGORITHM_NAMES.map((a): [string, readonly VoiceAlgorithmName[]] => [a, [a]]),
    ['V600+V900', VOICE_ALGORITHM_NAMES],
  ];
  for (const [name, algorithms] of runs)
    timing[name] = timed(fiveSeconds, (speech) => speakerVectors(speech, algorithms));
  // Score normalisation of one template (one scan of the cohort gallery), on top of the template.
  for (const algorithm of VOICE_ALGORITHM_NAMES) {
    const units = fiveSeconds.map((speech) => vectorOf(speakerVectors(speech, [algorithm]), algorithm));
    timing[`${algorithm} score normalisation n(x) (${shipped.cohort[algorithm].rows} cohort rows)`] = timed(
      units,
      (unit) => normalisedSpeakerVector(unit, algorithm),
    );
  }

  // V900's raw cosine is w·(V600 cosine) + (1 − w)·(supervector cosine): the supervector alone and other weights
  // follow from the two algorithms' raw scores of the same pairs (not from the normalised ones, which do not add up).
  const w = shipped.V900.statisticsWeight;
  const sweep: { weight: number; set: string; eer: number; fnmrAtFmr1e2: number }[] = [];
  for (const [, set, { raw: scores }] of sets) {
    // A refused pair (−∞ on both) stays refused at every weight.
    const gsv = (kind: keyof Scores): number[] =>
      scores.V900[kind].map((s, i) =>
        !Number.isFinite(s) ? s : w < 1 ? (s - w * (scores.V600[kind][i] ?? 0)) / (1 - w) : 0,
      );
    for (const weight of [0, 0.25, 0.5, 0.75, 1]) {
      const fused = (kind: keyof Scores): Float64Array =>
        Float64Array.from(gsv(kind), (g, i) => {
          const v600 = scores.V600[kind][i] ?? 0;
          return Number.isFinite(g) ? weight * v600 + (1 - weight) * g : g;
        });
      const sorted = sortScores({ genuine: fused('genuine'), impostor: fused('impostor') });
      sweep.push({ weight, set, eer: equalErrorRate(sorted).eer, fnmrAtFmr1e2: fnmrAtFmr(sorted, 0.01).fnmr });
    }
  }

  const pct = (x: number): string => `${(100 * x).toFixed(2)}%`;
  const sweepTable = [
    '| V600 weight in V900 (0 = supervector alone, 1 = V600) | set | EER | FNMR @ FMR 1e-2 |',
    '|---|---|---|---|',
    ...sweep.map((r) => `| ${r.weight} | ${r.set} | ${pct(r.eer)} | ${pct(r.fnmrAtFmr1e2)} |`),
  ].join('\n');
  const table = [
    '| scores | sample type | set | algorithm | genuine | impostor | EER | FNMR @ FMR 1e-2 |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.scoring === 'normalised' ? 'normalised (service)' : 'raw cosine (before)'} | ${r.sampleType} | ${r.set} | ${r.algorithm} | ${r.genuine} | ${r.impostor} | ${pct(r.eer)} | ${pct(r.fnmrAtFmr1e2)} |`,
    ),
  ].join('\n');
  const timingTable = [
    '| templates of 5 s of speech (median of runs) | wall-clock ms | CPU ms (one thread) |',
    '|---|---|---|',
    ...Object.entries(timing).map(([k, v]) => `| ${k} | ${v.wallMs.toFixed(1)} | ${v.cpuMs.toFixed(1)} |`),
  ].join('\n');
  console.log(`\n${table}\n\n${sweepTable}\n\n${timingTable}\n`);

  const date = new Date().toISOString().slice(0, 10);
  if (!values['no-calibration']) {
    const calibrationSets: [VoiceSampleType, string, Record<VoiceAlgorithmName, Scores>][] = [
      [
        'TEXT_INDEPENDENT',
        `LibriSpeech train-clean-100 background, ${background.length} speakers, ${folds}-fold leave-speakers-out: normalised scores n(a)·n(b) of impostor pairs of utterance halves of held-out speakers (fold models, each with its training speakers as cohort)`,
        textIndependent.normalised,
      ],
      [
        'STATIC_PHRASE',
        `FSDD 10-digit phrases, ${fsddSpeakers.length} speakers: normalised scores n(a)·n(b) of other-speaker pairs (shipped model and cohort, not trained on FSDD)`,
        phraseScores.normalised,
      ],
    ];
    for (const [sampleType, dataset, scores] of calibrationSets) {
      for (const algorithm of VOICE_ALGORITHM_NAMES) {
        const impostor = Float64Array.from(scores[algorithm].impostor).sort();
        const calibration = buildCalibrationTable(algorithm, impostor, { dataset, command, date });
        const path = join('src/engines/voice/calibration', `${algorithm}.${sampleType}.json`);
        writeFileSync(path, `${JSON.stringify(calibration, null, 1)}\n`);
        log(`wrote ${path}`);
      }
    }
  }
  mkdirSync('reports', { recursive: true });
  const md = [
    '# Voice verification (speaker templates)',
    '',
    `\`${command}\` on ${date}. Every sample decoded with decodeVoiceSample, Silero VAD speech frames widened by 256 ms (speaker-speech.ts), speakerVectors.`,
    'TEXT_INDEPENDENT: cross-validated (fold models trained on the other speakers, each with those speakers as its score-normalisation cohort); genuine = two halves of one utterance (same session: optimistic).',
    'STATIC_PHRASE: the shipped model (src/engines/voice/speaker-model.json) and its cohort, never trained on FSDD.',
    'Scores: "normalised" = n(a)·n(b) as the service answers (score-normalisation.ts; the calibration tables come from these); "raw cosine" = a·b of the same pairs, the figures before score normalisation.',
    'Timings share the machine with whatever else runs.',
    '',
    table,
    '',
    `V900 = √w·V600 ⊕ √(1−w)·supervector (shipped w = ${w}); other weights computed from the raw cosines of the same pairs:`,
    '',
    sweepTable,
    '',
    timingTable,
    '',
  ].join('\n');
  writeFileSync('reports/voice-verification.md', md);
  writeFileSync(
    'reports/voice-verification.json',
    JSON.stringify({ command, date, rows, weightSweep: sweep, timingMs: timing }, null, 1),
  );
  log('wrote reports/voice-verification.{md,json}');
}
