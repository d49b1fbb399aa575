import { VoiceSampleError } from './voice-sample-error.js';

/** The samples of a WAV file as read, before mixing down and resampling. */
export interface WavContent {
  /** Interleaved frames: `samples[frame * channels + channel]`, in [-1, 1] (float files may exceed it). */
  readonly samples: Float32Array;
  readonly sampleRate: number;
  readonly channels: number;
  /** Share of the samples at the format's full scale (PCM extreme codes; float |x| >= 1). */
  readonly clippedShare: number;
}

const PCM = 1;
const IEEE_FLOAT = 3;
const A_LAW = 6;
const MU_LAW = 7;
const EXTENSIBLE = 0xfffe;

function fourCc(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at] ?? 0, bytes[at + 1] ?? 0, bytes[at + 2] ?? 0, bytes[at + 3] ?? 0);
}

/**
 * True when the bytes start like a RIFF/WAVE file.
 *
 * @example
 * isWav(bytes); // true for 'RIFF' .... 'WAVE'
 */
export function isWav(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && fourCc(bytes, 0) === 'RIFF' && fourCc(bytes, 8) === 'WAVE';
}

/** G.711 A-law byte to linear (ITU-T G.711), as a 16-bit level. */
function aLaw(code: number): number {
  const value = code ^ 0x55;
  const exponent = (value >> 4) & 7;
  const mantissa = value & 15;
  const magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  return value & 0x80 ? magnitude : -magnitude;
}

/** G.711 µ-law byte to linear (ITU-T G.711), as a 16-bit level. */
function muLaw(code: number): number {
  const value = ~code & 0xff;
  const exponent = (value >> 4) & 7;
  const magnitude = ((((value & 15) << 3) + 0x84) << exponent) - 0x84;
  return value & 0x80 ? -magnitude : magnitude;
}

interface WavFormat {
  readonly code: number;
  readonly channels: number;
  readonly sampleRate: number;
  readonly blockAlign: number;
  readonly bits: number;
}

function readFormat(view: DataView, at: number, size: number): WavFormat {
  if (size < 16) throw new VoiceSampleError('undecodable', 'WAV fmt chunk shorter than 16 bytes');
  let code = view.getUint16(at, true);
  const bits = view.getUint16(at + 14, true);
  if (code === EXTENSIBLE) {
    // WAVE_FORMAT_EXTENSIBLE: the real format code is the first two bytes of the sub-format GUID.
    if (size < 40) throw new VoiceSampleError('undecodable', 'WAV extensible fmt chunk shorter than 40 bytes');
    code = view.getUint16(at + 24, true);
  }
  return {
    code,
    channels: view.getUint16(at + 2, true),
    sampleRate: view.getUint32(at + 4, true),
    blockAlign: view.getUint16(at + 12, true),
    bits,
  };
}

/** Bytes per stored sample for the supported formats, or a reason the format is refused. */
function sampleBytes(format: WavFormat): number {
  const { code, bits } = format;
  if (code === PCM && [8, 16, 24, 32].includes(bits)) return bits / 8;
  if (code === IEEE_FLOAT && (bits === 32 || bits === 64)) return bits / 8;
  if ((code === A_LAW || code === MU_LAW) && bits === 8) return 1;
  throw new VoiceSampleError('undecodable', `unsupported WAV encoding (format ${code}, ${bits} bits)`);
}

/**
 * Reads a WAV file: PCM 8-bit unsigned, 16/24/32-bit signed, IEEE float 32/64, A-law and µ-law, plain or
 * WAVE_FORMAT_EXTENSIBLE, any channel count and rate. A data chunk whose declared size runs past the end of
 * the file (a recorder that streamed it and never patched the header, as `espeak-ng --stdout` does) is read
 * up to the last whole frame. `maxSeconds` refuses longer files before their samples are converted.
 *
 * @throws {VoiceSampleError} `undecodable` for a broken or unsupported file, `empty` for one without frames,
 *   `too-long` above `maxSeconds`
 * @example
 * const { samples, sampleRate, channels } = parseWav(bytes, 60);
 */
