import { distance, type Quad } from '../document-geometry.js';
import { checkOf, type QualityCheck } from './check-value.js';

/**
 * How far outside the frame a page corner may fall, as a share of the page diagonal, and still PASS: the
 * page model's own error is about 3 % of the page (page-geometry.ts).
 */
export const BOUNDS_TOLERANCE = 0.03;

/**
 * The farthest any page corner lies outside the image, as a share of the page diagonal (0 when all are
 * inside).
 *
 * @example
 * outsideShare(pageQuad, 1280, 720); // 0
 */
export function outsideShare(quad: Quad, width: number, height: number): number {
  const diagonal = distance(quad[0], quad[2]);
  let worst = 0;
  for (const p of quad) {
    const dx = Math.max(0, -p.x, p.x - width);
    const dy = Math.max(0, -p.y, p.y - height);
    worst = Math.max(worst, Math.hypot(dx, dy));
  }
  return diagonal > 0 ? worst / diagonal : 1;
}

/**
 * Bounds: the page fully inside the frame.
 *
 * @example
 * boundsCheck(pageQuad, 1280, 720).result; // 'PASS'
 */
export function boundsCheck(quad: Quad | null, width: number, height: number): QualityCheck {
  return checkOf(quad ? outsideShare(quad, width, height) : null, 'share of diagonal', '<=', BOUNDS_TOLERANCE);
}
