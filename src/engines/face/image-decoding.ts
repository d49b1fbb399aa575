import sharp from 'sharp';
import type { RgbImage } from './raster.js';
import type { Rotation } from './rotation.js';

/** Raised for bytes that are not a decodable image; the message is safe to return to a caller. */
export class ImageDecodeError extends Error {
  override name = 'ImageDecodeError';
}

export interface DecodeOptions {
  /** Images with more pixels are refused (decompression bombs). */
  readonly maxInputPixels: number;
  /**
   * Larger images are scaled down so their longer side is this many pixels (faces stay far above the
   * models' input sizes).
   */
  readonly maxSide: number;
  /** Clockwise rotation applied after the EXIF orientation (a capture app that sends sideways frames). */
  readonly rotation?: Rotation;
}

export const DEFAULT_DECODE_OPTIONS: DecodeOptions = { maxInputPixels: 50_000_000, maxSide: 2048 };

/**
 * Decodes JPEG, PNG, WebP, GIF, TIFF or AVIF bytes to 8-bit RGB, upright per the EXIF orientation.
 *
 * @example
 * const image = await decodeImage(Buffer.from(body.image.data, 'base64'));
 * image.width; image.height; image.data.length === image.width * image.height * 3;
 */
export async function decodeImage(
  bytes: Uint8Array,
  options: DecodeOptions = DEFAULT_DECODE_OPTIONS,
): Promise<RgbImage> {
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: options.maxInputPixels, failOn: 'error' })
      .autoOrient()
      .rotate(options.rotation ?? 0)
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
