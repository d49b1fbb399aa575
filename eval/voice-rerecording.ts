/**
 * Re-recorded bona fide speech: a training-only attack class for voice spoof detection, bona fide speech
 * played through a loudspeaker into a room and picked up by a microphone, simulated here by code of our own
 * so that it is a different simulator from the sox chain of the evaluated `replay` kinds
 * (eval/voice-spoof-corpus.ts): a model trained on it and tested on held-out `replay` meets an unseen
 * simulator and device set, as ASVspoof physical access trains on some rooms and devices and tests on others.
 *  - room: a shoebox impulse response by the image-source method (Allen & Berkley 1979): room 3-8 m a side,
 *    one frequency-independent wall absorption, source and microphone drawn inside, images up to a 0.3-0.6 s
 *    truncation, each a windowed-sinc fractional delay of distance / c with gain β^reflections / distance;
 *  - loudspeaker: a resonant high-pass (80-400 Hz), a gentle high-frequency roll-off and one or two peaks
 *    or dips (RBJ biquads), optional tanh soft clipping;
 *  - microphone: a first-order high-pass, white self-noise and a background at low level (brown noise, white
 *    hiss, or babble made of other bona fide items of the same fold).
 *  - placement: the microphone across the room from the loudspeaker (0.3-2.5 m, a replay from a loudspeaker in
 *    the room) or held close to it (5-35 cm, a phone playing into another phone: the direct sound dominates).
 * No mains hum: the sox chain has it, this one leaves it unseen. Eval code only: the server never runs it.
 * Deterministic for a given seed.
 */
import { fft1d } from '../src/lib/fft.js';
import { seededRandom } from '../src/lib/seeded-random.js';

const RATE = 16_000;

/** Loudspeaker-to-microphone distances (m) a re-recording draws from. */
export type Reach = readonly [number, number];
/** A loudspeaker in the room, the microphone 0.3-2.5 m away. */
export const ACROSS_ROOM: Reach = [0.3, 2.5];
/** A phone or tablet held 5-35 cm from the microphone. */
export const HELD_CLOSE: Reach = [0.05, 0.35];
/** Speed of sound, m/s. */
export const SPEED_OF_SOUND = 343;
/** Half-length of the windowed-sinc fractional delay, samples. */
const SINC_HALF = 8;

export type Point = readonly [number, number, number];

export interface Room {
  /** Room dimensions (x, y, z), metres. */
  readonly size: Point;
  readonly source: Point;
  readonly microphone: Point;
  /** Energy absorption coefficient of every wall, in (0, 1); the pressure reflection factor is √(1 − α). */
  readonly absorption: number;
  /** Truncation of the impulse response, seconds. */
  readonly length: number;
}

const distance = (a: Point, b: Point): number => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/**
 * The shoebox room impulse response from `source` to `microphone` by the image-source method, sampled at
 * `rate`: every image (mirror index n and parity q per axis, reflections |n − q| + |n| per axis) closer than
 * length · c adds β^reflections / (4π d) at delay d / c, spread by a Hann-windowed sinc.
 *
 * @example
 * const room = { size: [5, 4, 3], source: [1, 1, 1.5], microphone: [3, 2, 1.2], absorption: 0.3, length: 0.4 };
 * const rir = imageSourceImpulseResponse(room);
 * rir.length; // 6400 samples at 16 kHz
 */
