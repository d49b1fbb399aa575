import { crc32 } from 'node:zlib';

/**
 * Biometric template binary format, version 1 (little-endian):
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0 | 4 | magic `VPTM` |
 * | 4 | 1 | format version (1) |
 * | 5 | 1 | modality: 1 face, 2 voice |
 * | 6 | 4 | algorithm, ASCII (`F200`, `F500`, `V600`, `V900`) |
 * | 10 | 2 | dimensions |
 * | 12 | 1 | quantisation: 0 float32, 1 int8 (value = byte × scale) |
 * | 13 | 1 | reserved (0) |
 * | 14 | 4 | scale, float32 (1 for float32) |
 * | 18 | n | the vector |
 * | 18+n | 4 | CRC-32 of every byte before it |
 *
 * The algorithm travels with the vector, so a template can never be compared with one of another
 * algorithm, and the checksum catches a template damaged in transit or storage. The format is not
 * secret: it leaves the server only sealed (src/crypto/exported-template-sealing.ts).
 */
export interface Template {
  readonly modality: Modality;
  readonly algorithm: string;
  readonly vector: Float32Array;
}

export type Modality = 'face' | 'voice';
export type Quantisation = 'float32' | 'int8';

/** Raised for bytes that are not a valid template; the message is safe to return to a caller. */
export class TemplateFormatError extends Error {
  override name = 'TemplateFormatError';
}

const MAGIC = Buffer.from('VPTM', 'ascii');
const FORMAT_VERSION = 1;
const HEADER_BYTES = 18;
const CRC_BYTES = 4;
const MODALITY_CODES: Readonly<Record<Modality, number>> = { face: 1, voice: 2 };

/**
 * Serialises a template.
 *
 * @example
 * const bytes = encodeTemplate({ modality: 'face', algorithm: 'F500', vector }, 'int8');
 * exports.seal(bytes).toString('base64'); // the `export` of the matching services: sealed, never raw
 */
export function encodeTemplate(template: Template, quantisation: Quantisation = 'float32'): Buffer {
  const { vector } = template;
  if (!/^[A-Z0-9]{4}$/.test(template.algorithm))
    throw new TemplateFormatError(`algorithm must be 4 characters A-Z/0-9 (got '${template.algorithm}')`);
  if (vector.length === 0 || vector.length > 0xffff)
    throw new TemplateFormatError(`a template has 1 to 65535 dimensions (got ${vector.length})`);
  if (!vector.every(Number.isFinite)) throw new TemplateFormatError('a template vector must hold finite numbers');
  const bodyBytes = quantisation === 'int8' ? vector.length : vector.length * 4;
  const bytes = Buffer.alloc(HEADER_BYTES + bodyBytes + CRC_BYTES);
  MAGIC.copy(bytes, 0);
  bytes.writeUInt8(FORMAT_VERSION, 4);
  bytes.writeUInt8(MODALITY_CODES[template.modality], 5);
  bytes.write(template.algorithm, 6, 4, 'ascii');
  bytes.writeUInt16LE(vector.length, 10);
  bytes.writeUInt8(quantisation === 'int8' ? 1 : 0, 12);
  if (quantisation === 'int8') {
    // Symmetric per-template scale: the largest magnitude maps to 127.
    const maxAbs = vector.reduce((m, v) => Math.max(m, Math.abs(v)), 0) || 1;
    const scale = maxAbs / 127;
    bytes.writeFloatLE(scale, 14);
    vector.forEach((v, i) => bytes.writeInt8(Math.max(-127, Math.min(127, Math.round(v / scale))), HEADER_BYTES + i));
  } else {
    bytes.writeFloatLE(1, 14);
    vector.forEach((v, i) => bytes.writeFloatLE(v, HEADER_BYTES + i * 4));
  }
  bytes.writeUInt32LE(crc32(bytes.subarray(0, HEADER_BYTES + bodyBytes)), HEADER_BYTES + bodyBytes);
  return bytes;
}

/**
 * Parses a template, checking magic, version, sizes and checksum.
 *
 * @example
 * const template = decodeTemplate(exports.open(decodeBase64(body.probe.import, 'probe.import')));
 * template.algorithm; // 'F500'
 * @throws {TemplateFormatError} naming what is wrong
 */
export function decodeTemplate(bytes: Uint8Array): Template {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < HEADER_BYTES + CRC_BYTES || !buffer.subarray(0, 4).equals(MAGIC)) {
    throw new TemplateFormatError('not a Veriport template (bad magic or too short)');
  }
  const version = buffer.readUInt8(4);
  if (version !== FORMAT_VERSION) throw new TemplateFormatError(`unsupported template format version ${version}`);
  const modality = (Object.keys(MODALITY_CODES) as Modality[]).find((m) => MODALITY_CODES[m] === buffer.readUInt8(5));
  if (modality === undefined) throw new TemplateFormatError(`unknown template modality ${buffer.readUInt8(5)}`);
  const algorithm = buffer.toString('ascii', 6, 10);
  const dims = buffer.readUInt16LE(10);
  const quantisation = buffer.readUInt8(12);
  if (quantisation > 1) throw new TemplateFormatError(`unknown template quantisation ${quantisation}`);
  const bodyBytes = quantisation === 1 ? dims : dims * 4;
  if (buffer.length !== HEADER_BYTES + bodyBytes + CRC_BYTES) {
    throw new TemplateFormatError(`template length ${buffer.length} does not match its ${dims} dimensions`);
  }
  if (crc32(buffer.subarray(0, HEADER_BYTES + bodyBytes)) !== buffer.readUInt32LE(HEADER_BYTES + bodyBytes)) {
    throw new TemplateFormatError('template checksum mismatch: the template was altered or damaged');
  }
  const scale = buffer.readFloatLE(14);
  const vector = new Float32Array(dims);
  for (let i = 0; i < dims; i += 1) {
    vector[i] =
      quantisation === 1 ? buffer.readInt8(HEADER_BYTES + i) * scale : buffer.readFloatLE(HEADER_BYTES + i * 4);
  }
  return { modality, algorithm, vector };
}
