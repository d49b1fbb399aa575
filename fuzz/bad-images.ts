/**
 * Images that must be refused (or, for the odd but valid ones, handled) without a 5xx: truncated and
 * corrupt JPEG/PNG, a 1×1 picture, a decompression bomb (a tiny PNG declaring 100,000×100,000 pixels),
 * formats the services do not take (GIF, WEBP, TIFF, BMP, SVG), random bytes. `cheap` is the set
 * refused before the face models run (the `npm test` suite); `all` adds the valid-looking and large ones
 * (the long run of `npm run fuzz`).
 */
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';

export interface BadImages {
  /** Refused before any model runs, or tiny: cheap enough for every request of the test suite. */
  readonly cheap: Readonly<Record<string, Buffer>>;
  /** `cheap` plus the expensive ones: an 8000×8000 JPEG, a complete corrupt JPEG, other formats. */
  readonly all: Readonly<Record<string, Buffer>>;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A PNG of a few hundred bytes declaring `width`×`height` 8-bit grey pixels, whose IDAT inflates to
 * 1 MiB of zeros (a decoder that trusts the header allocates width×height bytes).
 *
 * @example
 * const bomb = decompressionBombPng(100_000, 100_000);
 */
export function decompressionBombPng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1 << 20), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A 2×2 24-bit BMP, written by hand (sharp does not write BMP). */
function bmp(): Buffer {
  const rows = 2 * 8; // two rows of 2 pixels × 3 bytes, padded to 8
  const file = Buffer.alloc(54 + rows);
  file.write('BM', 0, 'latin1');
  file.writeUInt32LE(file.length, 2);
  file.writeUInt32LE(54, 10);
  file.writeUInt32LE(40, 14);
  file.writeInt32LE(2, 18);
  file.writeInt32LE(2, 22);
  file.writeUInt16LE(1, 26);
  file.writeUInt16LE(24, 28);
  file.fill(0x80, 54);
  return file;
}

/** Deterministic pseudo-random bytes (a linear congruential generator: the same bytes every run). */
function noise(length: number, seed: number): Buffer {
  const bytes = Buffer.alloc(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

/**
 * Builds the bad images (about a second: sharp encodes the formats; `all` encodes an 8000×8000 JPEG).
 *
 * @example
 * const images = await badImages({ large: false });
 * images.cheap.truncatedJpeg; // the first 600 bytes of a 320×240 JPEG
 */
export async function badImages(options: { large: boolean }): Promise<BadImages> {
  const raw = { width: 320, height: 240, channels: 3 as const };
  const picture = sharp(noise(raw.width * raw.height * 3, 7), { raw });
  const jpeg = await picture.clone().jpeg({ quality: 80 }).toBuffer();
  const png = await picture.clone().png().toBuffer();
  const onePixel = sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } });
  const cheap: Record<string, Buffer> = {
    empty: Buffer.alloc(0),
    randomBytes: noise(512, 11),
    truncatedJpeg: jpeg.subarray(0, 600),
    jpegHeaderOnly: jpeg.subarray(0, 4),
    truncatedPng: png.subarray(0, 100),
    pngSignatureOnly: png.subarray(0, 8),
    decompressionBomb: decompressionBombPng(100_000, 100_000),
    onePixelPng: await onePixel.clone().png().toBuffer(),
    gif: await onePixel.clone().gif().toBuffer(),
    bmp: bmp(),
    svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="9000" height="9000"><rect/></svg>'),
  };
  if (!options.large) return { cheap, all: cheap };
  const corruptJpeg = Buffer.from(jpeg);
  const scan = jpeg.indexOf(Buffer.from([0xff, 0xda]));
  for (let i = scan + 20; i < jpeg.length - 2; i++) corruptJpeg[i] = (i * 7919) & 0xff;
  const corruptPng = Buffer.from(png);
  corruptPng.fill(0x55, 60, png.length - 20);
  const all: Record<string, Buffer> = {
    ...cheap,
    corruptJpeg,
    corruptPng,
    onePixelJpeg: await onePixel.clone().jpeg().toBuffer(),
    webp: await picture.clone().webp().toBuffer(),
    tiff: await picture.clone().tiff().toBuffer(),
    bomb30k: decompressionBombPng(30_000, 30_000),
    huge8000: await sharp({ create: { width: 8000, height: 8000, channels: 3, background: '#7f7f7f' } })
      .jpeg({ quality: 30 })
      .toBuffer(),
  };
  return { cheap, all };
}