export function parseWav(bytes: Uint8Array, maxSeconds = Number.POSITIVE_INFINITY): WavContent {
  if (!isWav(bytes)) throw new VoiceSampleError('undecodable', 'not a RIFF/WAVE file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format: WavFormat | undefined;
  let data: { at: number; size: number } | undefined;
  let at = 12;
  while (at + 8 <= bytes.length && data === undefined) {
    const id = fourCc(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (body + size > bytes.length) throw new VoiceSampleError('undecodable', 'WAV fmt chunk truncated');
      format = readFormat(view, body, size);
    } else if (id === 'data') {
      data = { at: body, size: Math.min(size, bytes.length - body) };
    }
    // Chunks are padded to an even length.
    at = body + size + (size % 2);
  }
  if (format === undefined) throw new VoiceSampleError('undecodable', 'WAV file without a fmt chunk');
  if (data === undefined) throw new VoiceSampleError('undecodable', 'WAV file without a data chunk');
  const width = sampleBytes(format);
  const { channels, sampleRate, code } = format;
  if (channels < 1) throw new VoiceSampleError('undecodable', 'WAV file with no channels');
  if (!(sampleRate >= 1000 && sampleRate <= 384_000)) {
    throw new VoiceSampleError('undecodable', `WAV sample rate ${sampleRate} Hz outside 1000–384000`);
  }
  if (format.blockAlign !== width * channels) {
    throw new VoiceSampleError('undecodable', `WAV block align ${format.blockAlign} != ${width} × ${channels}`);
  }
  const frames = Math.floor(data.size / format.blockAlign);
  if (frames === 0) throw new VoiceSampleError('empty', 'WAV file without samples');
  if (frames / sampleRate > maxSeconds) {
    throw new VoiceSampleError('too-long', `WAV file of ${(frames / sampleRate).toFixed(1)} s is too long`);
  }
  const count = frames * channels;
  const samples = new Float32Array(count);
  let clipped = 0;
  const start = data.at;
  if (code !== IEEE_FLOAT && code !== A_LAW && code !== MU_LAW && width === 2) {
    // 16-bit PCM, what most recorders write: the loop below without its per-sample format dispatch.
    for (let i = 0; i < count; i++) {
      const level = view.getInt16(start + 2 * i, true);
      samples[i] = level / 32768;
      if (level === -32768 || level === 32767) clipped++;
    }
    return { samples, sampleRate, channels, clippedShare: clipped / count };
  }
  for (let i = 0; i < count; i++) {
    const offset = start + i * width;
    let value: number;
    let full: boolean;
    if (code === IEEE_FLOAT) {
      value = width === 4 ? view.getFloat32(offset, true) : view.getFloat64(offset, true);
      if (!Number.isFinite(value)) throw new VoiceSampleError('undecodable', 'WAV float sample not finite');
      full = Math.abs(value) >= 1;
    } else if (code === A_LAW || code === MU_LAW) {
      const level = (code === A_LAW ? aLaw : muLaw)(bytes[offset] ?? 0);
      value = level / 32768;
      full = Math.abs(level) >= (code === A_LAW ? 32256 : 32124);
    } else if (width === 1) {
      const level = bytes[offset] ?? 128;
      value = (level - 128) / 128;
      full = level === 0 || level === 255;
    } else if (width === 2) {
      const level = view.getInt16(offset, true);
      value = level / 32768;
      full = level === -32768 || level === 32767;
    } else if (width === 3) {
      const level =
        (((bytes[offset] ?? 0) | ((bytes[offset + 1] ?? 0) << 8) | ((bytes[offset + 2] ?? 0) << 16)) << 8) >> 8;
      value = level / 8388608;
      full = level === -8388608 || level === 8388607;
    } else {
      const level = view.getInt32(offset, true);
      value = level / 2147483648;
      full = level === -2147483648 || level === 2147483647;
    }
    samples[i] = value;
    if (full) clipped++;
  }
  return { samples, sampleRate, channels, clippedShare: clipped / count };
}
