import type { Mat } from '@techstark/opencv-js';
import type { GrayImage } from './gray-image.js';
import type { MrzBand } from './mrz-band-locator.js';
import { withMats } from './mat-scope.js';
import { cvFlag, type OpenCv } from './opencv-runtime.js';
import { RECOGNIZER_HEIGHT } from './paddle-text-recognizer.js';

/** Crop proportions, in band line heights: measured on the dev set (docs/documents.md, "OCR of the band"). */
export interface LineCropOptions {
  /** Height of a line crop. */
  readonly height: number;
  /** Margin before the first and after the last character. */
  readonly margin: number;
}

export const DEFAULT_LINE_CROP: LineCropOptions = { height: 1.4, margin: 1.0 };

/**
 * Cuts each MRZ line out of the image, upright and straight, at the recogniser's 48 px height: one affine
 * warp per line deskews and scales at once. The band must be oriented (oriented-band.ts): lines in reading
 * order, each spanning the band's full extent.
 *
 * @example
 * const lines = mrzLineImages(cv, grayMat, orientBand(band, false)); // [line 1, line 2(, line 3)], 48 px high
 */
export function mrzLineImages(
  cv: OpenCv,
  gray: Mat,
  band: MrzBand,
  options: LineCropOptions = DEFAULT_LINE_CROP,
): GrayImage[] {
  const cropHeight = options.height * band.lineHeight;
  const k = cropHeight / RECOGNIZER_HEIGHT;
  return band.lines.map((line) =>
    withMats((keep) => {
      const length = Math.hypot(line.end.x - line.start.x, line.end.y - line.start.y);
      const u = { x: (line.end.x - line.start.x) / length, y: (line.end.y - line.start.y) / length };
      const n = { x: -u.y, y: u.x };
      const margin = options.margin * band.lineHeight;
      const width = Math.max(8, Math.round((length + 2 * margin) / k));
      // Destination (X, Y) <- source origin + X·k·u + Y·k·n (an inverse map).
      const origin = {
        x: line.start.x - margin * u.x - (cropHeight / 2) * n.x,
        y: line.start.y - margin * u.y - (cropHeight / 2) * n.y,
      };
      const map = keep(cv.matFromArray(2, 3, cv.CV_64F, [u.x * k, n.x * k, origin.x, u.y * k, n.y * k, origin.y]));
      const out = keep(new cv.Mat());
      cv.warpAffine(
        gray,
        out,
        map,
        new cv.Size(width, RECOGNIZER_HEIGHT),
        cvFlag(cv.INTER_LINEAR) | cvFlag(cv.WARP_INVERSE_MAP),
        cvFlag(cv.BORDER_REPLICATE),
      );
      return { data: Uint8Array.from(out.data), width, height: RECOGNIZER_HEIGHT };
    }),
  );
}
