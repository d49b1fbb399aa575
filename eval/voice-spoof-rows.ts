/**
 * The feature rows of the voice spoof corpus, computed as the service meets each item: every file, bona
 * fide and attack alike, arrives as a browser recording would (upsampled by the engine's resampler to 48 or
 * 44.1 kHz, written as 16-bit PCM WAV), is decoded by the engine (`analyzeSample`: WAV parsing, clipping
 * count, the engine's resampler back to 16 kHz, Silero VAD), passes the service's gates (`livenessProblem`:
 * no speech, too little speech, clipped) and only then gets its spoof features. So no class keeps band-edge
 * content the other lacks (everything above the resampler's 7.36 kHz cutoff is gone for all), and a sample
 * the service would refuse is counted as refused, not scored. With the `opus` recording path every file
 * arrives instead as WebM/Opus from a 48 kHz recording, as browsers' MediaRecorder sends it (measured, not
 * trained on: an arrival of train-voice-spoof.ts `evaluateRows`).
 * Rows are cached beside the audio (keyed by file, feature version and path); the server never uses this.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lfcc } from '../src/engines/voice/features/lfcc.js';
import { powerSpectrogram } from '../src/engines/voice/features/power-spectrum.js';
import type { SpeechActivity } from '../src/engines/voice/voice-activity.js';
import { livenessProblem, type VoiceLivenessProblem } from '../src/engines/voice/voice-liveness-analysis.js';
import { analyzeSample, measurementOf } from '../src/engines/voice/voice-sample-analysis.js';
import { resample } from '../src/engines/voice/resampling.js';
import { harmonicity } from '../src/engines/voice/spoof-cues/harmonicity.js';
import { speechSamples } from '../src/engines/voice/voice-activity.js';
import {
  VOICE_SPOOF_FEATURE_NAMES,
  VOICE_SPOOF_FEATURE_VERSION,
  voiceSpoofFeatures,
} from '../src/engines/voice/voice-spoof-features.js';
import { isFiniteNumberArray, isRecord } from '../src/lib/json-guards.js';
import { webmOpusRecording } from '../test/helpers/speech.js';
import { readCorpusWav, wavBytes, type CorpusItem } from './voice-spoof-corpus.js';

/** The rates browsers record at (MediaRecorder / getUserMedia): items alternate between them. */
export const BROWSER_RATES = [48_000, 44_100] as const;

/** Length of the exploratory 0-8 kHz LFCC means kept with each row (c1..c29 of 40 filters). */
export const WIDE_LFCC_LENGTH = 29;

export interface SpoofRow {
  readonly item: CorpusItem;
  /** The shipped feature row (VOICE_SPOOF_FEATURE_NAMES); empty when the gates refuse the item. */
  readonly features: readonly number[];
  /**
   * Exploratory features, not shipped: 0-8 kHz LFCC means (40 filters), the 7-8 kHz band level, high-band
   * harmonicity and F0 curvature (spoof-cues/harmonicity.ts).
   */
  readonly wide: readonly number[];
  /** Why the service would answer UNABLE_TO_CALCULATE_LIVENESS for this item; undefined when it scores it. */
  readonly refused?: VoiceLivenessProblem;
}

/**
 * The corpus file as a browser recording at `rate` arrives at the service: the engine's own resampler up
 * to `rate`, then 16-bit PCM WAV bytes.
 *
 * @example
 * const bytes = asBrowserRecording(readCorpusWav(path), 48_000);
 */
export function asBrowserRecording(samples16k: Float32Array, rate: number): Uint8Array {
  return wavBytes(resample(samples16k, 16_000, rate), rate);
}

/**
 * How a corpus file reaches the service: a 48/44.1 kHz PCM WAV, or WebM/Opus at a bitrate (kbit/s) as
 * MediaRecorder sends it.
 */
export type RecordingPath = 'wav' | { readonly opusKbps: number };

/**
 * The corpus file as Chromium's MediaRecorder sends it: recorded at 48 kHz (the engine's resampler up),
 * encoded as Opus at `kbps` in WebM.
 *
 * @example
 * const bytes = await asOpusRecording(readCorpusWav(path), 32);
 */
export function asOpusRecording(samples16k: Float32Array, kbps: number): Promise<Uint8Array> {
  return webmOpusRecording(resample(samples16k, 16_000, 48_000), 48_000, kbps);
}

