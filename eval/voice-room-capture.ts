/**
 * Live speech captured in a room: a person talking to a phone or laptop microphone 0.2-1.5 m away, with the
 * room's reverberation and its background noise, and no loudspeaker. What a live user sends from home or an
 * office, where the corpus's bona fide speech is close-talked audiobook reading and studio digits.
 *  - `captureInRoom`: the talker in a shoebox room by the image-source method (eval/voice-rerecording.ts's
 *    room and microphone, without its loudspeaker), for the training-only live class `room-live`;
 *  - `soxRoomCapture`: the same situation by another simulator, sox's `reverb` and pink or brown noise from
 *    sox's `synth`, for the measured arrival of held-out speakers (never trained on), so the figure is not
 *    the training simulator's own.
 * Eval code only: the server never runs it. Deterministic for a given seed.
 */
import { spawnSync } from 'node:child_process';
import { seededRandom } from '../src/lib/seeded-random.js';
import { convolve, imageSourceImpulseResponse, pickUp, type Point } from './voice-rerecording.js';

/**
 * `samples` (16 kHz) spoken by a talker at head height in a room 3-7 m a side (wall absorption 0.2-0.8) to a
 * microphone 0.2-1.5 m away, picked up with a background 15-40 dB under the speech (babble of `babble`, brown
 * noise or white hiss: `pickUp`) and self-noise 45-65 dB under it.
 *
 * @example
 * const { samples, recipe } = captureInRoom(readCorpusWav(path), 50_000, [other1, other2]);
 */
export function captureInRoom(
  samples: Float32Array,
  seed: number,
  babble: readonly Float32Array[] = [],
): { samples: Float32Array; recipe: string } {
  const random = seededRandom(seed);
  const between = (low: number, high: number): number => low + random() * (high - low);
  const size: Point = [between(3, 7), between(3, 7), between(2.4, 3.2)];
  const talker: Point = [between(1, size[0] - 1), between(1, size[1] - 1), between(1.2, 1.7)];
  const reach = between(0.2, 1.5);
  const angle = random() * 2 * Math.PI;
  const clampTo = (value: number, side: number): number => Math.min(Math.max(value, 0.2), side - 0.2);
  const microphone: Point = [
    clampTo(talker[0] + reach * Math.cos(angle), size[0]),
    clampTo(talker[1] + reach * Math.sin(angle), size[1]),
    clampTo(talker[2] - between(0, 0.4), size[2]),
  ];
  const absorption = between(0.2, 0.8);
  const length = between(0.3, 0.6);
  const rir = imageSourceImpulseResponse({ size, source: talker, microphone, absorption, length });
  const recipe = [
    `talker in room ${size.map((v) => v.toFixed(1)).join('x')} m, α ${absorption.toFixed(2)}, microphone ${reach.toFixed(2)} m`,
  ];
  const out = pickUp(
    convolve(samples, rir),
    random,
    babble,
    { backgroundDb: [-40, -15], selfNoiseDb: [-65, -45] },
    recipe,
  );
  return { samples: out, recipe: recipe.join('; ') };
}

const rms = (samples: ArrayLike<number>): number => {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += (samples[i] ?? 0) ** 2;
  return Math.sqrt(sum / Math.max(samples.length, 1));
};

/** sox with 16 kHz mono 16-bit raw output on stdout; `-R` seeds its noise and dither, so runs repeat. */
function soxSamples(args: readonly string[]): Float32Array {
  const result = spawnSync('sox', ['-R', ...args], { maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  if (result.status !== 0) throw new Error(`sox ${args.join(' ')} failed: ${result.stderr.toString()}`);
  const bytes = result.stdout;
  const out = new Float32Array(Math.floor(bytes.length / 2));
  for (let i = 0; i < out.length; i++) out[i] = bytes.readInt16LE(2 * i) / 32_768;
  return out;
}

const RAW = ['-t', 'raw', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', '-'];

/**
 * The corpus file at `input` captured in a room by sox: `reverb` (reverberance 10-70%, room scale 30-100%,
 * pre-delay 0-10 ms, wet gain -10-0 dB), then pink or brown noise (`synth`) 15-40 dB under the speech; peak at -3 dBFS.
 *
 * @example
 * const { samples, recipe } = soxRoomCapture('/tmp/veriport-voice-spoof/bonafide/ls-103-1240-0000.wav', 7);
 */
export function soxRoomCapture(input: string, seed: number): { samples: Float32Array; recipe: string } {
  const random = seededRandom(seed);
  const between = (low: number, high: number): number => Math.round((low + random() * (high - low)) * 10) / 10;
  // The wet gain sets the direct-to-reverberant ratio: 0 dB is a far microphone in a live room, -10 dB (sox's least) a
  // phone held close.
  const reverb = [
    'reverb',
    String(between(10, 70)),
    '50',
    String(between(30, 100)),
    '100',
    String(between(0, 10)),
    String(between(-10, 0)),
  ];
  const speech = soxSamples([input, ...RAW, ...reverb, 'channels', '1']);
  const colour = random() < 0.5 ? 'pinknoise' : 'brownnoise';
  const seconds = String(speech.length / 16_000);
  const noise = soxSamples(['-n', ...RAW, 'synth', seconds, colour]);
  const snr = between(15, 40);
  const gain = (rms(speech) * 10 ** (-snr / 20)) / (rms(noise) || 1);
  const mixed = new Float32Array(speech.length);
  let peak = 1e-9;
  for (let i = 0; i < mixed.length; i++) {
    mixed[i] = (speech[i] ?? 0) + gain * (noise[i] ?? 0);
    peak = Math.max(peak, Math.abs(mixed[i] ?? 0));
  }
  const target = 10 ** (-3 / 20);
  for (let i = 0; i < mixed.length; i++) mixed[i] = ((mixed[i] ?? 0) * target) / peak;
  return { samples: mixed, recipe: `sox ${reverb.join(' ')}; ${colour} at ${snr} dB under the speech` };
}
