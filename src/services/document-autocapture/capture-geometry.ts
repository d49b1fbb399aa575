import { invalidValue } from '../../server/errors/api-error.js';
import type { DocumentKind } from './document-kinds.js';
import type { CaptureParametersResponse, CaptureRegionResponse } from './schemas.js';

/**
 * Pixels per millimetre of the page below which its MRZ is not read: the resolution check fails under an
 * MRZ character height of 7 px (engines/document/quality/resolution.ts), and OCR-B as printed in an MRZ is
 * 2.92 mm high (7.3 px at 2.5 px/mm on the rendered pages, the lowest scale that still read valid).
 */
export const MIN_PIXELS_PER_MM = 7 / 2.92;

/**
 * The smallest frame in which the document, filling its share of the width, still reads: page width in
 * pixels at MIN_PIXELS_PER_MM over the fill, and the frame height that keeps the page's aspect ratio.
 *
 * @example
 * minimumResolution(documentKind({ documentType: 'PASSPORT' })); // { minimumResolution: { width: 375, height: 264 } }
 */
export function minimumResolution(kind: DocumentKind): CaptureParametersResponse {
  const width = Math.ceil((kind.widthMm * MIN_PIXELS_PER_MM) / kind.fill);
  return { minimumResolution: { width, height: Math.ceil(width / kind.aspectRatio) } };
}

/**
 * Where the document should lie in a frame of the given size: centred, `fill` of the frame's width with the
 * document's aspect ratio; when that is taller than the frame, as tall as the frame (the ratio kept
 * within the image bounds, as Doc 2 B says for large percentages).
 *
 * @example
 * captureRegion(documentKind({ documentType: 'DRIVERS_LICENSE' }), { width: 1280, height: 720 });
 * // { x: 128, y: 37, width: 1024, height: 646 }
 * @throws {ApiError} 400 -6 when the resolution is not positive
 */
export function captureRegion(
  kind: DocumentKind,
  resolution: { readonly width: number; readonly height: number },
): CaptureRegionResponse {
  const { width: frameWidth, height: frameHeight } = resolution;
  if (!(frameWidth > 0 && frameHeight > 0)) {
    throw invalidValue('captureResolution.width and captureResolution.height must be above 0');
  }
  let width = frameWidth * kind.fill;
  let height = width / kind.aspectRatio;
  if (height > frameHeight) {
    height = frameHeight;
    width = height * kind.aspectRatio;
  }
  width = Math.round(width);
  height = Math.round(height);
  return { x: Math.round((frameWidth - width) / 2), y: Math.round((frameHeight - height) / 2), width, height };
}