/** 0-8 kHz LFCC means over the speech frames, and log10 of the 7-8 kHz over the 0.3-4 kHz level. */
function wideFeatures(samples: Float32Array, activity: SpeechActivity): number[] {
  const spectrum = powerSpectrogram(samples, { sampleRate: 16_000 });
  const frameLength = 400;
  const speech = new Uint8Array(spectrum.frames);
  let count = 0;
  for (let f = 0; f < spectrum.frames; f++) {
    const centre = f * spectrum.hop + frameLength / 2;
    if (activity.speech[Math.floor(centre / activity.frameSamples)] === 1) {
      speech[f] = 1;
      count++;
    }
  }
  const selected = (f: number): boolean => count === 0 || speech[f] === 1;
  const width = WIDE_LFCC_LENGTH + 1;
  const cepstra = lfcc(spectrum, { filters: 40, coefficients: width, highHz: 8000 }).values;
  const means = new Array<number>(WIDE_LFCC_LENGTH).fill(0);
  let n = 0;
  let high = 0;
  let mid = 0;
  const binHz = spectrum.sampleRate / spectrum.fftLength;
  for (let f = 0; f < spectrum.frames; f++) {
    if (!selected(f)) continue;
    n++;
    for (let c = 1; c <= WIDE_LFCC_LENGTH; c++) means[c - 1] = (means[c - 1] ?? 0) + (cepstra[f * width + c] ?? 0);
    for (let k = 0; k < spectrum.bins; k++) {
      const hz = k * binHz;
      const p = spectrum.power[f * spectrum.bins + k] ?? 0;
      if (hz >= 7000) high += p;
      else if (hz >= 300 && hz < 4000) mid += p;
    }
  }
  const cues = harmonicity(count > 0 ? speechSamples(samples, activity) : samples);
  return [
    ...means.map((m) => m / Math.max(n, 1)),
    Math.log10((high + 1e-12) / (mid + 1e-12)),
    cues.highBand,
    cues.pitchCurvature,
  ];
}

interface CachedRow {
  readonly features: number[];
  readonly wide: number[];
  readonly refused?: VoiceLivenessProblem;
}

const PROBLEMS: readonly VoiceLivenessProblem[] = ['no-speech', 'too-short', 'clipped'];

function readCache(path: string): Map<string, CachedRow> {
  const rows = new Map<string, CachedRow>();
  if (!existsSync(path)) return rows;
  const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isRecord(json)) return rows;
  for (const [file, row] of Object.entries(json)) {
    if (!isRecord(row) || !isFiniteNumberArray(row.features) || !isFiniteNumberArray(row.wide)) continue;
    const refused = PROBLEMS.find((problem) => problem === row.refused);
    if (refused === undefined && row.features.length !== VOICE_SPOOF_FEATURE_NAMES.length) continue;
    rows.set(file, { features: [...row.features], wide: [...row.wide], ...(refused ? { refused } : {}) });
  }
  return rows;
}

/**
 * Every corpus item's row, computed as the service meets it arriving by `path` (see the file comment), read
 * from the cache in `cacheDir` when there.
 *
 * @example
 * const rows = await spoofRows(buildCorpus(options), '/tmp/veriport-voice-spoof');
 * const asOpus = await spoofRows(buildCorpus(options), '/tmp/veriport-voice-spoof', { opusKbps: 32 });
 * rows.filter((row) => row.refused !== undefined).length; // items the service would not score
 */
export async function spoofRows(
  items: readonly CorpusItem[],
  cacheDir: string,
  path: RecordingPath = 'wav',
): Promise<{ rows: SpoofRow[]; featureMsPer5s?: number }> {
  const suffix = path === 'wav' ? 'browser' : `opus${path.opusKbps}`;
  const cachePath = join(cacheDir, `rows-${VOICE_SPOOF_FEATURE_VERSION.replace('/', '-')}-${suffix}.json`);
  const cached = readCache(cachePath);
  const rows: SpoofRow[] = [];
  let featureMs = 0;
  let seconds = 0;
  let computed = 0;
  for (const [index, item] of items.entries()) {
    const known = cached.get(item.path);
    if (known !== undefined) {
      rows.push({ item, ...known });
      continue;
    }
    const rate = BROWSER_RATES[index % BROWSER_RATES.length] ?? 48_000;
    const samples = readCorpusWav(item.path);
    const bytes = path === 'wav' ? asBrowserRecording(samples, rate) : await asOpusRecording(samples, path.opusKbps);
    const sample = await analyzeSample(bytes);
    const refused = livenessProblem(measurementOf(sample));
    const started = performance.now();
    const features = refused === undefined ? [...voiceSpoofFeatures(sample.audio.samples, sample.activity).row] : [];
    featureMs += performance.now() - started;
    seconds += sample.audio.samples.length / 16_000;
    const wide = wideFeatures(sample.audio.samples, sample.activity);
    rows.push({ item, features, wide, ...(refused ? { refused } : {}) });
    computed++;
    if (computed % 200 === 0) {
      console.log(`features: ${computed} computed`);
      writeCache(cachePath, rows, cached);
    }
  }
  if (computed > 0) writeCache(cachePath, rows, cached);
  return computed > 0 ? { rows, featureMsPer5s: (featureMs / seconds) * 5 } : { rows };
}

/**
 * Writes `rows` over the cache read before (`cached`), so that rows of items not asked for this time stay.
 * Written beside and renamed, so that a run stopped mid-write, or another run reading the cache meanwhile,
 * never meets half a file.
 */
function writeCache(path: string, rows: readonly SpoofRow[], cached: ReadonlyMap<string, CachedRow>): void {
  const entries = new Map(cached);
  for (const row of rows)
    entries.set(row.item.path, {
      features: [...row.features],
      wide: [...row.wide],
      ...(row.refused ? { refused: row.refused } : {}),
    });
  writeFileSync(`${path}.part`, JSON.stringify(Object.fromEntries(entries)));
  renameSync(`${path}.part`, path);
}