export function imageSourceImpulseResponse(room: Room, rate = RATE): Float64Array {
  const { size, source, microphone, absorption, length } = room;
  const taps = Math.round(length * rate);
  const rir = new Float64Array(taps);
  const beta = Math.sqrt(1 - absorption);
  const maxDistance = length * SPEED_OF_SOUND;
  const limits = size.map((l) => Math.ceil(maxDistance / (2 * l)) + 1);
  const [lx, ly, lz] = size;
  const [nxMax, nyMax, nzMax] = [limits[0] ?? 1, limits[1] ?? 1, limits[2] ?? 1];
  // Per axis: the image coordinate and reflection count of every (n, q).
  const axis = (s: number, l: number, nMax: number): { offset: number; reflections: number }[] => {
    const out: { offset: number; reflections: number }[] = [];
    for (let n = -nMax; n <= nMax; n++)
      for (const q of [0, 1])
        out.push({ offset: (1 - 2 * q) * s + 2 * n * l, reflections: Math.abs(n - q) + Math.abs(n) });
    return out;
  };
  const xs = axis(source[0], lx, nxMax);
  const ys = axis(source[1], ly, nyMax);
  const zs = axis(source[2], lz, nzMax);
  for (const x of xs) {
    const dx = x.offset - microphone[0];
    if (Math.abs(dx) > maxDistance) continue;
    for (const y of ys) {
      const dy = y.offset - microphone[1];
      const dxy = dx * dx + dy * dy;
      if (dxy > maxDistance * maxDistance) continue;
      for (const z of zs) {
        const dz = z.offset - microphone[2];
        const d = Math.sqrt(dxy + dz * dz);
        const delay = (d / SPEED_OF_SOUND) * rate;
        if (delay >= taps - SINC_HALF) continue;
        const gain = beta ** (x.reflections + y.reflections + z.reflections) / (4 * Math.PI * Math.max(d, 0.05));
        const centre = Math.round(delay);
        for (let k = centre - SINC_HALF; k <= centre + SINC_HALF; k++) {
          if (k < 0 || k >= taps) continue;
          const t = k - delay;
          const sinc = t === 0 ? 1 : Math.sin(Math.PI * t) / (Math.PI * t);
          const window = 0.5 + 0.5 * Math.cos((Math.PI * t) / (SINC_HALF + 1));
          rir[k] = (rir[k] ?? 0) + gain * sinc * window;
        }
      }
    }
  }
  return rir;
}

/** Linear convolution by FFT (zero-padded to a power of two), the first `signal.length` samples. */
export function convolve(signal: Float32Array | Float64Array, kernel: Float64Array): Float64Array {
  let size = 1;
  while (size < signal.length + kernel.length) size *= 2;
  const aRe = new Float64Array(size);
  const aIm = new Float64Array(size);
  const bRe = new Float64Array(size);
  const bIm = new Float64Array(size);
  aRe.set(signal);
  bRe.set(kernel);
  fft1d(aRe, aIm);
  fft1d(bRe, bIm);
  for (let k = 0; k < size; k++) {
    const re = (aRe[k] ?? 0) * (bRe[k] ?? 0) - (aIm[k] ?? 0) * (bIm[k] ?? 0);
    const im = (aRe[k] ?? 0) * (bIm[k] ?? 0) + (aIm[k] ?? 0) * (bRe[k] ?? 0);
    // Inverse by the forward transform of the conjugate.
    aRe[k] = re;
    aIm[k] = -im;
  }
  fft1d(aRe, aIm);
  const out = new Float64Array(signal.length);
  for (let i = 0; i < out.length; i++) out[i] = (aRe[i] ?? 0) / size;
  return out;
}

interface Biquad {
  readonly b: readonly [number, number, number];
  readonly a: readonly [number, number];
}

/** RBJ audio-EQ-cookbook biquads, normalised so that a0 = 1. */
function biquad(type: 'highpass' | 'lowpass' | 'peak', frequency: number, q: number, gainDb = 0): Biquad {
  const w = (2 * Math.PI * frequency) / RATE;
  const cos = Math.cos(w);
  const alpha = Math.sin(w) / (2 * q);
  const amplitude = 10 ** (gainDb / 40);
  let b: [number, number, number];
  let a: [number, number, number];
  if (type === 'highpass') {
    b = [(1 + cos) / 2, -(1 + cos), (1 + cos) / 2];
    a = [1 + alpha, -2 * cos, 1 - alpha];
  } else if (type === 'lowpass') {
    b = [(1 - cos) / 2, 1 - cos, (1 - cos) / 2];
    a = [1 + alpha, -2 * cos, 1 - alpha];
  } else {
    b = [1 + alpha * amplitude, -2 * cos, 1 - alpha * amplitude];
    a = [1 + alpha / amplitude, -2 * cos, 1 - alpha / amplitude];
  }
  return { b: [b[0] / a[0], b[1] / a[0], b[2] / a[0]], a: [a[1] / a[0], a[2] / a[0]] };
}

