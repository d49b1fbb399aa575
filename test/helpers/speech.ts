/**
 * Generated speech for the voice tests: espeak-ng synthesis, WAV writing in every PCM form, and sox / opusenc
 * conversions. Everything is deterministic (espeak-ng and sox are; noise comes from a seeded generator and sox
 * runs without dither), so a test sees the same samples on every run. The tools are installed by
 * scripts/setup-system.sh (espeak-ng, sox, libsox-fmt-all, opus-tools).
 */
import { spawn } from 'node:child_process';
import { seededRandom } from '../../src/lib/seeded-random.js';

/** The engine's rate: what `synthesizeSpeech` returns and the default of every helper here. */
export const SPEECH_RATE = 16_000;

export interface SpeechOptions {
  readonly text: string;
  /** An espeak-ng voice (`espeak-ng --voices`), e.g. `en-us`, `en-gb-scotland`, `de`. Default `en-us`. */
  readonly voice?: string;
  /** An espeak-ng variant (`espeak-ng --voices=variant`), e.g. `m3`, `f2`, `klatt`, appended as `voice+variant`. */
  readonly variant?: string;
  /** Words per minute (espeak-ng `-s`, default 175). */
  readonly speed?: number;
  /** Pitch 0–99 (espeak-ng `-p`, default 50). */
  readonly pitch?: number;
  /** Output rate; default 16 000 Hz. */
  readonly sampleRate?: number;
  /** Gain in dB applied before resampling; default -6: espeak-ng peaks near full scale and would clip. */
  readonly gainDb?: number;
}

