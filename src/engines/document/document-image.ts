import sharp from 'sharp';
import { ImageDecodeError } from '../face/image-decoding.js';
import type { RgbImage } from './gray-image.js';

/** Limits of document decoding. */
export interface DocumentDecodeOptions {
  /** Images with more pixels are refused (decompression bombs). */
  readonly maxInputPixels: number;
  /**
   * Larger images are scaled down to this longer side: a TD3 page across 2400 px has MRZ characters
   * about 30 px high, twice what the recogniser needs.
   */
  readonly maxSide: number;
}

export const DEFAULT_DOCUMENT_DECODE: DocumentDecodeOptions = { maxInputPixels: 50_000_000, maxSide: 2400 };

/**
 * Decodes JPEG, PNG, WebP, GIF, TIFF or AVIF bytes to 8-bit RGB, upright per the EXIF orientation.
 *
 * @example
 * const image = await decodeDocumentImage(Buffer.from(body.documentImages[0].image, 'base64'));
 * @throws {ImageDecodeError} when the bytes are not a supported image or exceed the pixel limit
 */
export async function decodeDocumentImage(
  bytes: Uint8Array,
  options: DocumentDecodeOptions = DEFAULT_DOCUMENT_DECODE,
): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: options.maxInputPixels, failOn: 'error' })
      .autoOrient()
      .resize({ width: options.maxSide, height: options.maxSide, fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3)
      throw new ImageDecodeError(`expected 3 colour channels after decoding, got ${info.channels}`);
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      width: info.width,
      height: info.height,
    };
  } catch (error) {
    if (error instanceof ImageDecodeError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ImageDecodeError(
      /pixel limit/i.test(reason)
        ? `image is larger than ${options.maxInputPixels} pixels`
        : 'data is not a supported image (JPEG, PNG, WebP, GIF, TIFF, AVIF)',
    );
  }
}
