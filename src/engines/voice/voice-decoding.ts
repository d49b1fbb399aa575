import { decodeOpus, type DecodedOpus } from './opus-decoding.js';
import { demuxOggOpus, isOgg } from './ogg-demuxing.js';
import { resample } from './resampling.js';
import { VoiceSampleError } from './voice-sample-error.js';
import { isWav, parseWav } from './wav-parsing.js';
import { demuxWebmOpus, isWebm } from './webm-demuxing.js';

/** The rate of every sample inside the voice engine. */
export const VOICE_SAMPLE_RATE = 16_000;

/**
 * The longest recording accepted, in seconds. A verification phrase or a liveness prompt lasts a few
 * seconds and an enrolment read passage well under a minute; 60 s also bounds a request's decode work
 * (one minute of 48 kHz stereo is 23 MB of PCM, above the default 20 MB body limit anyway).
 */
export const MAX_VOICE_SECONDS = 60;

/** A decoded voice sample: mono 16 kHz samples in [-1, 1] and what the source was. */
export interface VoiceAudio {
  readonly samples: Float32Array;
  readonly sampleRate: typeof VOICE_SAMPLE_RATE;
  readonly sourceSampleRate: number;
  readonly sourceChannels: number;
  readonly format: 'wav' | 'ogg-opus' | 'webm-opus';
  /** Share of source samples at full scale: a clipped (overdriven) recording. */
  readonly clippedShare: number;
}

/** Averages interleaved frames into one channel. */
function mixDown(interleaved: Float32Array, channels: number): Float32Array {
  if (channels === 1) return interleaved;
  const frames = Math.floor(interleaved.length / channels);
  const mono = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += interleaved[f * channels + c] ?? 0;
    mono[f] = sum / channels;
  }
  return mono;
}

async function decodeStream(bytes: Uint8Array): Promise<VoiceAudio> {
  if (isWav(bytes)) {
    const wav = parseWav(bytes, MAX_VOICE_SECONDS);
    const mono = mixDown(wav.samples, wav.channels);
    return {
      samples: resample(mono, wav.sampleRate, VOICE_SAMPLE_RATE),
      sampleRate: VOICE_SAMPLE_RATE,
      sourceSampleRate: wav.sampleRate,
      sourceChannels: wav.channels,
      format: 'wav',
      clippedShare: wav.clippedShare,
    };
  }
  if (isOgg(bytes)) {
    const { head, packets, endGranule } = demuxOggOpus(bytes);
    return { ...banded(await decodeOpus(head, packets, endGranule, MAX_VOICE_SECONDS)), format: 'ogg-opus' };
  }
  if (isWebm(bytes)) {
    const { head, packets } = demuxWebmOpus(bytes);
    return { ...banded(await decodeOpus(head, packets, undefined, MAX_VOICE_SECONDS)), format: 'webm-opus' };
  }
  throw new VoiceSampleError('undecodable', 'not a WAV, Ogg/Opus or WebM/Opus file');
}

/**
 * libopus decodes straight to 16 kHz with content up to 8 kHz; the resampler's low-pass at equal rates gives
 * it the band every WAV gets on its way to 16 kHz.
 */
function banded(decoded: DecodedOpus): DecodedOpus & { readonly sampleRate: typeof VOICE_SAMPLE_RATE } {
  return {
    ...decoded,
    samples: resample(decoded.samples, VOICE_SAMPLE_RATE, VOICE_SAMPLE_RATE),
    sampleRate: VOICE_SAMPLE_RATE,
  };
}

/**
 * Decodes a voice sample to mono 16 kHz: WAV (PCM 8/16/24/32-bit, float 32/64, A-law, µ-law; any channels
 * and rate, resampled with an anti-aliasing filter) and what browsers' MediaRecorder produces, WebM/Opus
 * (Chromium) and Ogg/Opus (Firefox, Safari), decoded by libopus in WebAssembly. The format is recognised by
 * its first bytes, not by a declared type. Every format leaves with the same band (0-7.36 kHz): a 16 kHz WAV
 * and Opus go through the resampler's low-pass too.
 *
 * @throws {VoiceSampleError} `empty` (no bytes or no samples), `undecodable` (unknown or broken format),
 *   `too-long` (over MAX_VOICE_SECONDS)
 * @example
 * const audio = await decodeVoiceSample(bytes);
 * audio.samples.length / audio.sampleRate; // seconds
 */
export async function decodeVoiceSample(bytes: Uint8Array): Promise<VoiceAudio> {
  if (bytes.length === 0) throw new VoiceSampleError('empty', 'voice sample has no bytes');
  try {
    const audio = await decodeStream(bytes);
    if (audio.samples.length / VOICE_SAMPLE_RATE > MAX_VOICE_SECONDS) {
      throw new VoiceSampleError('too-long', `voice sample longer than ${MAX_VOICE_SECONDS} s`);
    }
    return audio;
  } catch (error) {
    if (error instanceof VoiceSampleError) throw error;
    // A malformed file can still trip a bounds check in a parser or the WebAssembly decoder.
    throw new VoiceSampleError('undecodable', `voice sample does not decode: ${String(error)}`);
  }
}
