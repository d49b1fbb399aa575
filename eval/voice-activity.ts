/**
 * `npm run eval -- voice-activity <dir> [--limit N] [--snr 15] [--pad 1]`
 *
 * The voice activity detector (src/engines/voice/voice-activity.ts) on the files of `<dir>/labels.csv`
 * (every task: dev and background): decoded with decodeVoiceSample, then measured as recorded and again
 * with `--pad` seconds of silence on each side and white noise at `--snr` dB (speech power over the
 * non-silent samples; test/helpers/speech.ts addNoise, seeded per file). The reference is the row's
 * `speech_s`; rows without one get an energy reference measured on the clean recording (10 ms frames within
 * 35 dB of the loudest and above -60 dBFS, gaps under 200 ms bridged: the spoken span without its long
 * pauses), and the table says how many rows used it. Per dataset and condition: mean absolute error, mean
 * signed error (VAD − reference), and the real-time factor of decoding and of the VAD (processing seconds
 * per audio second, one thread). Writes reports/voice-activity.{md,json} (the JSON with the 25 worst files).
 * Timings share the machine with whatever else runs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { detectSpeech, loadVoiceActivityModel } from '../src/engines/voice/voice-activity.js';
import { decodeVoiceSample, VOICE_SAMPLE_RATE } from '../src/engines/voice/voice-decoding.js';
import { addNoise, padSilence } from '../test/helpers/speech.js';
import { readVoiceLabels } from './voice-labels.js';

/** Seconds of speech by frame energy on a clean recording: the reference where labels.csv has no speech_s. */
export function energySpeechSeconds(samples: Float32Array, sampleRate = VOICE_SAMPLE_RATE): number {
  const frame = Math.round(sampleRate / 100);
  const frames = Math.floor(samples.length / frame);
  const levels = new Float64Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * frame; i < (f + 1) * frame; i++) sum += (samples[i] ?? 0) ** 2;
    levels[f] = 10 * Math.log10(sum / frame + 1e-12);
  }
  const threshold = Math.max(Math.max(...levels) - 35, -60);
  let count = 0;
  let lastActive = -1;
  for (let f = 0; f < frames; f++) {
    if ((levels[f] ?? -Infinity) <= threshold) continue;
    // Bridge a pause shorter than 200 ms (stop closures, breaths between words).
    count += lastActive >= 0 && f - lastActive <= 20 ? f - lastActive : 1;
    lastActive = f;
  }
  return (count * frame) / sampleRate;
}

interface Row {
  readonly path: string;
  readonly dataset: string;
  readonly reference: number;
  readonly referenceKind: 'speech_s' | 'energy';
  readonly duration: number;
  readonly quiet: number;
  readonly noisy: number;
  readonly decodeMs: number;
  readonly quietVadMs: number;
}

interface Summary {
  readonly dataset: string;
  readonly files: number;
  readonly energyReferences: number;
  readonly audioSeconds: number;
  readonly maeQuiet: number;
  readonly biasQuiet: number;
  readonly maeNoisy: number;
  readonly biasNoisy: number;
  readonly decodeRtf: number;
  readonly vadRtf: number;
}

function summarise(dataset: string, rows: readonly Row[]): Summary {
  const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  const audioSeconds = rows.reduce((sum, row) => sum + row.duration, 0);
  return {
    dataset,
    files: rows.length,
    energyReferences: rows.filter((row) => row.referenceKind === 'energy').length,
    audioSeconds,
    maeQuiet: mean(rows.map((row) => Math.abs(row.quiet - row.reference))),
    biasQuiet: mean(rows.map((row) => row.quiet - row.reference)),
    maeNoisy: mean(rows.map((row) => Math.abs(row.noisy - row.reference))),
    biasNoisy: mean(rows.map((row) => row.noisy - row.reference)),
    decodeRtf: rows.reduce((sum, row) => sum + row.decodeMs, 0) / 1000 / audioSeconds,
    vadRtf: rows.reduce((sum, row) => sum + row.quietVadMs, 0) / 1000 / audioSeconds,
  };
}

/**
 * Measures the voice activity detector on a labelled folder; the `voice` suite calls it for its VAD part.
 *
 * @example
 * const { summaries } = await measureVoiceActivity('../shared/data/voice', { snrDb: 15, padSeconds: 1 });
 */