function filter(samples: Float64Array, { b, a }: Biquad): Float64Array {
  const out = new Float64Array(samples.length);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < samples.length; i++) {
    const x = samples[i] ?? 0;
    const y = b[0] * x + b[1] * x1 + b[2] * x2 - a[0] * y1 - a[1] * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    out[i] = y;
  }
  return out;
}

const rms = (samples: Float64Array | Float32Array): number => {
  let sum = 0;
  for (const v of samples) sum += v * v;
  return Math.sqrt(sum / Math.max(samples.length, 1));
};

/**
 * Plays `samples` (16 kHz) through a loudspeaker into a room and re-records them, every setting drawn from
 * `seed`. `babble` holds other bona fide items to mix in at low level as background talk (when drawn);
 * `reach` the range the microphone's distance from the loudspeaker is drawn from.
 *
 * @example
 * const { samples, recipe } = rerecord(readCorpusWav(path), 40_000, [other1, other2]);
 * const close = rerecord(readCorpusWav(path), 95_000, [other1], HELD_CLOSE);
 */
export function rerecord(
  samples: Float32Array,
  seed: number,
  babble: readonly Float32Array[] = [],
  reach: Reach = ACROSS_ROOM,
): { samples: Float32Array; recipe: string } {
  const random = seededRandom(seed);
  const between = (low: number, high: number): number => low + random() * (high - low);
  const r1 = (v: number): string => v.toFixed(1);
  const recipe: string[] = [];

  // Loudspeaker.
  let x: Float64Array = Float64Array.from(samples);
  const highpass = between(80, 400);
  const highpassQ = between(0.7, 2.5);
  x = filter(x, biquad('highpass', highpass, highpassQ));
  recipe.push(`speaker hp ${Math.round(highpass)} Hz Q ${highpassQ.toFixed(2)}`);
  const rolloff = between(4000, 7800);
  const rolloffQ = between(0.5, 0.8);
  x = filter(x, biquad('lowpass', rolloff, rolloffQ));
  recipe.push(`lp ${Math.round(rolloff)} Hz Q ${rolloffQ.toFixed(2)}`);
  const peaks = 1 + Math.floor(random() * 2);
  for (let p = 0; p < peaks; p++) {
    const frequency = between(600, 6000);
    const gain = between(-6, 8);
    const q = between(1, 4);
    x = filter(x, biquad('peak', frequency, q, gain));
    recipe.push(`peak ${Math.round(frequency)} Hz ${r1(gain)} dB Q ${q.toFixed(1)}`);
  }
  if (random() < 0.4) {
    const drive = between(1.5, 4);
    const peak = x.reduce((m, v) => Math.max(m, Math.abs(v)), 1e-9);
    for (let i = 0; i < x.length; i++) x[i] = Math.tanh((drive * (x[i] ?? 0)) / peak) / Math.tanh(drive);
    recipe.push(`tanh drive ${r1(drive)}`);
  }

  // Room.
  const size: Point = [between(3, 8), between(3, 8), between(2.4, 4)];
  const inside = (margin: number): Point => [
    between(margin, size[0] - margin),
    between(margin, size[1] - margin),
    between(margin, Math.min(size[2] - margin, 2)),
  ];
  const source = inside(0.5);
  // The microphone `reach` from the loudspeaker, inside the room.
  let microphone = inside(0.3);
  const away = between(...reach);
  const direction = distance(microphone, source) || 1;
  const toward = (k: 0 | 1 | 2): number => {
    const value = source[k] + ((microphone[k] - source[k]) * away) / direction;
    return Math.min(Math.max(value, 0.2), size[k] - 0.2);
  };
  microphone = [toward(0), toward(1), toward(2)];
  const absorption = between(0.15, 0.7);
  const length = between(0.3, 0.6);
  const rir = imageSourceImpulseResponse({ size, source, microphone, absorption, length });
  x = convolve(x, rir);
  recipe.push(
    `room ${size.map(r1).join('x')} m, α ${absorption.toFixed(2)}, distance ${distance(source, microphone).toFixed(2)} m, ${Math.round(length * 1000)} ms`,
  );

  const out = pickUp(x, random, babble, { backgroundDb: [-35, -18], selfNoiseDb: [-65, -45] }, recipe);
  return { samples: out, recipe: recipe.join('; ') };
}

