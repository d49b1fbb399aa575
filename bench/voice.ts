/**
 * Voice engine cost of one 5 s sample on one thread, per stage, against issue 19's goal (a 5 s sample analysed
 * in ≤ 150 ms on one core): WAV decoding (48 kHz stereo, resampled to 16 kHz), Silero VAD, the V600 + V900
 * templates and the spoof score, each timed in this process after a warm-up. CPU time (process.cpuUsage: every
 * thread, onnxruntime's included) is the cost on one core and moves far less than wall time when other work
 * shares the machine. Run alone: `tsx bench/voice.ts [--rounds N]`; `npm run bench -- --only voice` runs it too.
 * Writes reports/bench-voice.{md,json}. The sample is espeak-ng speech (installed by scripts/setup-system.sh).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { speakerSpeech } from '../src/engines/voice/speaker-speech.js';
import { speakerVectors } from '../src/engines/voice/speaker-template.js';
import { detectSpeech } from '../src/engines/voice/voice-activity.js';
import { decodeVoiceSample } from '../src/engines/voice/voice-decoding.js';
import { voiceSpoofScore } from '../src/engines/voice/voice-spoof-detection.js';
import { median } from '../src/lib/median.js';
import { interleave, resampleWithSox, synthesizeSpeech, wavFile } from '../test/helpers/speech.js';
import { machineDescription } from './machine.js';

const STAGES = ['decode', 'vad', 'templates', 'spoof'] as const;
type Stage = (typeof STAGES)[number];

/** Per-stage medians over the rounds, in ms. */
export interface VoiceBenchResult {
  readonly seconds: number;
  readonly rounds: number;
  readonly load: number;
  /** Cores × CPU model and Node version: the same machine kind has come with CPUs about 1.8× apart. */
  readonly machine: string;
  readonly cpuMs: Readonly<Record<Stage | 'total', number>>;
  readonly wallMs: Readonly<Record<Stage | 'total', number>>;
}

const TEXT =
  'The north wind and the sun were disputing which was the stronger, when a traveller came along ' +
  'wrapped in a warm cloak.';

/** A 48 kHz stereo 16-bit WAV of about `seconds` of espeak-ng speech: what a desktop recorder uploads. */
async function sampleWav(seconds: number): Promise<Uint8Array> {
  const speech = await synthesizeSpeech({ text: TEXT, voice: 'en-us', variant: 'm3' });
  const cut = speech.subarray(0, Math.min(speech.length, Math.round(seconds * 16_000)));
  const at48k = await resampleWithSox(cut, 16_000, 48_000);
  return wavFile(interleave(at48k, at48k), 48_000, 16, 2);
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

/**
 * Times the voice engine's stages on one sample, `rounds` times after two warm-up passes.
 *
 * @example
 * const result = await benchVoice({ rounds: 20 });
 * result.cpuMs.total; // e.g. 90
 */
export async function benchVoice(options: { rounds?: number; seconds?: number } = {}): Promise<VoiceBenchResult> {
  const rounds = options.rounds ?? 20;
  const seconds = options.seconds ?? 5;
  const wav = await sampleWav(seconds);
  const cpu: Record<Stage, number[]> = { decode: [], vad: [], templates: [], spoof: [] };
  const wall: Record<Stage, number[]> = { decode: [], vad: [], templates: [], spoof: [] };
  const totals = { cpu: [] as number[], wall: [] as number[] };
  for (let round = -2; round < rounds; round++) {
    const times: Partial<Record<Stage, { cpu: number; wall: number }>> = {};
    const timed = async <T>(stage: Stage, run: () => T | Promise<T>): Promise<T> => {
      const cpuStart = process.cpuUsage();
      const wallStart = performance.now();
      const result = await run();
      times[stage] = { cpu: cpuMsSince(cpuStart), wall: performance.now() - wallStart };
      return result;
    };
    const audio = await timed('decode', () => decodeVoiceSample(wav));
    const activity = await timed('vad', () => detectSpeech(audio.samples));
    await timed('templates', () => speakerVectors(speakerSpeech(audio.samples, activity), ['V600', 'V900']));
    await timed('spoof', () => voiceSpoofScore(audio.samples, activity));
    if (round < 0) continue;
    let cpuTotal = 0;
    let wallTotal = 0;
    for (const stage of STAGES) {
      const time = times[stage];
      if (time === undefined) throw new Error(`stage ${stage} was not timed`);
      cpu[stage].push(time.cpu);
      wall[stage].push(time.wall);
      cpuTotal += time.cpu;
      wallTotal += time.wall;
    }
    totals.cpu.push(cpuTotal);
    totals.wall.push(wallTotal);
  }
  const medians = (values: Record<Stage, number[]>, total: number[]): Record<Stage | 'total', number> => ({
    decode: median(values.decode, 'mean'),
    vad: median(values.vad, 'mean'),
    templates: median(values.templates, 'mean'),
    spoof: median(values.spoof, 'mean'),
    total: median(total, 'mean'),
  });
  return {
    seconds,
    rounds,
    load: loadavg()[0] ?? 0,
    machine: machineDescription(),
    cpuMs: medians(cpu, totals.cpu),
    wallMs: medians(wall, totals.wall),
  };
}

/**
 * The result as a Markdown table.
 *
 * @example
 * console.log(voiceBenchTable(await benchVoice()));
 */
export function voiceBenchTable(result: VoiceBenchResult): string {
  const row = (name: string, key: Stage | 'total'): string =>
    `| ${name} | ${result.cpuMs[key].toFixed(1)} | ${result.wallMs[key].toFixed(1)} |`;
  return [
    `Voice engine, one ${result.seconds} s sample (48 kHz stereo WAV of espeak-ng speech), one thread, median of ` +
      `${result.rounds} (${result.machine}); load average ${result.load.toFixed(2)}. Goal: ≤ 150 ms on one core.`,
    '',
    '| stage | CPU ms | wall ms |',
    '|---|---|---|',
    row('decode + resample', 'decode'),
    row('Silero VAD', 'vad'),
    row('templates V600 + V900', 'templates'),
    row('spoof score', 'spoof'),
    row('**total**', 'total'),
  ].join('\n');
}

/**
 * Writes reports/bench-voice.{md,json}.
 *
 * @example
 * writeVoiceBenchReport(await benchVoice());
 */
export function writeVoiceBenchReport(result: VoiceBenchResult): void {
  mkdirSync('reports', { recursive: true });
  writeFileSync('reports/bench-voice.json', `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync('reports/bench-voice.md', `# Voice engine bench\n\n${voiceBenchTable(result)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' } } });
  const result = await benchVoice({ rounds: Number(values.rounds) });
  console.log(voiceBenchTable(result));
  writeVoiceBenchReport(result);
}
