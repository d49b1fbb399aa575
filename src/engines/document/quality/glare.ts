import type { RgbImage } from '../gray-image.js';
import { checkOf, type QualityCheck } from './check-value.js';

/** Largest share of the page covered by glare for a PASS (docs/documents.md, "Quality"). */
export const MAX_GLARE_SHARE = 0.03;

/** A pixel is clipped when its darkest channel reaches this: specular light saturates all three. */
const CLIPPED = 248;
/** Glare is only told from paper when the paper is darker than this (median luma of the page). */
const MAX_PAPER_FOR_GLARE = 235;

/**
 * Share of the page covered by glare: clipped pixels (all channels ≥ 248) in 8×8 cells that are clipped
 * almost whole (≥ 90 %, so text or a photo lost under the light, not white paper between characters).
 * A page whose paper is itself near white (a scan, an over-exposed photo) shows no glare that can be told
 * from the paper: 0.
 *
 * @example
 * glareShare(page); // 0.004
 */
export function glareShare(image: RgbImage): number {
  const { width, height, data } = image;
  // Median luma of every 7th pixel from a histogram of 1000·luma (integer weights): no sort.
  const histogram = new Uint32Array(255_001);
  let samples = 0;
  for (let i = 0; i < width * height; i += 7) {
    const l = 299 * (data[3 * i] ?? 0) + 587 * (data[3 * i + 1] ?? 0) + 114 * (data[3 * i + 2] ?? 0);
    histogram[l] = (histogram[l] ?? 0) + 1;
    samples++;
  }
  let paper = 0;
  for (let l = 0, seen = 0; l < histogram.length; l++) {
    seen += histogram[l] ?? 0;
    if (seen > Math.floor(samples / 2)) {
      paper = l / 1000;
      break;
    }
  }
  if (paper > MAX_PAPER_FOR_GLARE) return 0;
  const cell = 8;
  const MAX_UNCLIPPED = Math.floor(0.1 * cell * cell);
  let glare = 0;
  let cells = 0;
  for (let cy = 0; cy + cell <= height; cy += cell) {
    for (let cx = 0; cx + cell <= width; cx += cell) {
      cells++;
      // A cell is glare with at most 10 % of its pixels unclipped: stop counting past that.
      let unclipped = 0;
      for (let y = cy; y < cy + cell && unclipped <= MAX_UNCLIPPED; y++) {
        for (let x = cx; x < cx + cell; x++) {
          const i = 3 * (y * width + x);
          if ((data[i] ?? 0) < CLIPPED || (data[i + 1] ?? 0) < CLIPPED || (data[i + 2] ?? 0) < CLIPPED) unclipped++;
        }
      }
      if (unclipped <= MAX_UNCLIPPED) glare++;
    }
  }
  return cells > 0 ? glare / cells : 0;
}

/**
 * Glare: FAIL when more than MAX_GLARE_SHARE of the page is lost under specular light.
 *
 * @example
 * glareCheck(page).result; // 'PASS'
 */
export function glareCheck(image: RgbImage | null): QualityCheck {
  return checkOf(image ? glareShare(image) : null, 'share of page', '<=', MAX_GLARE_SHARE);
}
