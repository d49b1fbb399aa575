import { decodeImage } from '../face/image-decoding.js';
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
  // The face engine's decoder: the same formats, orientation, pixel limit and error reasons.
  return decodeImage(bytes, options);
}
