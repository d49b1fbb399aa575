import { ChipDataError } from './chip-data-error.js';

/** One BER-TLV element (ISO/IEC 7816-4, as ICAO 9303 data groups use it): its tag, its value, all of it. */
export interface Tlv {
  /** The tag bytes as a number (`0x61`, `0x5f1f`, `0x7f61`). */
  readonly tag: number;
  /** Whether the value holds nested elements (bit 6 of the first tag byte). */
  readonly constructed: boolean;
  readonly value: Uint8Array;
  /** The whole element, tag and length included. */
  readonly raw: Uint8Array;
}

/** Tags longer than this many bytes, and lengths of more than 4 bytes, are not ICAO's: refused as malformed. */
const MAX_TAG_BYTES = 3;
const MAX_LENGTH_BYTES = 4;

/**
 * Reads the element at `offset`. Definite lengths only (DER and ICAO data groups use nothing else).
 *
 * @example
 * readTlv(Buffer.from('5f1f0141', 'hex')); // { tag: 0x5f1f, constructed: false, value: <41>, raw: <5f1f0141> }
 * @throws {ChipDataError} `DATA_GROUP` when the element is cut or its tag or length is malformed
 */
export function readTlv(bytes: Uint8Array, offset = 0): Tlv {
  let at = offset;
  const byte = (): number => {
    const value = bytes[at];
    if (value === undefined) throw new ChipDataError('DATA_GROUP', 'a TLV element is cut short');
    at += 1;
    return value;
  };
  const first = byte();
  let tag = first;
  if ((first & 0x1f) === 0x1f) {
    let count = 1;
    let next: number;
    do {
      next = byte();
      tag = tag * 256 + next;
      count += 1;
      if (count > MAX_TAG_BYTES) throw new ChipDataError('DATA_GROUP', 'a TLV tag is longer than 3 bytes');
    } while ((next & 0x80) !== 0);
  }
  let length = byte();
  if (length === 0x80) throw new ChipDataError('DATA_GROUP', 'indefinite TLV lengths are not used by ICAO 9303');
  if (length > 0x80) {
    const count = length & 0x7f;
    if (count > MAX_LENGTH_BYTES) throw new ChipDataError('DATA_GROUP', 'a TLV length field is longer than 4 bytes');
    length = 0;
    for (let i = 0; i < count; i += 1) length = length * 256 + byte();
  }
  const end = at + length;
  if (end > bytes.length) throw new ChipDataError('DATA_GROUP', 'a TLV value runs past the end of its file');
  return { tag, constructed: (first & 0x20) !== 0, value: bytes.subarray(at, end), raw: bytes.subarray(offset, end) };
}

/**
 * The elements one after another in `bytes` (the value of a constructed element).
 *
 * @example
 * readTlvList(readTlv(dg1).value).map((e) => e.tag); // [0x5f1f]
 * @throws {ChipDataError} `DATA_GROUP` as {@link readTlv}
 */
export function readTlvList(bytes: Uint8Array): Tlv[] {
  const list: Tlv[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const element = readTlv(bytes, offset);
    list.push(element);
    offset += element.raw.length;
  }
  return list;
}

/**
 * The first child of a constructed element with the tag, or a `DATA_GROUP` error naming what was looked for.
 *
 * @example
 * const mrz = childTlv(readTlv(dg1), 0x5f1f, 'DG1 MRZ');
 * @throws {ChipDataError} `DATA_GROUP` when there is no such child
 */
export function childTlv(parent: Tlv, tag: number, what: string): Tlv {
  const found = readTlvList(parent.value).find((e) => e.tag === tag);
  if (found === undefined) throw new ChipDataError('DATA_GROUP', `${what} (tag ${tag.toString(16)}) is missing`);
  return found;
}
