import type { RgbImage } from '../gray-image.js';
import { checkOf, type QualityCheck } from './check-value.js';

/**
 * Least colourfulness for a PASS (95th percentile of max − min channel, 0–255): identity pages print
 * colour backgrounds, photos and seals; a grayscale photocopy or a black-and-white print stays below it
 * even after JPEG's chroma noise (docs/documents.md, "Quality").
 */
export const MIN_COLORFULNESS = 20;

/**
 * The 95th percentile over a page's pixels (every 4th row and column) of max(R, G, B) − min(R, G, B).
 *
 * @example
 * colorfulness(page); // 64 for a colour page, 3 for a grayscale copy
 */
export function colorfulness(image: RgbImage): number {
  const histogram = new Uint32Array(256);
  let count = 0;
  for (let y = 0; y < image.height; y += 4) {
    for (let x = 0; x < image.width; x += 4) {
      const i = (y * image.width + x) * 3;
      const r = image.data[i] ?? 0;
      const g = image.data[i + 1] ?? 0;
      const b = image.data[i + 2] ?? 0;
      const spread = Math.max(r, g, b) - Math.min(r, g, b);
      histogram[spread] = (histogram[spread] ?? 0) + 1;
      count++;
    }
  }
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v] ?? 0;
    if (seen >= 0.95 * count) return v;
  }
  return 255;
}

/**
 * Color: FAIL for a grayscale copy of a document.
 *
 * @example
 * colorCheck(pageImage).result; // 'PASS'
 */
export function colorCheck(image: RgbImage | null): QualityCheck {
  return checkOf(image ? colorfulness(image) : null, '0-255', '>=', MIN_COLORFULNESS);
}
