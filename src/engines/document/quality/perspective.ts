import { distance, type Point, type Quad } from '../document-geometry.js';
import type { MrzBand } from '../mrz-band-locator.js';
import { checkOf, type QualityCheck } from './check-value.js';

/**
 * Largest keystone for a PASS: the relative difference in character height between the two ends of the
 * MRZ lines (page turned about a vertical axis) or in length between the first and last lines (turned
 * about a horizontal axis). 0.06 is about 20° of turn for a page filling 60 % of a phone camera's frame
 * (docs/documents.md, "Quality").
 */
export const MAX_KEYSTONE = 0.06;

/** Largest in-plane rotation of the band from the image axes for a PASS, in degrees. */
export const MAX_SKEW_DEGREES = 10;

/** Distance from `p` to the infinite line through `a` and `b`. */
function distanceToLine(p: Point, a: Point, b: Point): number {
  const length = distance(a, b);
  return length > 0 ? Math.abs((b.x - a.x) * (a.y - p.y) - (a.x - p.x) * (b.y - a.y)) / length : 0;
}

/**
 * Keystone of a located band (its raw lines, before orientation regularises them): the larger of
 * |1 − spacing at one end / spacing at the other| between the first and last lines (a page turned about
 * a vertical axis makes the lines converge) and |1 − first / last line length| (turned about a
 * horizontal axis).
 *
 * @example
 * keystone(locatedBand); // 0.01 for a page seen square on
 */
export function keystone(band: MrzBand): number {
  const first = band.lines[0];
  const last = band.lines[band.lines.length - 1];
  if (!first || !last || first === last) return 0;
  const atStart = distanceToLine(last.start, first.start, first.end);
  const atEnd = distanceToLine(last.end, first.start, first.end);
  const horizontal = atStart > 0 && atEnd > 0 ? 1 - Math.min(atStart, atEnd) / Math.max(atStart, atEnd) : 0;
  const a = distance(first.start, first.end);
  const b = distance(last.start, last.end);
  const vertical = a > 0 && b > 0 ? 1 - Math.min(a, b) / Math.max(a, b) : 0;
  return Math.max(horizontal, vertical);
}

/** The band's in-plane angle from the nearest image axis, in degrees (0 to 45). */
export function skewDegrees(band: MrzBand): number {
  const a = ((band.angle % 90) + 90) % 90;
  return Math.min(a, 90 - a);
}

/**
 * Keystone of a page outline: the larger of |1 − shorter / longer| of its top and bottom edges and of its
 * left and right edges (the same depth ratio the band measures, across the whole page).
 *
 * @example
 * outlineKeystone(pageQuad); // 0.25 for a page tilted back until its top edge is a quarter shorter
 */
export function outlineKeystone([tl, tr, br, bl]: Quad): number {
  const ratio = (a: number, b: number) => (a > 0 && b > 0 ? 1 - Math.min(a, b) / Math.max(a, b) : 0);
  return Math.max(ratio(distance(tl, tr), distance(bl, br)), ratio(distance(tl, bl), distance(tr, br)));
}

/**
 * Perspective: FAIL when the band is keystoned past MAX_KEYSTONE or rotated past MAX_SKEW_DEGREES. The
 * value is the keystone; a skew failure reports the skew in degrees instead. With the page's own outline
 * (`outline`, page-contour.ts), its keystone counts too: a page tilted about a horizontal axis barely
 * changes the length of MRZ lines 4 mm apart, but shortens its top edge.
 *
 * @example
 * perspectiveCheck(locatedBand).result; // 'PASS'
 */
export function perspectiveCheck(band: MrzBand | null, outline: Quad | null = null): QualityCheck {
  if (!band) return checkOf(null, 'ratio', '<=', MAX_KEYSTONE);
  const skew = skewDegrees(band);
  if (skew > MAX_SKEW_DEGREES) return checkOf(skew, 'degrees', '<=', MAX_SKEW_DEGREES);
  const page = outline ? outlineKeystone(outline) : 0;
  return checkOf(Math.max(keystone(band), page), 'ratio', '<=', MAX_KEYSTONE);
}