/** Background and self-noise levels under the speech level: the dB ranges they are drawn from. */
export interface MicrophoneLevels {
  readonly backgroundDb: readonly [number, number];
  readonly selfNoiseDb: readonly [number, number];
}

/**
 * A microphone and recorder picking up `x` (16 kHz): a first-order high-pass (40-120 Hz), a background
 * (babble of `babble` 40% of the time when given, brown noise 30%, white hiss otherwise) and white
 * self-noise at levels under the speech drawn from `levels`, then the recorder's gain (peak at -1 to -6 dBFS).
 * What it drew is appended to `recipe`.
 *
 * @example
 * const recipe: string[] = [];
 * const levels = { backgroundDb: [-35, -18], selfNoiseDb: [-65, -45] } as const;
 * const samples = pickUp(inRoom, seededRandom(7), [], levels, recipe);
 */
export function pickUp(
  x: Float64Array,
  random: () => number,
  babble: readonly Float32Array[],
  levels: MicrophoneLevels,
  recipe: string[],
): Float32Array {
  const between = (low: number, high: number): number => low + random() * (high - low);
  const r1 = (v: number): string => v.toFixed(1);
  // Microphone: first-order high-pass, then background and self-noise relative to the speech level.
  const micCut = between(40, 120);
  const pole = Math.exp((-2 * Math.PI * micCut) / RATE);
  let previousIn = 0;
  let previousOut = 0;
  for (let i = 0; i < x.length; i++) {
    const value = x[i] ?? 0;
    previousOut = pole * (previousOut + value - previousIn);
    previousIn = value;
    x[i] = previousOut;
  }
  const level = rms(x) || 1e-9;
  const background = new Float64Array(x.length);
  const backgroundDb = between(...levels.backgroundDb);
  const draw = random();
  if (babble.length > 0 && draw < 0.4) {
    for (const other of babble) {
      if (other.length === 0) continue;
      const offset = Math.floor(random() * other.length);
      for (let i = 0; i < background.length; i++)
        background[i] = (background[i] ?? 0) + (other[(offset + i) % other.length] ?? 0);
    }
    recipe.push(`babble of ${babble.length} at ${r1(backgroundDb)} dB`);
  } else if (draw < 0.7) {
    let brown = 0;
    for (let i = 0; i < background.length; i++) {
      brown = 0.995 * brown + (random() * 2 - 1);
      background[i] = brown;
    }
    recipe.push(`brown noise at ${r1(backgroundDb)} dB`);
  } else {
    // Broadband hiss: a fan, or a laptop microphone's preamplifier noise raised by automatic gain control. It
    // fills the band above a narrowband talker's speech, which brown noise and babble leave empty.
    for (let i = 0; i < background.length; i++) background[i] = random() * 2 - 1;
    recipe.push(`white noise at ${r1(backgroundDb)} dB`);
  }
  const backgroundGain = (level * 10 ** (backgroundDb / 20)) / (rms(background) || 1);
  const selfNoiseDb = between(...levels.selfNoiseDb);
  const selfNoise = level * 10 ** (selfNoiseDb / 20) * Math.sqrt(3);
  recipe.push(`self-noise ${r1(selfNoiseDb)} dB`);
  for (let i = 0; i < x.length; i++)
    x[i] = (x[i] ?? 0) + backgroundGain * (background[i] ?? 0) + selfNoise * (random() * 2 - 1);

  // Recorder gain: peak at -1 to -6 dBFS.
  const peak = x.reduce((m, v) => Math.max(m, Math.abs(v)), 1e-9);
  const target = 10 ** (between(-6, -1) / 20);
  const out = new Float32Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = ((x[i] ?? 0) * target) / peak;
  return out;
}
