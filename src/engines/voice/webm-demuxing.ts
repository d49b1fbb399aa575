import { VoiceSampleError } from './voice-sample-error.js';

/** The Opus stream of a WebM/Matroska file: the OpusHead (CodecPrivate) and the packets, in file order. */
export interface WebmOpusStream {
  readonly head: Uint8Array;
  readonly packets: Uint8Array[];
}

const EBML = 0x1a45dfa3;
const SEGMENT = 0x18538067;
const CLUSTER = 0x1f43b675;
const TRACKS = 0x1654ae6b;
const TRACK_ENTRY = 0xae;
const BLOCK_GROUP = 0xa0;
const TRACK_NUMBER = 0xd7;
const CODEC_ID = 0x86;
const CODEC_PRIVATE = 0x63a2;
const SIMPLE_BLOCK = 0xa3;
const BLOCK = 0xa1;

/** Elements whose children the walk enters; every other element is skipped by its size. */
const CONTAINERS = new Set([SEGMENT, CLUSTER, TRACKS, TRACK_ENTRY, BLOCK_GROUP]);

/**
 * True when the bytes start with an EBML header (WebM, Matroska).
 *
 * @example
 * isWebm(bytes); // true for 1A 45 DF A3 ...
 */
export function isWebm(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3;
}

interface VarInt {
  readonly value: number;
  readonly length: number;
  /** All value bits set: an element of unknown size (a live recording's Segment and Clusters). */
  readonly unknown: boolean;
}

/** An EBML variable-length integer at `at`; `keepMarker` keeps the length bit (element IDs are written so). */
function readVarInt(bytes: Uint8Array, at: number, keepMarker: boolean): VarInt {
  const first = bytes[at];
  if (first === undefined || first === 0) throw new VoiceSampleError('undecodable', 'WebM: bad EBML number');
  const length = Math.clz32(first) - 23;
  if (at + length > bytes.length) throw new VoiceSampleError('undecodable', 'WebM: truncated EBML number');
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i++) {
    const byte = bytes[at + i] ?? 0;
    value = value * 256 + byte;
    allOnes &&= byte === 0xff;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/** The frames of a Matroska block after its header: one, or several with Xiph, fixed-size or EBML lacing. */
function blockFrames(block: Uint8Array, headerLength: number, flags: number): Uint8Array[] {
  const lacing = (flags >> 1) & 3;
  if (lacing === 0) return [block.subarray(headerLength)];
  let at = headerLength;
  const count = (block[at] ?? 0) + 1;
  at++;
  const sizes: number[] = [];
  if (lacing === 1) {
    for (let f = 0; f < count - 1; f++) {
      let size = 0;
      let byte;
      do {
        byte = block[at++];
        if (byte === undefined) throw new VoiceSampleError('undecodable', 'WebM: truncated lacing');
        size += byte;
      } while (byte === 255);
      sizes.push(size);
    }
  } else if (lacing === 3) {
    const first = readVarInt(block, at, false);
    at += first.length;
    sizes.push(first.value);
    for (let f = 1; f < count - 1; f++) {
      const delta = readVarInt(block, at, false);
      at += delta.length;
      // Signed: the raw value minus half its range.
      const size = (sizes[f - 1] ?? 0) + delta.value - (2 ** (7 * delta.length - 1) - 1);
      if (size < 0) throw new VoiceSampleError('undecodable', 'WebM: negative laced frame size');
      sizes.push(size);
    }
  } else {
    const each = (block.length - at) / count;
    if (!Number.isInteger(each)) throw new VoiceSampleError('undecodable', 'WebM: uneven fixed-size lacing');
    for (let f = 0; f < count - 1; f++) sizes.push(each);
  }
  const frames: Uint8Array[] = [];
  for (const size of sizes) {
    if (at + size > block.length) throw new VoiceSampleError('undecodable', 'WebM: laced frame past its block');
    frames.push(block.subarray(at, at + size));
    at += size;
  }
  frames.push(block.subarray(at));
  return frames;
}

/**
 * Pulls the Opus track out of a WebM (or Matroska) file, as browsers' MediaRecorder writes it: a walk over
 * the EBML elements that enters Segment, Cluster, Tracks, TrackEntry and BlockGroup (of known or unknown
 * size, so live recordings read too) and collects the frames of the `A_OPUS` track's SimpleBlocks and
 * Blocks. A file cut off mid-block keeps the packets before the cut (a recording stopped abruptly).
 *
 * @throws {VoiceSampleError} `undecodable` for a malformed file or one without an Opus track
 * @example
 * const { head, packets } = demuxWebmOpus(bytes);
 */
export function demuxWebmOpus(bytes: Uint8Array): WebmOpusStream {
  if (!isWebm(bytes)) throw new VoiceSampleError('undecodable', 'not an EBML (WebM) file');
  const blocks: { track: number; frames: Uint8Array[] }[] = [];
  const tracks: { number?: number; codec?: string; head?: Uint8Array }[] = [];
  let at = 0;
  while (at < bytes.length) {
    let id: VarInt;
    let size: VarInt;
    try {
      id = readVarInt(bytes, at, true);
      size = readVarInt(bytes, at + id.length, false);
    } catch (error) {
      // A truncated element header at the end of a stopped recording: keep what came before.
      if (blocks.length > 0) break;
      throw error;
    }
    const body = at + id.length + size.length;
    if (CONTAINERS.has(id.value)) {
      if (id.value === TRACK_ENTRY) tracks.push({});
      at = body;
      continue;
    }
    if (size.unknown)
      throw new VoiceSampleError('undecodable', `WebM: element ${id.value.toString(16)} of unknown size`);
    const end = body + size.value;
    if (end > bytes.length) {
      if (blocks.length > 0) break;
      throw new VoiceSampleError('undecodable', 'WebM: element runs past the end of the file');
    }
    const content = bytes.subarray(body, end);
    const track = tracks[tracks.length - 1];
    if (id.value === EBML && at !== 0) throw new VoiceSampleError('undecodable', 'WebM: second EBML header');
    if (track && id.value === TRACK_NUMBER) track.number = readUnsigned(content);
    if (track && id.value === CODEC_ID) track.codec = new TextDecoder().decode(content).replace(/\0+$/, '');
    if (track && id.value === CODEC_PRIVATE) track.head = content;
    if (id.value === SIMPLE_BLOCK || id.value === BLOCK) {
      const number = readVarInt(content, 0, false);
      const headerLength = number.length + 3;
      if (content.length < headerLength) throw new VoiceSampleError('undecodable', 'WebM: block too short');
      blocks.push({ track: number.value, frames: blockFrames(content, headerLength, content[number.length + 2] ?? 0) });
    }
    at = end;
  }
  const opus = tracks.find((track) => track.codec === 'A_OPUS');
  if (opus === undefined) throw new VoiceSampleError('undecodable', 'WebM file without an Opus audio track');
  if (opus.head === undefined) throw new VoiceSampleError('undecodable', 'WebM Opus track without its OpusHead');
  const number = opus.number ?? 1;
  const packets = blocks.filter((block) => block.track === number).flatMap((block) => block.frames);
  return { head: opus.head, packets };
}

/** An unsigned integer element's value (big-endian, 1–8 bytes). */
function readUnsigned(content: Uint8Array): number {
  let value = 0;
  for (const byte of content) value = value * 256 + byte;
  return value;
}
