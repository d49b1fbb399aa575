import { VoiceSampleError } from './voice-sample-error.js';

/** The Opus stream of an Ogg file: OpusHead, the audio packets, and the end position from the last page. */
export interface OggOpusStream {
  readonly head: Uint8Array;
  readonly packets: Uint8Array[];
  /** Granule position of the last page: 48 kHz samples decoded up to the stream's end, pre-skip included. */
  readonly endGranule: number | undefined;
}

/**
 * True when the bytes start with an Ogg page.
 *
 * @example
 * isOgg(bytes); // true for 'OggS' ...
 */
export function isOgg(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x4f && bytes[1] === 0x67 && bytes[2] === 0x67 && bytes[3] === 0x53;
}

function startsWith(packet: Uint8Array, text: string): boolean {
  for (let i = 0; i < text.length; i++) if (packet[i] !== text.charCodeAt(i)) return false;
  return true;
}

/**
 * Splits an Ogg/Opus file (RFC 3533 pages, RFC 7845 mapping) into its packets: the first logical stream
 * whose first packet is an OpusHead; OpusTags and the pages of other streams are skipped. A file cut off
 * mid-page keeps the packets of its whole pages (a recording stopped abruptly).
 *
 * @throws {VoiceSampleError} `undecodable` for a malformed file or one that carries no Opus stream
 * @example
 * const { head, packets, endGranule } = demuxOggOpus(bytes);
 */
export function demuxOggOpus(bytes: Uint8Array): OggOpusStream {
  if (!isOgg(bytes)) throw new VoiceSampleError('undecodable', 'not an Ogg file');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const packets: Uint8Array[] = [];
  let serial: number | undefined;
  let pending: Uint8Array[] = [];
  let endGranule: number | undefined;
  let at = 0;
  while (at + 27 <= bytes.length) {
    if (!isOgg(bytes.subarray(at))) throw new VoiceSampleError('undecodable', `Ogg: no page at byte ${at}`);
    const segments = bytes[at + 26] ?? 0;
    const bodyStart = at + 27 + segments;
    if (bodyStart > bytes.length) break;
    const table = bytes.subarray(at + 27, bodyStart);
    const bodyLength = table.reduce((sum, lace) => sum + lace, 0);
    if (bodyStart + bodyLength > bytes.length) break;
    const pageSerial = view.getUint32(at + 14, true);
    serial ??= pageSerial;
    if (pageSerial === serial) {
      // -1 (all ones) marks a page on which no packet ends.
      const granuleLow = view.getUint32(at + 6, true);
      const granuleHigh = view.getInt32(at + 10, true);
      if (granuleHigh >= 0) endGranule = granuleHigh * 2 ** 32 + granuleLow;
      let offset = bodyStart;
      for (const lace of table) {
        pending.push(bytes.subarray(offset, offset + lace));
        offset += lace;
        if (lace < 255) {
          packets.push(pending.length === 1 && pending[0] ? pending[0] : concat(pending));
          pending = [];
        }
      }
    }
    at = bodyStart + bodyLength;
  }
  const [head, tags, ...audio] = packets;
  if (head === undefined || !startsWith(head, 'OpusHead')) {
    throw new VoiceSampleError('undecodable', 'Ogg file without an Opus stream');
  }
  if (tags !== undefined && !startsWith(tags, 'OpusTags')) {
    throw new VoiceSampleError('undecodable', 'Ogg Opus stream without its OpusTags packet');
  }
  return { head, packets: audio, endGranule };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
