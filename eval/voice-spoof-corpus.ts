/**
 * The labelled corpus voice spoof detection is trained and evaluated on: bona fide speech from the
 * shared voice folder (LibriSpeech utterances, FSDD ten-digit phrases) and attacks generated here, cached
 * as 16 kHz mono 16-bit WAV under a folder outside the repository (default /tmp/veriport-voice-spoof):
 *  - `espeak`: espeak-ng, many voices and variants, speeds and pitches;
 *  - `flite`: flite's built-in voices (kal, kal16, awb, rms, slt) at varied duration stretch and pitch;
 *  - `festival`: festival's text2wave with the kal and ked diphone voices and the slt HTS voice;
 *  - `replay`: bona fide speech played through a simulated loudspeaker (high-pass roll-off, band limit,
 *    resonance) into a simulated room (reverb), with mains hum and re-recording noise, all by sox;
 *  - `tts-replay`: synthetic speech of any of the three engines replayed the same way;
 *  - `vocoded` (training only, never an evaluated kind): each bona fide item resynthesised by one of the
 *    vocoders of eval/voice-vocoding.ts (LPC pulse/noise, LPC harmonic+noise with a smoothed F0, Griffin-Lim),
 *    in its source's fold, and (when `withPsola` asks; measured, not in the shipped model) once more by
 *    TD-PSOLA on a piecewise-linear F0 contour. Made from bona fide speech alone, it stands for what
 *    synthesisers share;
 *  - `rerecorded` (training only, never an evaluated kind; made when `withRerecorded` asks, as the spoof
 *    eval does by default since 2026-11-25): each bona fide item played and re-recorded twice through a
 *    loudspeaker, image-source room and microphone simulated by eval/voice-rerecording.ts (our own code, not
 *    the sox chain of `replay`; no mains hum), once with the microphone across the room and once held close
 *    to the loudspeaker (since the eighteenth session), in its source's fold, babble from its own fold;
 *  - `room-live` (training only, live; made when `withRoomLive` asks, by default too): each bona fide item
 *    spoken in an image-source room to a microphone 0.2-1.5 m away, with background noise
 *    (eval/voice-room-capture.ts `captureInRoom`), in its source's fold.
 * `roomCapturedBonafide` gives the bona fide items captured in a room by another simulator (sox), to measure
 * held-out live speakers in a room; `closeBatteryReplays` the replays again from a battery-powered device held
 * close to the microphone, to measure replays without mains hum.
 * Every item belongs to one of three folds: bona fide by speaker (LibriSpeech speakers dealt round-robin,
 * FSDD's six speakers two per fold), replays by the fold of their bona fide source, TTS by text and voice.
 * The server never uses this; eval/train-voice-spoof.ts does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { seededRandom } from '../src/lib/seeded-random.js';
import { HELD_CLOSE, rerecord } from './voice-rerecording.js';
import { captureInRoom, soxRoomCapture } from './voice-room-capture.js';
import { VOCODERS, vocode } from './voice-vocoding.js';

export const ATTACK_KINDS = ['espeak', 'flite', 'festival', 'replay', 'tts-replay'] as const;
export type AttackKind = (typeof ATTACK_KINDS)[number];
/**
 * Classes made here for training only: in every fold's training set, never held out or scored. `room-live`
 * is live speech (labelled bona fide), the others attacks.
 */
export const TRAINING_ONLY_KINDS = ['vocoded', 'rerecorded', 'room-live'] as const;
export type TrainingOnlyKind = (typeof TRAINING_ONLY_KINDS)[number];
export type CorpusKind = 'bonafide' | AttackKind | TrainingOnlyKind;
export const FOLDS = 3;
/** The sets simulated from bona fide speech (training only): two kinds of re-recording and a live capture. */
type SimulatedSet = 'rerecorded' | 'rerecorded-close' | 'room-live';
/** A set's simulator: a bona fide item's samples, a seed and babble from its fold in; the result and its recipe. */
type Simulator = (
  samples: Float32Array,
  seed: number,
  babble: readonly Float32Array[],
) => { samples: Float32Array; recipe: string };
/**
 * The cache folder of a simulated set. Audio and rows are cached by path, so a simulator whose output changes
 * gets a new folder: `rerecorded` and `room-live` are in their second version (white hiss among the microphone
 * backgrounds, 2026-11-25).
 */
