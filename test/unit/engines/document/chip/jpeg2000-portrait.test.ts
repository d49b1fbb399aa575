import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { ChipDataError } from '../../../../../src/engines/document/chip/chip-data-error.js';
import { readDataGroup2Portrait } from '../../../../../src/engines/document/chip/data-group-2.js';
import { jpeg2000PortraitToJpeg } from '../../../../../src/engines/document/chip/jpeg2000-portrait.js';
import { testDataGroup2 } from '../../../../helpers/chip-pki.js';

interface Encoder {
  getDecodedBuffer(info: object): Uint8Array;
  setQuality(lossless: boolean, quality: number): void;
  encode(): void;
  getEncodedBuffer(): Uint8Array;
  delete(): void;
}

/** OpenJPEG's encoder (the package's full build; the server loads only the decoder). */
async function encodeJ2k(rgb: Uint8Array, width: number, height: number): Promise<Buffer> {
  const factory = createRequire(import.meta.url)('@cornerstonejs/codec-openjpeg/wasmjs') as (
    options: object,
  ) => Promise<{ J2KEncoder: new () => Encoder }>;
  const module = await factory({ print: () => undefined, printErr: () => undefined });
  const encoder = new module.J2KEncoder();
  const info = { width, height, bitsPerSample: 8, componentCount: 3, isSigned: false, isUsingColorTransform: true };
  encoder.getDecodedBuffer(info).set(rgb);
  encoder.setQuality(true, 0);
  encoder.encode();
  const out = Buffer.from(encoder.getEncodedBuffer());
  encoder.delete();
  return out;
}

const box = (type: string, content: Buffer) => {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + content.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, content]);
};

/** A minimal JP2 file: signature box, file type, the codestream box. */
function jp2File(codestream: Buffer): Buffer {
  return Buffer.concat([
    Buffer.from('0000000c6a5020200d0a870a', 'hex'),
    box('ftyp', Buffer.from('jp2 \u0000\u0000\u0000\u0000jp2 ', 'latin1')),
    box('jp2c', codestream),
  ]);
}

describe('DG2 JPEG 2000 portraits (OpenJPEG, WebAssembly)', () => {
  const width = 64;
  const height = 80;
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i += 3) {
    const x = (i / 3) % width;
    rgb[i] = x * 4;
    rgb[i + 1] = 128;
    rgb[i + 2] = 255 - x * 4;
  }

  it('decodes a JP2 file and a bare codestream from DG2 into a JPEG of the same picture', async () => {
    const codestream = await encodeJ2k(rgb, width, height);
    for (const image of [jp2File(codestream), codestream]) {
      const portrait = readDataGroup2Portrait(testDataGroup2(image, width, height, 1));
      assert.equal(portrait.format, 'jpeg2000');
      const jpeg = await jpeg2000PortraitToJpeg(portrait.image);
      const { data, info } = await sharp(jpeg).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([info.width, info.height, info.channels], [width, height, 3]);
      // Left edge red-free and blue, right edge red: the picture, within JPEG's error.
      assert.ok(Math.abs((data[0] ?? 0) - 0) < 12 && Math.abs((data[2] ?? 0) - 255) < 12, `${data[0]} ${data[2]}`);
      const right = (width - 1) * 3;
      assert.ok(Math.abs((data[right] ?? 0) - 252) < 12, `${data[right]}`);
    }
  });

  it('refuses a codestream that does not decode, and a JPEG declared as JPEG 2000', async () => {
    const codestream = await encodeJ2k(rgb, width, height);
    const broken = Buffer.from(codestream.subarray(0, 60));
    await assert.rejects(jpeg2000PortraitToJpeg(broken), ChipDataError);
    await assert.rejects(jpeg2000PortraitToJpeg(Buffer.from('ff4f', 'hex')), ChipDataError);
    // The decoder is still usable after a failure.
    assert.equal((await sharp(await jpeg2000PortraitToJpeg(codestream)).metadata()).width, width);
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    assert.throws(() => readDataGroup2Portrait(testDataGroup2(jpeg, 8, 8, 1)), ChipDataError);
  });
});
