import sharp from 'sharp';
import { ApiError } from '../../server/errors/api-error.js';
import { DEFAULT_DOCUMENT_DECODE } from '../../engines/document/document-image.js';

/** Doc 2 B's image codes. */
export const DocumentImageCode = { imageDataInvalid: -7, imageSizeInvalid: -8 } as const;

/** Below this shorter side no MRZ can be found (a TD1 line of 30 characters at 7 px needs ~200 px). */
export const MIN_FRAME_SIDE = 64;

/**
 * Reads a frame's header before the engine sees it, so the caller's fault gets Doc 2 B's codes: not
 * image data (-7), or an image too small or with more pixels than the engine decodes (-8).
 *
 * @example
 * await checkFrameImage(bytes, 0); // { width: 1280, height: 720 }
 * @throws {ApiError} 400 -7 or -8
 */
export async function checkFrameImage(bytes: Uint8Array, index: number): Promise<{ width: number; height: number }> {
  let width: number | undefined;
  let height: number | undefined;
  try {
    const meta = await sharp(bytes).metadata();
    width = meta.autoOrient.width;
    height = meta.autoOrient.height;
  } catch {
    throw new ApiError(400, DocumentImageCode.imageDataInvalid, `images[${index}].data is not image data`);
  }
  const { maxInputPixels } = DEFAULT_DOCUMENT_DECODE;
  if (Math.min(width, height) < MIN_FRAME_SIDE || width * height > maxInputPixels) {
    throw new ApiError(
      400,
      DocumentImageCode.imageSizeInvalid,
      `images[${index}] is ${width}×${height}; images must be at least ${MIN_FRAME_SIDE} pixels a side and at most ` +
        `${maxInputPixels / 1e6} megapixels`,
    );
  }
  return { width, height };
}
