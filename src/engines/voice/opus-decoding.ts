import { OpusDecoder } from 'opus-decoder';
import { VoiceSampleError } from './voice-sample-error.js';

/** What an Opus stream decodes to: mono 16 kHz samples and facts about the source. */
export interface DecodedOpus {
  readonly samples: Float32Array;
  /** The rate the recorder captured at (OpusHead's input rate), or 48 000 when it is not given. */
  readonly sourceSampleRate: number;
  readonly sourceChannels: number;
  /** Share of decoded samples (every channel) at |x| >= 0.99: lossy coding smears a clipped peak around 1. */
  readonly clippedShare: number;
}

/** The OpusHead fields decoding needs (RFC 7845 §5.1). */
interface OpusHead {
  readonly channels: number;
  /** Samples at 48 kHz to drop at the start (the encoder's look-ahead). */
  readonly preSkip: number;
  readonly inputRate: number;
  /** Output gain, linear. */
  readonly gain: number;
  readonly streamCount: number;
  readonly coupledStreamCount: number;
  readonly mapping: number[];
}

function parseOpusHead(head: Uint8Array): OpusHead {
  const magic = String.fromCharCode(...head.subarray(0, 8));
  if (magic !== 'OpusHead' || head.length < 19) throw new VoiceSampleError('undecodable', 'bad OpusHead');
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  if ((head[8] ?? 0) >> 4 !== 0) throw new VoiceSampleError('undecodable', `unsupported Opus version ${head[8]}`);
  const channels = head[9] ?? 0;
  if (channels < 1) throw new VoiceSampleError('undecodable', 'OpusHead with no channels');
  const family = head[18] ?? 0;
  const base = {
    channels,
    preSkip: view.getUint16(10, true),
    inputRate: view.getUint32(12, true),
    gain: 10 ** (view.getInt16(16, true) / 256 / 20),
  };
  if (family === 0) {
    if (channels > 2) throw new VoiceSampleError('undecodable', 'Opus mapping family 0 with over 2 channels');
    return { ...base, streamCount: 1, coupledStreamCount: channels - 1, mapping: channels === 2 ? [0, 1] : [0] };
  }
  if (head.length < 21 + channels) throw new VoiceSampleError('undecodable', 'OpusHead channel mapping truncated');
  return {
    ...base,
    streamCount: head[19] ?? 0,
    coupledStreamCount: head[20] ?? 0,
    mapping: Array.from(head.subarray(21, 21 + channels)),
  };
}

/** Frame durations in 48 kHz samples by TOC configuration (RFC 6716 §3.1): SILK, hybrid, CELT. */
const FRAME_SAMPLES = [
  ...Array.from({ length: 12 }, (_, config) => [480, 960, 1920, 2880][config % 4] ?? 0),
  ...Array.from({ length: 4 }, (_, config) => [480, 960][config % 2] ?? 0),
  ...Array.from({ length: 16 }, (_, config) => [120, 240, 480, 960][config % 4] ?? 0),
];

/**
 * The duration of an Opus packet in 48 kHz samples, read from its TOC byte (RFC 6716 §3.1), without
 * decoding it; 0 for an empty packet (a lost-packet marker).
 *
 * @example
 * opusPacketSamples(packet); // 960 for one 20 ms frame
 */
export function opusPacketSamples(packet: Uint8Array): number {
  const toc = packet[0];
  if (toc === undefined) return 0;
  const perFrame = FRAME_SAMPLES[toc >> 3] ?? 0;
  const code = toc & 3;
  const frames = code === 0 ? 1 : code === 3 ? (packet[1] ?? 0) & 0x3f : 2;
  return perFrame * frames;
}

/** Packets that may fail before the stream counts as undecodable (a few damaged ones are concealed). */
const MAX_BAD_PACKETS = 10;
const MAX_BAD_SHARE = 0.1;
const OUTPUT_RATE = 16_000;

/**
 * Decodes an Opus stream (OpusHead + packets, from an Ogg or a WebM file) to mono 16 kHz with libopus
 * compiled to WebAssembly (the `opus-decoder` package), which decodes at 16 kHz itself. Pre-skip and the
 * OpusHead output gain are applied, channels averaged, and the end trimmed to `endGranule` when known.
 * The duration is checked from the packets' TOC bytes before anything is decoded.
 *
 * @throws {VoiceSampleError} `undecodable` (bad header or packets), `empty` (no audio), `too-long`
 * @example
 * const { samples } = await decodeOpus(head, packets, undefined, 60);
 */
export async function decodeOpus(
  headBytes: Uint8Array,
  packets: readonly Uint8Array[],
  endGranule: number | undefined,
  maxSeconds: number,
): Promise<DecodedOpus> {
  const head = parseOpusHead(headBytes);
  const total48k = packets.reduce((sum, packet) => sum + opusPacketSamples(packet), 0);
  if (total48k - head.preSkip <= 0) throw new VoiceSampleError('empty', 'Opus stream without audio');
  if (total48k / 48_000 > maxSeconds + 1) {
    throw new VoiceSampleError('too-long', `Opus stream of ${(total48k / 48_000).toFixed(1)} s is too long`);
  }
  const inputLimit = 3840 * head.channels;
  const decoder = new OpusDecoder({
    sampleRate: OUTPUT_RATE,
    channels: head.channels,
    streamCount: head.streamCount,
    coupledStreamCount: head.coupledStreamCount,
    channelMappingTable: head.mapping,
    preSkip: Math.round(head.preSkip / 3),
  });
  await decoder.ready;
  const mono = new Float32Array(Math.ceil(total48k / 3) + 5760);
  let length = 0;
  let clipped = 0;
  let bad = 0;
  // opus-decoder console.error()s every packet libopus refuses; the errors come back in `errors` too, and
  // a request's bad sample is not the server's error to print. The loop is synchronous, so no other code
  // on this thread runs while console.error is silenced.
  const printError = console.error;
  console.error = () => undefined;
  try {
    for (const packet of packets) {
      if (packet.length === 0) continue;
      if (packet.length > inputLimit) throw new VoiceSampleError('undecodable', 'Opus packet over the size limit');
      const { channelData, samplesDecoded, errors } = decoder.decodeFrame(packet);
      if (errors.length > 0) {
        bad++;
        if (bad > MAX_BAD_PACKETS || bad > MAX_BAD_SHARE * packets.length) {
          throw new VoiceSampleError('undecodable', `Opus packets do not decode (${errors[0]?.message ?? ''})`);
        }
        continue;
      }
      for (let i = 0; i < samplesDecoded && length < mono.length; i++, length++) {
        let sum = 0;
        for (const channel of channelData) {
          const value = (channel[i] ?? 0) * head.gain;
          if (Math.abs(value) >= 0.99) clipped++;
          sum += value;
        }
        mono[length] = sum / channelData.length;
      }
    }
  } finally {
    console.error = printError;
    decoder.free();
  }
  // A stream that does not start at granule 0 (a cut recording) can put the end before pre-skip: ignore it then.
  const expected =
    endGranule !== undefined && endGranule > head.preSkip ? Math.round((endGranule - head.preSkip) / 3) : length;
  const samples = mono.slice(0, Math.max(0, Math.min(length, expected)));
  if (samples.length === 0) throw new VoiceSampleError('empty', 'Opus stream without audio');
  return {
    samples,
    sourceSampleRate: head.inputRate > 0 ? head.inputRate : 48_000,
    sourceChannels: head.channels,
    clippedShare: clipped / Math.max(1, length * head.channels),
  };
}