/** Runs a command with `input` on stdin and resolves with its stdout; rejects with its stderr on failure. */
export function runTool(command: string, args: readonly string[], input?: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(new Uint8Array(Buffer.concat(out)));
      else reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${Buffer.concat(err).toString()}`));
    });
    // A tool that exits before reading all of stdin (an error) closes the pipe: not our error to report.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input === undefined ? undefined : Buffer.from(input.buffer, input.byteOffset, input.byteLength));
  });
}

/** Reads sox's raw 32-bit float output (little-endian) as samples. */
function floatSamples(bytes: Uint8Array): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const samples = new Float32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < samples.length; i++) samples[i] = view.getFloat32(i * 4, true);
  return samples;
}

const SOX_FLOAT_OUT = ['-t', 'raw', '-e', 'floating-point', '-b', '32', '-L', '-'];

/**
 * Speaks `text` with espeak-ng and returns mono samples in [-1, 1] at 16 kHz (or `sampleRate`), resampled by
 * sox from espeak-ng's 22 050 Hz, 6 dB below espeak-ng's level (it peaks at full scale). The result starts
 * and ends with espeak-ng's own short silences (~0.05 s).
 *
 * @example
 * const samples = await synthesizeSpeech({ text: 'my voice is my password', voice: 'en-gb', variant: 'f2' });
 */
export async function synthesizeSpeech(options: SpeechOptions): Promise<Float32Array> {
  const voice = `${options.voice ?? 'en-us'}${options.variant === undefined ? '' : `+${options.variant}`}`;
  const args = ['--stdout', '-v', voice, '-s', String(options.speed ?? 175), '-p', String(options.pitch ?? 50)];
  const wav = await runTool('espeak-ng', [...args, options.text]);
  const rate = String(options.sampleRate ?? SPEECH_RATE);
  const gain = ['gain', String(options.gainDb ?? -6)];
  return floatSamples(
    await runTool('sox', ['-D', '-t', 'wav', '-', ...SOX_FLOAT_OUT, ...gain, 'rate', '-v', rate], wav),
  );
}

/** How WAV samples are stored: PCM with that many bits, or IEEE float. */
export type WavEncoding = 8 | 16 | 24 | 32 | 'float32' | 'float64';

/**
 * A WAV file of `samples` (mono, or interleaved frames when `channels` > 1), written by hand in any PCM width
 * (8-bit unsigned, 16/24/32-bit signed) or IEEE float. PCM values are rounded and clamped to full scale.
 *
 * @example
 * const bytes = wavFile(samples, 44_100, 24); // 24-bit PCM at 44.1 kHz
 * const stereo = wavFile(interleave(left, right), 48_000, 'float32', 2);
 */
export function wavFile(
  samples: Float32Array,
  sampleRate = SPEECH_RATE,
  encoding: WavEncoding = 16,
  channels = 1,
): Uint8Array {
  const isFloat = typeof encoding === 'string';
  const bits = encoding === 'float32' ? 32 : encoding === 'float64' ? 64 : encoding;
  const bytesPerSample = bits / 8;
  const dataBytes = samples.length * bytesPerSample;
  const out = new Uint8Array(44 + dataBytes + (dataBytes % 2));
  const view = new DataView(out.buffer);
  const ascii = (offset: number, text: string): void => {
    for (let i = 0; i < text.length; i++) out[offset + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, out.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, isFloat ? 3 : 1, true);
  view.setUint16(22, channels, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * channels * bytesPerSample, true);
  view.setUint16(32, channels * bytesPerSample, true);
  view.setUint16(34, bits, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let i = 0; i < samples.length; i++) {
    const value = samples[i] ?? 0;
    const at = 44 + i * bytesPerSample;
    if (encoding === 'float32') view.setFloat32(at, value, true);
    else if (encoding === 'float64') view.setFloat64(at, value, true);
    else {
      const full = 2 ** (bits - 1);
      const level = Math.max(-full, Math.min(full - 1, Math.round(value * full)));
      if (bits === 8) view.setUint8(at, level + 128);
      else if (bits === 16) view.setInt16(at, level, true);
      else if (bits === 32) view.setInt32(at, level, true);
      else {
        view.setUint8(at, level & 0xff);
        view.setUint8(at + 1, (level >> 8) & 0xff);
        view.setInt8(at + 2, level >> 16);
      }
    }
  }
  return out;
}

/**
 * Runs sox effects (`sox --help-effect all`) on mono samples and returns the result at `outputRate`.
 *
 * @example
 * const muffled = await soxEffects(samples, ['lowpass', '3000', 'reverb', '40']);
 */
export async function soxEffects(
  samples: Float32Array,
  effects: readonly string[],
  sampleRate = SPEECH_RATE,
  outputRate = sampleRate,
): Promise<Float32Array> {
  const input = wavFile(samples, sampleRate, 'float32');
  const rate = outputRate === sampleRate ? [] : ['rate', '-v', String(outputRate)];
  return floatSamples(await runTool('sox', ['-D', '-t', 'wav', '-', ...SOX_FLOAT_OUT, ...effects, ...rate], input));
}

/**
 * Resamples with sox's very-high-quality resampler (the reference a decoder's own resampler is checked against).
 *
 * @example
 * const at44k = await resampleWithSox(samples, 16_000, 44_100);
 */
export function resampleWithSox(samples: Float32Array, fromRate: number, toRate: number): Promise<Float32Array> {
  return soxEffects(samples, [], fromRate, toRate);
}

/**
 * Interleaves channels into frames for a multichannel `wavFile`.
 *
 * @example
 * const bytes = wavFile(interleave(left, right), 16_000, 16, 2);
 */
export function interleave(...channels: readonly Float32Array[]): Float32Array {
  const length = Math.min(...channels.map((channel) => channel.length));
  const out = new Float32Array(length * channels.length);
  for (let i = 0; i < length; i++) {
    for (let c = 0; c < channels.length; c++) out[i * channels.length + c] = channels[c]?.[i] ?? 0;
  }
  return out;
}

/**
 * Digital silence (zeros) of the given length.
 *
 * @example
 * const pause = silence(0.5); // 8000 zero samples
 */
export function silence(seconds: number, sampleRate = SPEECH_RATE): Float32Array {
  return new Float32Array(Math.round(seconds * sampleRate));
}

/**
 * Samples with `before` and `after` seconds of silence around them.
 *
 * @example
 * const padded = padSilence(speech, 1, 2); // 1 s of silence, the speech, 2 s of silence
 */
export function padSilence(
  samples: Float32Array,
  before: number,
  after: number,
  sampleRate = SPEECH_RATE,
): Float32Array {
  return concatSamples(silence(before, sampleRate), samples, silence(after, sampleRate));
}

/**
 * The parts one after the other.
 *
 * @example
 * const phrase = concatSamples(first, silence(0.3), second);
 */
export function concatSamples(...parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Gaussian white noise of unit variance from a seeded generator (Box–Muller). */
function gaussianNoise(length: number, seed: number): Float32Array {
  const random = seededRandom(seed);
  const out = new Float32Array(length);
  for (let i = 0; i < length; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(1 - random()));
    const angle = 2 * Math.PI * random();
    out[i] = radius * Math.cos(angle);
    if (i + 1 < length) out[i + 1] = radius * Math.sin(angle);
  }
  return out;
}

/**
 * White Gaussian noise alone at an RMS level in dBFS (deterministic per seed).
 *
 * @example
 * const hiss = whiteNoise(2, -40); // 2 s of noise at -40 dBFS RMS
 */
export function whiteNoise(seconds: number, rmsDbfs: number, seed = 1, sampleRate = SPEECH_RATE): Float32Array {
  const noise = gaussianNoise(Math.round(seconds * sampleRate), seed);
  const gain = 10 ** (rmsDbfs / 20);
  for (let i = 0; i < noise.length; i++) noise[i] = (noise[i] ?? 0) * gain;
  return noise;
}

/**
 * The samples plus white Gaussian noise at a signal-to-noise ratio in dB, the signal power measured over the
 * non-silent samples (so padding does not lower it). Deterministic per seed.
 *
 * @example
 * const noisy = addNoise(padded, 15); // 15 dB SNR
 */
export function addNoise(samples: Float32Array, snrDb: number, seed = 1): Float32Array {
  let power = 0;
  let count = 0;
  for (const value of samples) {
    if (value !== 0) {
      power += value * value;
      count++;
    }
  }
  const noiseRms = Math.sqrt((count === 0 ? 0 : power / count) / 10 ** (snrDb / 10));
  const noise = gaussianNoise(samples.length, seed);
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = (samples[i] ?? 0) + (noise[i] ?? 0) * noiseRms;
  return out;
}

/**
 * Encodes mono samples as Ogg/Opus with opusenc (opus-tools), as Firefox's MediaRecorder records.
 *
 * @example
 * const ogg = await oggOpusFile(samples); // 'OggS' ... 'OpusHead'
 */
export function oggOpusFile(samples: Float32Array, sampleRate = SPEECH_RATE, bitrateKbps = 32): Promise<Uint8Array> {
  return runTool(
    'opusenc',
    ['--quiet', '--bitrate', String(bitrateKbps), '--serial', '1', '--comp', '10', '-', '-'],
    wavFile(samples, sampleRate, 16),
  );
}

/** The Opus packets of an Ogg/Opus stream: its OpusHead header and each audio packet, in order. */
export interface OpusPackets {
  readonly head: Uint8Array;
  readonly packets: readonly Uint8Array[];
}

/**
 * Splits an Ogg/Opus file into its packets (Ogg page lacing, RFC 3533), skipping the OpusTags packet.
 *
 * @example
 * const { head, packets } = oggOpusPackets(await oggOpusFile(samples));
 */
export function oggOpusPackets(ogg: Uint8Array): OpusPackets {
  const packets: Uint8Array[] = [];
  let pending: number[] = [];
  let at = 0;
  while (at + 27 <= ogg.length) {
    const segments = ogg[at + 26] ?? 0;
    const table = ogg.subarray(at + 27, at + 27 + segments);
    let body = at + 27 + segments;
    for (const lace of table) {
      for (let i = 0; i < lace; i++) pending.push(ogg[body + i] ?? 0);
      body += lace;
      if (lace < 255) {
        packets.push(Uint8Array.from(pending));
        pending = [];
      }
    }
    at = body;
  }
  const [head, , ...audio] = packets;
  if (head === undefined) throw new Error('no Ogg packets');
  return { head, packets: audio };
}

function ebmlSize(size: number): number[] {
  // 8-byte size field: plenty for a test file and simple to write.
  const out = [0x01];
  for (let shift = 48; shift >= 0; shift -= 8) out.push(Math.floor(size / 2 ** shift) & 0xff);
  return out;
}

function ebmlElement(id: readonly number[], body: readonly number[] | Uint8Array): number[] {
  return [...id, ...ebmlSize(body.length), ...body];
}

function ebmlUint(id: readonly number[], value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  do {
    bytes.unshift(rest & 0xff);
    rest = Math.floor(rest / 256);
  } while (rest > 0);
  return ebmlElement(id, bytes);
}

function ebmlFloat(id: readonly number[], value: number): number[] {
  const bytes = new Uint8Array(8);
  new DataView(bytes.buffer).setFloat64(0, value);
  return ebmlElement(id, bytes);
}

const UNKNOWN_SIZE = [0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];

/**
 * Wraps Opus packets into a WebM file the way Chromium's MediaRecorder writes one: EBML header (DocType
 * `webm`), a Segment and Clusters of unknown size (a live recording does not know its length), one audio
 * track `A_OPUS` with the OpusHead as CodecPrivate, SimpleBlocks of 20 ms packets, a new Cluster every ~5 s.
 *
 * @example
 * const webm = webmOpusFile(oggOpusPackets(await oggOpusFile(samples)));
 */
export function webmOpusFile({ head, packets }: OpusPackets, frameMs = 20): Uint8Array {
  const bytes: number[] = [];
  bytes.push(
    ...ebmlElement(
      [0x1a, 0x45, 0xdf, 0xa3],
      [
        ...ebmlUint([0x42, 0x86], 1),
        ...ebmlUint([0x42, 0xf7], 1),
        ...ebmlUint([0x42, 0xf2], 4),
        ...ebmlUint([0x42, 0xf3], 8),
        ...ebmlElement(
          [0x42, 0x82],
          Array.from('webm', (c) => c.charCodeAt(0)),
        ),
        ...ebmlUint([0x42, 0x87], 4),
        ...ebmlUint([0x42, 0x85], 2),
      ],
    ),
  );
  bytes.push(0x18, 0x53, 0x80, 0x67, ...UNKNOWN_SIZE);
  bytes.push(...ebmlElement([0x15, 0x49, 0xa9, 0x66], [...ebmlUint([0x2a, 0xd7, 0xb1], 1_000_000)]));
  const channels = head[9] ?? 1;
  const track = [
    ...ebmlUint([0xd7], 1),
    ...ebmlUint([0x73, 0xc5], 1),
    ...ebmlUint([0x83], 2),
    ...ebmlElement(
      [0x86],
      Array.from('A_OPUS', (c) => c.charCodeAt(0)),
    ),
    ...ebmlElement([0x63, 0xa2], head),
    ...ebmlElement([0xe1], [...ebmlFloat([0xb5], 48_000), ...ebmlUint([0x9f], channels)]),
  ];
  bytes.push(...ebmlElement([0x16, 0x54, 0xae, 0x6b], ebmlElement([0xae], track)));
  const perCluster = Math.round(5000 / frameMs);
  for (let start = 0; start < packets.length; start += perCluster) {
    bytes.push(0x1f, 0x43, 0xb6, 0x75, ...UNKNOWN_SIZE, ...ebmlUint([0xe7], start * frameMs));
    for (let i = start; i < Math.min(packets.length, start + perCluster); i++) {
      const relative = (i - start) * frameMs;
      // Track 1 (0x81), 16-bit signed timecode relative to the cluster, flags 0x80 (key frame).
      const block = [0x81, (relative >> 8) & 0xff, relative & 0xff, 0x80, ...(packets[i] ?? [])];
      bytes.push(...ebmlElement([0xa3], block));
    }
  }
  return Uint8Array.from(bytes);
}

/**
 * Encodes mono samples as WebM/Opus, the format Chromium's MediaRecorder records: opusenc's packets in a
 * WebM container written by `webmOpusFile`.
 *
 * @example
 * const webm = await webmOpusRecording(samples);
 */
export async function webmOpusRecording(
  samples: Float32Array,
  sampleRate = SPEECH_RATE,
  bitrateKbps = 32,
): Promise<Uint8Array> {
  return webmOpusFile(oggOpusPackets(await oggOpusFile(samples, sampleRate, bitrateKbps)));
}