export async function measureVoiceActivity(
  dir: string,
  options: { readonly limit?: number; readonly snrDb: number; readonly padSeconds: number },
): Promise<{ readonly rows: Row[]; readonly summaries: Summary[] }> {
  await loadVoiceActivityModel();
  const labels = readVoiceLabels(dir).filter((label) => label.label === 'live' || label.label === '');
  const selected = options.limit === undefined ? labels : labels.slice(0, options.limit);
  const rows: Row[] = [];
  for (const [index, label] of selected.entries()) {
    const bytes = new Uint8Array(readFileSync(join(dir, label.path)));
    let started = performance.now();
    const audio = await decodeVoiceSample(bytes);
    const decodeMs = performance.now() - started;
    started = performance.now();
    const quiet = await detectSpeech(audio.samples);
    const quietVadMs = performance.now() - started;
    const noisySamples = addNoise(
      padSilence(audio.samples, options.padSeconds, options.padSeconds),
      options.snrDb,
      index + 1,
    );
    const noisy = await detectSpeech(noisySamples);
    rows.push({
      path: label.path,
      dataset: label.dataset,
      reference: label.speechSeconds ?? energySpeechSeconds(audio.samples),
      referenceKind: label.speechSeconds === undefined ? 'energy' : 'speech_s',
      duration: audio.samples.length / VOICE_SAMPLE_RATE,
      quiet: quiet.speechSeconds,
      noisy: noisy.speechSeconds,
      decodeMs,
      quietVadMs,
    });
    if ((index + 1) % 200 === 0) console.error(`voice-activity: ${index + 1}/${selected.length}`);
  }
  const datasets = [...new Set(rows.map((row) => row.dataset))].sort();
  const summaries = [
    ...datasets.map((dataset) =>
      summarise(
        dataset,
        rows.filter((row) => row.dataset === dataset),
      ),
    ),
    summarise('all', rows),
  ];
  return { rows, summaries };
}

/** Formats a table of VAD summaries (Markdown). */
export function voiceActivityTable(summaries: readonly Summary[], snrDb: number, padSeconds: number): string {
  const lines = [
    `| dataset | files | energy refs | audio s | MAE quiet s | bias quiet s | MAE ${snrDb} dB noise + ${padSeconds} s pads | bias noisy s | decode RTF | VAD RTF |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const s of summaries) {
    lines.push(
      `| ${s.dataset} | ${s.files} | ${s.energyReferences} | ${s.audioSeconds.toFixed(0)} | ${s.maeQuiet.toFixed(3)} | ${s.biasQuiet.toFixed(3)} | ${s.maeNoisy.toFixed(3)} | ${s.biasNoisy.toFixed(3)} | ${s.decodeRtf.toFixed(4)} | ${s.vadRtf.toFixed(4)} |`,
    );
  }
  return lines.join('\n');
}

/** The `voice-activity` eval suite. */
export async function evalVoiceActivity(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      limit: { type: 'string' },
      snr: { type: 'string', default: '15' },
      pad: { type: 'string', default: '1' },
    },
  });
  const [dir] = positionals;
  if (dir === undefined)
    throw new Error('usage: npm run eval -- voice-activity <dir> [--limit N] [--snr dB] [--pad s]');
  const snrDb = Number(values.snr);
  const padSeconds = Number(values.pad);
  const limit = values.limit === undefined ? undefined : Number(values.limit);
  const { rows, summaries } = await measureVoiceActivity(dir, { limit, snrDb, padSeconds });
  const table = voiceActivityTable(summaries, snrDb, padSeconds);
  console.log(table);
  mkdirSync('reports', { recursive: true });
  const command = `npm run eval -- voice-activity ${argv.join(' ')}`;
  writeFileSync(
    'reports/voice-activity.md',
    `# Voice activity\n\n\`${command}\` (${new Date().toISOString().slice(0, 10)})\n\n${table}\n`,
  );
  // The 25 files with the largest quiet error, for a look; every row would be ~0.5 MB.
  const worst = [...rows]
    .sort((a, b) => Math.abs(b.quiet - b.reference) - Math.abs(a.quiet - a.reference))
    .slice(0, 25);
  writeFileSync('reports/voice-activity.json', JSON.stringify({ command, summaries, worst }, null, 1));
}
