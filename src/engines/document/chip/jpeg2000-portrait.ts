import { createRequire } from 'node:module';
import sharp from 'sharp';
import { ChipDataError } from './chip-data-error.js';

/** The decoder of `@cornerstonejs/codec-openjpeg` (OpenJPEG built to WebAssembly), as far as it is used here. */
interface J2kDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  decode(): void;
  getFrameInfo(): { width: number; height: number; bitsPerSample: number; componentCount: number };
  getDecodedBuffer(): ArrayLike<number>;
  delete(): void;
}
interface OpenJpeg {
  readonly J2KDecoder: new () => J2kDecoder;
}

/** DG2 portraits are a few hundred pixels a side; a larger frame is refused before OpenJPEG allocates it. */
const MAX_SIDE = 2048;

let openJpeg: Promise<OpenJpeg> | null = null;

/**
 * Decodes a JPEG 2000 portrait (a JP2 file or a bare J2K codestream, as DG2 stores them) with OpenJPEG
 * (`@cornerstonejs/codec-openjpeg`, WebAssembly, loaded once per process on first use) and re-encodes it as
 * JPEG, so `rfidPortrait` is always a JPEG a face engine reads. 8 to 16 bits per sample, grey or RGB.
 * Runs on the calling thread (a 480 × 640 portrait decodes in tens of milliseconds).
 *
 * @example
 * const jpeg = await jpeg2000PortraitToJpeg(portrait.image); // <ff d8 ff ...>
 * @throws {ChipDataError} `PORTRAIT` when the codestream is missing, too large or does not decode
 */
export async function jpeg2000PortraitToJpeg(image: Uint8Array): Promise<Buffer> {
  const codestream = jp2Codestream(image);
  const { width, height } = sizeOf(codestream);
  if (width < 1 || height < 1 || width > MAX_SIDE || height > MAX_SIDE) {
    throw new ChipDataError('PORTRAIT', `the DG2 JPEG 2000 image is ${width} × ${height}, beyond ${MAX_SIDE} a side`);
  }
  const module = await loadOpenJpeg();
  const decoder = new module.J2KDecoder();
  try {
    decoder.getEncodedBuffer(codestream.length).set(codestream);
    try {
      decoder.decode();
    } catch {
      throw new ChipDataError('PORTRAIT', 'the DG2 JPEG 2000 image does not decode');
    }
    const frame = decoder.getFrameInfo();
    const channels = frame.componentCount;
    if (channels !== 1 && channels !== 3) {
      throw new ChipDataError('PORTRAIT', `the DG2 JPEG 2000 image has ${channels} components (1 or 3 are read)`);
    }
    const samples = decoder.getDecodedBuffer();
    const shift = Math.max(0, frame.bitsPerSample - 8);
    const pixels = Buffer.alloc(frame.width * frame.height * channels);
    if (samples.length < pixels.length) throw new ChipDataError('PORTRAIT', 'the DG2 JPEG 2000 image is cut short');
    for (let i = 0; i < pixels.length; i += 1) pixels[i] = Math.min(255, Math.max(0, (samples[i] ?? 0) >> shift));
    return await sharp(pixels, { raw: { width: frame.width, height: frame.height, channels } })
      .jpeg({ quality: 92 })
      .toBuffer();
  } finally {
    decoder.delete();
  }
}

function loadOpenJpeg(): Promise<OpenJpeg> {
  openJpeg ??= (async () => {
    const factory: unknown = createRequire(import.meta.url)('@cornerstonejs/codec-openjpeg/decodewasmjs');
    if (typeof factory !== 'function') throw new Error('@cornerstonejs/codec-openjpeg: no module factory');
    // A fresh options object per instance (Emscripten keeps it as the module); OpenJPEG's [INFO] lines are dropped.
    const module: unknown = await (factory as (options: object) => Promise<unknown>)({
      print: () => undefined,
      printErr: () => undefined,
    });
    if (!isOpenJpeg(module)) throw new Error('@cornerstonejs/codec-openjpeg: no J2KDecoder');
    return module;
  })();
  return openJpeg;
}

function isOpenJpeg(value: unknown): value is OpenJpeg {
  return (
    typeof value === 'object' && value !== null && typeof (value as { J2KDecoder?: unknown }).J2KDecoder === 'function'
  );
}

/** The contiguous codestream box (`jp2c`) of a JP2 file, or the bytes themselves when they are a codestream. */
function jp2Codestream(image: Uint8Array): Uint8Array {
  const bytes = Buffer.from(image.buffer, image.byteOffset, image.byteLength);
  if (bytes[0] === 0xff && bytes[1] === 0x4f) return bytes;
  let at = 0;
  while (at + 8 <= bytes.length) {
    let length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (length === 1) {
      if (at + 16 > bytes.length) break;
      length = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (length === 0) length = bytes.length - at;
    if (length < header || at + length > bytes.length) break;
    if (type === 'jp2c') return bytes.subarray(at + header, at + length);
    at += length;
  }
  throw new ChipDataError('PORTRAIT', 'the DG2 JPEG 2000 file holds no codestream');
}

/** Image size from the SIZ marker segment that follows SOC (ISO/IEC 15444-1 A.5.1). */
function sizeOf(codestream: Uint8Array): { width: number; height: number } {
  const bytes = Buffer.from(codestream.buffer, codestream.byteOffset, codestream.byteLength);
  if (bytes.length < 24 || bytes.readUInt16BE(0) !== 0xff4f || bytes.readUInt16BE(2) !== 0xff51) {
    throw new ChipDataError('PORTRAIT', 'the DG2 JPEG 2000 codestream does not start with SOC and SIZ');
  }
  return {
    width: bytes.readUInt32BE(8) - bytes.readUInt32BE(16),
    height: bytes.readUInt32BE(12) - bytes.readUInt32BE(20),
  };
}