const SIMULATED_FOLDERS: Readonly<Record<SimulatedSet, string>> = {
  rerecorded: 'rerecorded-2',
  'rerecorded-close': 'rerecorded-close-1',
  'room-live': 'room-live-2',
};

export interface CorpusItem {
  readonly kind: CorpusKind;
  /** Speaker (bona fide, replay) or engine voice (TTS). */
  readonly source: string;
  readonly fold: number;
  /** 16 kHz mono 16-bit WAV in the cache. */
  readonly path: string;
  /** How it was made (engine and options, or the sox chain). */
  readonly recipe: string;
}

/** Sentences the TTS engines read (written for this corpus; any English text would do). */
const SENTENCES = [
  'The quick brown fox jumps over the lazy dog near the river bank.',
  'Please confirm my identity so that I can open the new account today.',
  'My voice is my password, verify me and let me through.',
  'She sells sea shells by the sea shore every summer morning.',
  'We will meet at the station at half past seven on Thursday.',
  'The weather in the mountains changed quickly after lunch.',
  'I would like to transfer two hundred euros to my savings account.',
  'Reading old books by the fire is how he spends his winter evenings.',
  'The committee approved the budget after a long discussion.',
  'Turn left at the second traffic light and park behind the bakery.',
  'A cup of strong coffee helps me start the working day.',
  'They painted the fence white and planted roses along the path.',
  'Our flight was delayed because of heavy fog over the airport.',
  'The children laughed as the puppy chased its own tail.',
  'Could you tell me the way to the nearest pharmacy, please?',
  'He forgot his umbrella on the train and got soaked in the rain.',
  'Numbers and letters together make the strongest passwords.',
  'The museum opens at ten and closes at six on weekdays.',
  'I have lived in this town for almost twenty years now.',
  'The orchestra played the symphony without a single mistake.',
  'Fresh bread from the market tastes better than anything else.',
  'Remember to lock the door and switch off the lights when you leave.',
  'The garden was full of bees and butterflies in the afternoon sun.',
  'Every morning the old man feeds the pigeons in the square.',
  'Her report explained the results clearly and in plain words.',
  'The ship sailed slowly out of the harbour at dawn.',
  'Tomorrow we are going to visit my grandmother in the country.',
  'This call may be recorded for quality and training purposes.',
  'Write the answer on the back of the card and hand it in.',
  'The engineer checked every cable before switching the power on.',
];
const DIGIT_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];

/** Texts: the sentences, then ten-digit strings like the FSDD phrases (deterministic). */
function texts(): string[] {
  const random = seededRandom(19);
  const digits = Array.from({ length: 15 }, () =>
    Array.from({ length: 10 }, () => DIGIT_WORDS[Math.floor(random() * 10)] ?? 'zero').join(' '),
  );
  return [...SENTENCES, ...digits];
}

const ESPEAK_VOICES = ['en-us', 'en', 'en-gb-scotland', 'en-gb-x-rp', 'en-gb-x-gbclan', 'en-029', 'en-gb-x-gbcwmd'];
const ESPEAK_VARIANTS = [
  '',
  'm1',
  'm2',
  'm3',
  'm4',
  'm5',
  'm6',
  'm7',
  'f1',
  'f2',
  'f3',
  'f4',
  'f5',
  'klatt',
  'klatt2',
  'klatt3',
  'klatt4',
  'croak',
  'Alex',
  'Andy',
  'annie',
  'adam',
  'belinda',
  'benjamin',
  'caleb',
  'david',
  'edward',
  'linda',
  'michel',
  'quincy',
  'steph',
  'travis',
  'robert',
  'shelby',
  'victor',
  'zac',
];
const FLITE_VOICES = ['kal', 'kal16', 'awb', 'rms', 'slt'];
const FESTIVAL_VOICES = ['kal_diphone', 'ked_diphone', 'cmu_us_slt_arctic_hts'];

function run(command: string, args: readonly string[], input?: string): void {
  const result = spawnSync(command, args, { input, stdio: ['pipe', 'ignore', 'pipe'], timeout: 60_000 });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr?.toString() ?? String(result.error)}`);
}

/** Resamples any audio file to the corpus format (16 kHz mono 16-bit), writing atomically. */
function toCorpusWav(input: string, output: string, effects: readonly string[] = []): void {
  const partial = `${output}.part.wav`;
  run('sox', [input, '-r', '16000', '-c', '1', '-b', '16', partial, ...effects, 'rate', '-v', '16000']);
  renameSync(partial, output);
}

/**
 * Where a replay is played from: a mains-powered loudspeaker in the room (the `replay` kinds: hum, sox's full
 * wet gain), or a battery-powered phone or tablet held close to the microphone (no hum; the direct sound
 * 4-10 dB over the room's, sox's wet gain -10..-4 dB).
 */
export type ReplayDevice = 'mains' | 'close-battery';

/** A replay chain: loudspeaker, room, hum, re-recording noise and microphone, drawn from `random`. */
function replayChain(
  random: () => number,
  device: ReplayDevice = 'mains',
): { effects: string[]; hum?: { frequency: number; db: number } } {
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] ?? (values[0] as T);
  const between = (low: number, high: number): number => Math.round((low + random() * (high - low)) * 10) / 10;
  // Loudspeaker: small drivers roll off below ~150-500 Hz; cheap ones stop at 3.5-7 kHz; a resonance bump.
  const effects = [
    'highpass',
    '-2',
    String(between(150, 500)),
    'lowpass',
    '-2',
    String(pick([3500, 4500, 5500, 7000, 7600])),
    'equalizer',
    String(between(800, 3000)),
    '1q',
    String(between(2, 7)),
  ];
  if (random() < 0.5) effects.push('overdrive', String(between(2, 8)));
  // Room: reverberance, room scale, pre-delay.
  effects.push('reverb', String(between(20, 80)), '50', String(between(30, 100)), '100', String(between(0, 20)));
  const hum = { frequency: pick([50, 60]), db: between(-50, -32) };
  // Drawn after the mains chain's draws, so that the `replay` kinds stay as they were.
  if (device === 'close-battery') {
    effects.push(String(between(-10, -4)), 'channels', '1');
    return { effects };
  }
  effects.push('channels', '1');
  return { effects, hum };
}

/** `seconds` of a sox `synth` signal (16 kHz mono 16-bit, seeded by -R) at `gainDb`, written to `path`. */
function synthesize(path: string, seconds: number, signal: readonly string[], gainDb: number): void {
  const format = ['-r', '16000', '-c', '1', '-b', '16'];
  run('sox', ['-R', '-n', ...format, path, 'synth', String(seconds), ...signal, 'gain', String(gainDb)]);
}

/**
 * Replays `input` to `output` from `device`: sox chain, then mains hum (from a mains-powered device) and pink
 * re-recording noise mixed in, then a microphone high-pass and normalisation.
 */
function replay(
  input: string,
  output: string,
  random: () => number,
  scratch: string,
  device: ReplayDevice = 'mains',
): string {
  const { effects, hum } = replayChain(random, device);
  const played = join(scratch, 'played.wav');
  // -R: sox's noise and dither seeded alike on every run, so that a replay is made the same way each time.
  run('sox', ['-R', input, '-r', '16000', '-c', '1', '-b', '16', played, ...effects, 'rate', '16000']);
  const duration = Number(spawnSync('soxi', ['-D', played]).stdout.toString().trim());
  const noise = join(scratch, 'noise.wav');
  const noiseDb = Math.round(-60 + random() * 25);
  synthesize(noise, duration, ['pinknoise'], noiseDb);
  const inputs = [played, noise];
  if (hum !== undefined) {
    const humOnly = join(scratch, 'hum.wav');
    synthesize(humOnly, duration, ['sine', String(hum.frequency)], hum.db);
    inputs.push(humOnly);
  }
  const partial = `${output}.part.wav`;
  run('sox', ['-R', '-m', ...inputs, '-b', '16', partial, 'highpass', '40', 'gain', '-n', '-3']);
  renameSync(partial, output);
  const humText = hum === undefined ? 'no hum' : `hum ${hum.frequency} Hz ${hum.db} dB`;
  return `sox ${effects.join(' ')}; ${humText}; pink noise ${noiseDb} dB`;
}

export interface CorpusOptions {
  /** The shared voice folder (holds background/ and dev/fsdd/). */
  readonly voiceDir: string;
  readonly cacheDir: string;
  /** Add the training-only attack class `rerecorded` (our own loudspeaker, room and microphone simulator). */
  readonly withRerecorded?: boolean;
  /** Add the training-only live class `room-live` (bona fide speech captured in a simulated room). */
  readonly withRoomLive?: boolean;
  /** Add each bona fide item once more as `vocoded`, re-prosodied by TD-PSOLA (eval/voice-vocoding.ts). */
  readonly withPsola?: boolean;
  readonly log?: (line: string) => void;
}

/**
 * Builds (or reads from the cache) the whole corpus: bona fide files and every attack kind.
 *
 * @example
 * const items = buildCorpus({ voiceDir: '../shared/data/voice', cacheDir: '/tmp/veriport-voice-spoof' });
 * items.filter((item) => item.kind === 'replay').length; // one replay per bona fide item
 */
export function buildCorpus(options: CorpusOptions): CorpusItem[] {
  const { voiceDir, cacheDir } = options;
  const log = options.log ?? (() => undefined);
  const scratch = join(cacheDir, 'scratch');
  for (const dir of ['bonafide', ...ATTACK_KINDS, 'vocoded', ...Object.values(SIMULATED_FOLDERS), 'scratch', 'raw'])
    mkdirSync(join(cacheDir, dir), { recursive: true });
  const items: CorpusItem[] = [];

  // Bona fide: LibriSpeech utterances (one per speaker), speakers dealt round-robin by id.
  const background = resolve(voiceDir, 'background');
  const libri = readdirSync(background)
    .filter((name) => name.endsWith('.wav'))
    .sort();
  libri.forEach((name, i) => {
    const path = join(cacheDir, 'bonafide', `ls-${name}`);
    if (!existsSync(path)) toCorpusWav(join(background, name), path);
    items.push({
      kind: 'bonafide',
      source: `ls-${name.split('-')[0] ?? name}`,
      fold: i % FOLDS,
      path,
      recipe: 'LibriSpeech',
    });
  });
  // FSDD: one phrase per speaker and repetition, its ten digits joined (no silence inserted between them).
  const fsddDir = resolve(voiceDir, 'dev', 'fsdd');
  const speakers = [...new Set(readdirSync(fsddDir).map((name) => name.split('_')[1] ?? ''))].filter(Boolean).sort();
  speakers.forEach((speaker, s) => {
    for (let repetition = 0; repetition < 30; repetition++) {
      const parts = DIGIT_WORDS.map((_, digit) => join(fsddDir, `${digit}_${speaker}_${repetition}.wav`));
      if (!parts.every((part) => existsSync(part))) continue;
      const path = join(cacheDir, 'bonafide', `fsdd-${speaker}-${repetition}.wav`);
      if (!existsSync(path)) {
        const joined = join(scratch, 'joined.wav');
        run('sox', [...parts, joined]);
        toCorpusWav(joined, path);
      }
      items.push({ kind: 'bonafide', source: `fsdd-${speaker}`, fold: s % FOLDS, path, recipe: 'FSDD digits 0-9' });
    }
  });
  log(`bona fide: ${items.length}`);

  const allTexts = texts();
  const random = seededRandom(2026);
  // espeak-ng: every voice x a sample of variants, each reading two texts at a drawn speed and pitch.
  let n = 0;
  for (const voice of ESPEAK_VOICES) {
    for (const variant of ESPEAK_VARIANTS) {
      if (random() > 0.55) continue;
      const text = allTexts[n % allTexts.length] ?? '';
      const speed = 120 + Math.floor(random() * 70);
      const pitch = 25 + Math.floor(random() * 50);
      const name = `${voice}${variant ? `+${variant}` : ''}`;
      const path = join(cacheDir, 'espeak', `${n}-${name}.wav`);
      if (!existsSync(path)) {
        const raw = join(cacheDir, 'raw', 'espeak.wav');
        run('espeak-ng', ['-v', name, '-s', String(speed), '-p', String(pitch), '-w', raw, text]);
        toCorpusWav(raw, path);
      }
      items.push({
        kind: 'espeak',
        source: name,
        fold: n % FOLDS,
        path,
        recipe: `espeak-ng -v ${name} -s ${speed} -p ${pitch}`,
      });
      n++;
    }
  }
  // flite: each voice reads every text at a drawn duration stretch and pitch.
  n = 0;
  for (const voice of FLITE_VOICES) {
    for (let t = 0; t < allTexts.length; t += 1) {
      if (random() > 0.7) continue;
      const stretch = (0.8 + random() * 0.5).toFixed(2);
      const f0 = String(Math.round(90 + random() * 110));
      const path = join(cacheDir, 'flite', `${n}-${voice}.wav`);
      if (!existsSync(path)) {
        const raw = join(cacheDir, 'raw', 'flite.wav');
        run('flite', [
          '-voice',
          voice,
          '--setf',
          `duration_stretch=${stretch}`,
          '--setf',
          `int_f0_target_mean=${f0}`,
          '-t',
          allTexts[t] ?? '',
          '-o',
          raw,
        ]);
        toCorpusWav(raw, path);
      }
      items.push({
        kind: 'flite',
        source: voice,
        fold: n % FOLDS,
        path,
        recipe: `flite -voice ${voice} duration_stretch=${stretch} f0=${f0}`,
      });
      n++;
    }
  }
  // festival: each voice reads every text (text2wave), some slowed or sped with sox tempo.
  n = 0;
  for (const voice of FESTIVAL_VOICES) {
    for (let t = 0; t < allTexts.length; t++) {
      if (random() > 0.7) continue;
      const tempo = (0.85 + random() * 0.3).toFixed(2);
      const path = join(cacheDir, 'festival', `${n}-${voice}.wav`);
      if (!existsSync(path)) {
        const raw = join(cacheDir, 'raw', 'festival.wav');
        run('text2wave', ['-eval', `(voice_${voice})`, '-o', raw], allTexts[t] ?? '');
        toCorpusWav(raw, path, ['tempo', '-s', tempo]);
      }
      items.push({
        kind: 'festival',
        source: voice,
        fold: n % FOLDS,
        path,
        recipe: `text2wave voice_${voice}, sox tempo ${tempo}`,
      });
      n++;
    }
  }
  log(`tts: ${items.length}`);

  // Replays of bona fide speech (each bona fide item once), in its source's fold.
  const bonafide = items.filter((item) => item.kind === 'bonafide');
  for (const [i, item] of bonafide.entries()) {
    const path = join(cacheDir, 'replay', `${i}.wav`);
    const recipeRandom = seededRandom(10_000 + i);
    let recipe = 'cached';
    if (!existsSync(path)) recipe = replay(item.path, path, recipeRandom, scratch);
    items.push({ kind: 'replay', source: item.source, fold: item.fold, path, recipe });
  }
  // TTS then replay: every second TTS item.
  const tts = items.filter((item) => item.kind === 'espeak' || item.kind === 'flite' || item.kind === 'festival');
  for (const [i, item] of tts.entries()) {
    if (i % 2 !== 0) continue;
    const path = join(cacheDir, 'tts-replay', `${i}.wav`);
    let recipe = 'cached';
    if (!existsSync(path)) recipe = replay(item.path, path, seededRandom(20_000 + i), scratch);
    items.push({ kind: 'tts-replay', source: `${item.kind}:${item.source}`, fold: item.fold, path, recipe });
  }
  // Vocoded bona fide (training only): each bona fide item once, the vocoder dealt round-robin.
  for (const [i, item] of bonafide.entries()) {
    const vocoder = VOCODERS[i % VOCODERS.length] ?? 'lpc-pulse';
    const path = join(cacheDir, 'vocoded', `${i}-${vocoder}.wav`);
    if (!existsSync(path)) writeCorpusWav(path, vocode(readCorpusWav(item.path), vocoder, 30_000 + i));
    items.push({ kind: 'vocoded', source: item.source, fold: item.fold, path, recipe: `${vocoder} of ${item.path}` });
  }
  // Re-recorded bona fide (training only, when asked), an attack; bona fide captured in a room (training
  // only, live, when asked).
  if (options.withRerecorded === true)
    items.push(
      ...simulatedFromBonafide(bonafide, cacheDir, 'rerecorded', 40_000, rerecord),
      ...simulatedFromBonafide(bonafide, cacheDir, 'rerecorded-close', 95_000, (samples, seed, babble) =>
        rerecord(samples, seed, babble, HELD_CLOSE),
      ),
    );
  if (options.withRoomLive === true)
    items.push(...simulatedFromBonafide(bonafide, cacheDir, 'room-live', 50_000, captureInRoom));
  // Bona fide re-prosodied by TD-PSOLA (training only, when asked): each item once more as `vocoded`.
  if (options.withPsola === true)
    for (const [i, item] of bonafide.entries()) {
      const path = join(cacheDir, 'vocoded', `${i}-td-psola.wav`);
      if (!existsSync(path)) writeCorpusWav(path, vocode(readCorpusWav(item.path), 'td-psola', 80_000 + i));
      items.push({ kind: 'vocoded', source: item.source, fold: item.fold, path, recipe: `td-psola of ${item.path}` });
    }
  log(`all: ${items.length}`);
  return items;
}

/**
 * Each bona fide item once through a simulator (seeded by `seedBase` + its index), cached in its
 * SIMULATED_FOLDERS folder, in its source's fold; babble from three other speakers' items of the same fold, so
 * that no test-fold speech enters a training item.
 */
function simulatedFromBonafide(
  bonafide: readonly CorpusItem[],
  cacheDir: string,
  set: SimulatedSet,
  seedBase: number,
  simulate: Simulator,
): CorpusItem[] {
  const kind: TrainingOnlyKind = set === 'room-live' ? 'room-live' : 'rerecorded';
  return bonafide.map((item, i) => {
    const path = join(cacheDir, SIMULATED_FOLDERS[set], `${i}.wav`);
    let recipe = 'cached';
    if (!existsSync(path)) {
      const result = simulate(readCorpusWav(item.path), seedBase + i, foldBabble(bonafide, item, i));
      recipe = result.recipe;
      writeCorpusWav(path, result.samples);
    }
    return { kind, source: item.source, fold: item.fold, path, recipe };
  });
}

/** Three other speakers' items of `item`'s fold, so that no test-fold speech enters a training item. */
function foldBabble(bonafide: readonly CorpusItem[], item: CorpusItem, i: number): Float32Array[] {
  const others = bonafide.filter((other) => other.fold === item.fold && other.source !== item.source);
  return [0, 1, 2].flatMap((k) => {
    const other = others[(i * 7 + k * 13) % Math.max(others.length, 1)];
    return other === undefined ? [] : [readCorpusWav(other.path)];
  });
}

function writeCorpusWav(path: string, samples: Float32Array): void {
  const partial = `${path}.part.wav`;
  writeFileSync(partial, wavBytes(samples, 16_000));
  renameSync(partial, path);
}

/**
 * The bona fide items captured live in a room by another simulator than the training class's
 * (voice-room-capture.ts `soxRoomCapture`), as the same items (kind, source, fold) at new paths: a second
 * arrival to score held-out speakers by (train-voice-spoof.ts `evaluateRows` arrivals), never trained on.
 *
 * @example
 * const captured = roomCapturedBonafide(items, '/tmp/veriport-voice-spoof');
 */
export function roomCapturedBonafide(items: readonly CorpusItem[], cacheDir: string): CorpusItem[] {
  mkdirSync(join(cacheDir, 'room-captured'), { recursive: true });
  return items
    .filter((item) => item.kind === 'bonafide')
    .map((item, i) => {
      const path = join(cacheDir, 'room-captured', `${i}.wav`);
      let recipe = 'cached';
      if (!existsSync(path)) {
        const result = soxRoomCapture(item.path, 60_000 + i);
        recipe = result.recipe;
        writeCorpusWav(path, result.samples);
      }
      return { ...item, path, recipe: `${item.recipe}, captured in a room: ${recipe}` };
    });
}

/**
 * The `replay` items again, each played from a battery-powered device held close to the microphone
 * (`ReplayDevice` 'close-battery': no mains hum, little room), as the same items (kind, source, fold) at new
 * paths: a second arrival of the replays to score held-out replays by (train-voice-spoof.ts `evaluateRows`
 * arrivals), never trained on. What a phone-to-phone replay gives, where the `replay` kinds always hum.
 *
 * @example
 * const close = closeBatteryReplays(items, '/tmp/veriport-voice-spoof');
 */
export function closeBatteryReplays(items: readonly CorpusItem[], cacheDir: string): CorpusItem[] {
  const scratch = join(cacheDir, 'scratch');
  for (const dir of ['close-replay', 'scratch']) mkdirSync(join(cacheDir, dir), { recursive: true });
  const bonafide = items.filter((item) => item.kind === 'bonafide');
  return items
    .filter((item) => item.kind === 'replay')
    .map((item, i) => {
      // buildCorpus makes replay i of bona fide item i.
      const source = bonafide[i];
      if (source?.source !== item.source) throw new Error('replays are made one per bona fide item, in order');
      const path = join(cacheDir, 'close-replay', `${i}.wav`);
      let recipe = 'cached';
      if (!existsSync(path)) recipe = replay(source.path, path, seededRandom(70_000 + i), scratch, 'close-battery');
      return { ...item, path, recipe };
    });
}

/**
 * Reads a 16-bit PCM WAV written by sox (the corpus format) as Float32 samples in [-1, 1).
 *
 * @example
 * const samples = readCorpusWav('/tmp/veriport-voice-spoof/bonafide/ls-103-1240-0000.wav');
 * @throws {Error} when the file is not 16 kHz mono 16-bit PCM
 */
export function readCorpusWav(path: string): Float32Array {
  const bytes = readFileSync(path);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 12;
  let format: { channels: number; rate: number; bits: number } | undefined;
  while (offset + 8 <= bytes.length) {
    const id = bytes.toString('latin1', offset, offset + 4);
    const size = view.getUint32(offset + 4, true);
    if (id === 'fmt ') {
      format = {
        channels: view.getUint16(offset + 10, true),
        rate: view.getUint32(offset + 12, true),
        bits: view.getUint16(offset + 22, true),
      };
    } else if (id === 'data') {
      if (format?.channels !== 1 || format.rate !== 16_000 || format.bits !== 16)
        throw new Error(`${path} is not 16 kHz mono 16-bit PCM`);
      const count = Math.floor(Math.min(size, bytes.length - offset - 8) / 2);
      const samples = new Float32Array(count);
      for (let i = 0; i < count; i++) samples[i] = view.getInt16(offset + 8 + 2 * i, true) / 32768;
      return samples;
    }
    offset += 8 + size + (size % 2);
  }
  throw new Error(`${path} has no data chunk`);
}

/**
 * Mono 16-bit PCM WAV bytes of samples in [-1, 1] (beyond it: clipped to full scale, as a recorder would).
 *
 * @example
 * writeFileSync('out.wav', wavBytes(samples, 16_000));
 */
export function wavBytes(samples: Float32Array, rate: number): Uint8Array {
  const bytes = new Uint8Array(44 + 2 * samples.length);
  const view = new DataView(bytes.buffer);
  const ascii = (offset: number, text: string): void => {
    for (let i = 0; i < text.length; i++) bytes[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + 2 * samples.length, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true);
  view.setUint16(22, 1, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, 2 * samples.length, true);
  for (let i = 0; i < samples.length; i++)
    view.setInt16(44 + 2 * i, Math.max(-32768, Math.min(32767, Math.round((samples[i] ?? 0) * 32768))), true);
  return bytes;
}
