import type { Mat } from '@techstark/opencv-js';
import { distance, polygonArea, type Point, type Quad } from './document-geometry.js';
import type { GrayImage } from './gray-image.js';
import { withMats } from './mat-scope.js';
import type { MrzBand } from './mrz-band-locator.js';
import { cvFlag, type OpenCv } from './opencv-runtime.js';
import { layoutGeometry, type PageLayout } from './page-geometry.js';

/**
 * Longest side the contours are searched at: edges of a page filling a fair share of the frame survive
 * the downscale, and a 1280×720 frame costs a few milliseconds instead of tens.
 */
export const CONTOUR_MAX_SIDE = 480;
/**
 * A candidate covers at least this share of the image: an ID-1 card across 12 % of a 16:9 frame's
 * width (too far to read) still counts; the agreement with the MRZ rules out the photos and text blocks.
 */
const MIN_AREA_SHARE = 0.01;
/** A candidate corner this close to the image border (share of the shorter side) is the frame's edge. */
const BORDER_MARGIN = 0.01;
/** approxPolyDP tolerance, as a share of the contour's perimeter. */
const APPROX_EPSILON = 0.02;

/**
 * Convex quadrilaterals that may be a page's outline, in image pixels, corners in the contour's order
 * (not reading order): contours of the Canny edges (closed by a 3×3 dilation) and of the Otsu
 * threshold, on the image downscaled to CONTOUR_MAX_SIDE, each simplified by approxPolyDP, kept when it
 * has 4 vertices, is convex, covers MIN_AREA_SHARE of the image and stays off the image border (a page
 * cut by the frame is not outlined by its own edges). Each side is then refitted by least squares to the
 * contour points along its middle, and the corners are the refitted sides' intersections: rounded card
 * corners and the downscale's pixel grid no longer pull them inwards.
 *
 * @example
 * const quads = pageQuadCandidates(cv, gray); // [[{ x: 212, y: 96 }, …], …]
 */
export function pageQuadCandidates(cv: OpenCv, gray: GrayImage): Quad[] {
  const scale = Math.min(1, CONTOUR_MAX_SIDE / Math.max(gray.width, gray.height));
  return withMats((keep) => {
    const full = keep(new cv.Mat(gray.height, gray.width, cv.CV_8UC1));
    full.data.set(gray.data);
    let small = full;
    if (scale < 1) {
      small = keep(new cv.Mat());
      const size = new cv.Size(Math.round(gray.width * scale), Math.round(gray.height * scale));
      cv.resize(full, small, size, 0, 0, cvFlag(cv.INTER_AREA));
    }
    const smooth = keep(new cv.Mat());
    cv.GaussianBlur(small, smooth, new cv.Size(5, 5), 0);
    const edges = keep(new cv.Mat());
    cv.Canny(smooth, edges, 40, 120);
    const kernel = keep(cv.getStructuringElement(cvFlag(cv.MORPH_RECT), new cv.Size(3, 3)));
    cv.dilate(edges, edges, kernel);
    const binary = keep(new cv.Mat());
    cv.threshold(smooth, binary, 0, 255, cvFlag(cv.THRESH_BINARY) | cvFlag(cv.THRESH_OTSU));
    const quads: Quad[] = [];
    for (const mask of [edges, binary]) {
      const contours = keep(new cv.MatVector());
      const hierarchy = keep(new cv.Mat());
      cv.findContours(mask, contours, hierarchy, cvFlag(cv.RETR_LIST), cvFlag(cv.CHAIN_APPROX_NONE));
      for (let i = 0; i < contours.size(); i++) {
        const quad = contourQuad(cv, keep(contours.get(i)), small.cols, small.rows);
        if (quad) quads.push(scaleQuad(quad, 1 / scale));
      }
    }
    return quads;
  });
}

/** The refitted quadrilateral of one contour, in the searched image's pixels; null when it is no page. */
function contourQuad(cv: OpenCv, contour: Mat, width: number, height: number): Quad | null {
  const area = cv.contourArea(contour);
  if (area < MIN_AREA_SHARE * width * height) return null;
  const approx = new cv.Mat();
  try {
    cv.approxPolyDP(contour, approx, APPROX_EPSILON * cv.arcLength(contour, true), true);
    if (approx.rows !== 4 || !cv.isContourConvex(approx)) return null;
    const corners = pointsOf(approx.data32S);
    const margin = BORDER_MARGIN * Math.min(width, height);
    if (corners.some((p) => p.x < margin || p.y < margin || p.x > width - 1 - margin || p.y > height - 1 - margin))
      return null;
    return refineCorners(corners, pointsOf(contour.data32S));
  } finally {
    approx.delete();
  }
}

function scaleQuad([a, b, c, d]: Quad, factor: number): Quad {
  const at = (p: Point): Point => ({ x: p.x * factor, y: p.y * factor });
  return [at(a), at(b), at(c), at(d)];
}

function pointsOf(data: Int32Array): Point[] {
  const points: Point[] = [];
  for (let i = 0; i + 1 < data.length; i += 2) points.push({ x: data[i] ?? 0, y: data[i + 1] ?? 0 });
  return points;
}

/** A line as a point on it and a unit direction. */
interface Line {
  readonly at: Point;
  readonly u: Point;
}

/**
 * The quad's sides refitted to the contour points near their middle 70 % (total least squares), and
 * the corners as the intersections of adjacent sides; a side with too few points keeps its chord.
 */
function refineCorners(corners: readonly Point[], contour: readonly Point[]): Quad | null {
  const lines: Line[] = corners.map((a, i) => {
    const b = corners[(i + 1) % 4] ?? a;
    const length = distance(a, b);
    const u = { x: (b.x - a.x) / length, y: (b.y - a.y) / length };
    const near = contour.filter((p) => {
      const along = (p.x - a.x) * u.x + (p.y - a.y) * u.y;
      const across = Math.abs((p.x - a.x) * u.y - (p.y - a.y) * u.x);
      return along > 0.15 * length && along < 0.85 * length && across < Math.max(2, 0.02 * length);
    });
    return near.length >= 8 ? fitLine(near) : { at: a, u };
  });
  const quad: Point[] = [];
  for (let i = 0; i < 4; i++) {
    const before = lines[(i + 3) % 4];
    const after = lines[i];
    if (!before || !after) return null;
    const p = intersect(before, after);
    if (!p) return null;
    quad.push(p);
  }
  const [a, b, c, d] = quad;
  return a && b && c && d ? [a, b, c, d] : null;
}

/** Total least squares line through points: their centroid and principal direction. */
function fitLine(points: readonly Point[]): Line {
  const n = points.length;
  const cx = points.reduce((s, p) => s + p.x, 0) / n;
  const cy = points.reduce((s, p) => s + p.y, 0) / n;
  let xx = 0;
  let xy = 0;
  let yy = 0;
  for (const p of points) {
    xx += (p.x - cx) ** 2;
    xy += (p.x - cx) * (p.y - cy);
    yy += (p.y - cy) ** 2;
  }
  const angle = 0.5 * Math.atan2(2 * xy, xx - yy);
  return { at: { x: cx, y: cy }, u: { x: Math.cos(angle), y: Math.sin(angle) } };
}

function intersect(l: Line, m: Line): Point | null {
  const det = l.u.x * m.u.y - l.u.y * m.u.x;
  if (Math.abs(det) < 1e-6) return null;
  const t = ((m.at.x - l.at.x) * m.u.y - (m.at.y - l.at.y) * m.u.x) / det;
  return { x: l.at.x + t * l.u.x, y: l.at.y + t * l.u.y };
}

/** How far a contour may differ from the page the MRZ gives and still be taken for it. */
export const CONTOUR_AGREEMENT = {
  /** Page width over height against the layout's, relative (perspective foreshortens one of them). */
  aspect: 0.2,
  /** MRZ line length over the page's bottom edge against the layout's, relative. */
  widthShare: 0.1,
  /** Last MRZ line's centre to the bottom edge, and first character to the left edge, in line lengths. */
  offset: 0.06,
  /** Angle between the bottom edge and the MRZ lines, degrees. */
  skewDegrees: 5,
} as const;

/**
 * The candidate that agrees with the page the MRZ anchors (page-geometry.ts), in reading order; null
 * when none does. A candidate agrees when the band lies inside it, its bottom edge runs along the MRZ
 * lines (CONTOUR_AGREEMENT.skewDegrees) at the layout's distance below the last line, its left edge at
 * the layout's margin before the first character, the MRZ spans the layout's share of its bottom edge,
 * and its aspect ratio is the layout's (all within CONTOUR_AGREEMENT). Of several, the one whose
 * corners lie closest to the MRZ-anchored page's.
 *
 * @example
 * const quad = agreeingPageQuad(pageQuadCandidates(cv, gray), band, 'TD3', pageQuadFromBand(band, 'TD3'));
 */
export function agreeingPageQuad(
  candidates: readonly Quad[],
  band: MrzBand,
  layout: PageLayout,
  anchored: Quad,
): Quad | null {
  const agreeing = candidates.map((c) => inReadingOrder(c, anchored)).filter((quad) => agrees(quad, band, layout));
  let best: { quad: Quad; cost: number } | null = null;
  for (const quad of agreeing) {
    const cost = quad.reduce((sum, p, i) => sum + distance(p, anchored[i] ?? p), 0);
    if (!best || cost < best.cost) best = { quad, cost };
  }
  if (!best) return null;
  // The same outline is found several times (both sides of a Canny edge, the Otsu boundary): averaged.
  const chosen = best.quad;
  const tolerance = SAME_OUTLINE * distance(chosen[0], chosen[2]);
  const same = agreeing.filter((quad) => quad.every((p, i) => distance(p, chosen[i] ?? p) <= tolerance));
  const mean = (i: number): Point => ({
    x: same.reduce((sum, q) => sum + (q[i]?.x ?? 0), 0) / same.length,
    y: same.reduce((sum, q) => sum + (q[i]?.y ?? 0), 0) / same.length,
  });
  return [mean(0), mean(1), mean(2), mean(3)];
}

/** Candidates whose corners are all within this share of the page diagonal outline the same page. */
const SAME_OUTLINE = 0.015;

/** The candidate's corners renumbered to match the anchored page's (same winding, nearest rotation). */
function inReadingOrder(candidate: Quad, anchored: Quad): Quad {
  const signed = (q: readonly Point[]) =>
    q.reduce((s, p, i) => {
      const n = q[(i + 1) % q.length] ?? p;
      return s + p.x * n.y - n.x * p.y;
    }, 0);
  const points =
    Math.sign(signed(candidate)) === Math.sign(signed(anchored)) ? [...candidate] : [...candidate].reverse();
  let best: Point[] = points;
  let bestCost = Infinity;
  for (let shift = 0; shift < 4; shift++) {
    const turned = points.map((_, i) => points[(i + shift) % 4] ?? points[i] ?? { x: 0, y: 0 });
    const cost = turned.reduce((sum, p, i) => sum + distance(p, anchored[i] ?? p), 0);
    if (cost < bestCost) {
      best = turned;
      bestCost = cost;
    }
  }
  const [a, b, c, d] = best;
  return a && b && c && d ? [a, b, c, d] : candidate;
}

function agrees(quad: Quad, band: MrzBand, layout: PageLayout): boolean {
  const first = band.lines[0];
  const last = band.lines[band.lines.length - 1];
  if (!first || !last) return false;
  const geometry = layoutGeometry(layout);
  const length = distance(first.start, first.end);
  const u = { x: (first.end.x - first.start.x) / length, y: (first.end.y - first.start.y) / length };
  // Band frame: `along` the lines from the last line's first character, `down` across them, in line lengths.
  const along = (p: Point) => ((p.x - last.start.x) * u.x + (p.y - last.start.y) * u.y) / length;
  const down = (p: Point) => (-(p.x - last.start.x) * u.y + (p.y - last.start.y) * u.x) / length;
  const [tl, tr, br, bl] = quad;
  if (!band.quad.every((p) => insideConvex(p, quad))) return false;
  // The bottom edge: where it passes under the last line's middle, and its direction.
  const middle = { x: (last.start.x + last.end.x) / 2, y: (last.start.y + last.end.y) / 2 };
  const bottomEdge = { x: br.x - bl.x, y: br.y - bl.y };
  const bottomLength = Math.hypot(bottomEdge.x, bottomEdge.y);
  const sine = (u.x * bottomEdge.y - u.y * bottomEdge.x) / bottomLength;
  if (Math.abs(Math.asin(Math.max(-1, Math.min(1, sine)))) > (CONTOUR_AGREEMENT.skewDegrees * Math.PI) / 180)
    return false;
  if (u.x * bottomEdge.x + u.y * bottomEdge.y <= 0) return false;
  const belowMiddle =
    Math.abs((bottomEdge.x * (bl.y - middle.y) - (bl.x - middle.x) * bottomEdge.y) / bottomLength) / length;
  if (Math.abs(belowMiddle - geometry.bottom) > CONTOUR_AGREEMENT.offset) return false;
  // The left edge where the last line meets it (along the lines from its first character).
  const t = down(bl) / (down(bl) - down(tl) || 1);
  const leftAt = along(bl) + t * (along(tl) - along(bl));
  if (Math.abs(-leftAt - geometry.left) > CONTOUR_AGREEMENT.offset) return false;
  if (Math.abs(length / bottomLength / (1 / geometry.width) - 1) > CONTOUR_AGREEMENT.widthShare) return false;
  const aspect = (distance(tl, tr) + distance(bl, br)) / (distance(tl, bl) + distance(tr, br));
  if (Math.abs(aspect / (geometry.width / geometry.height) - 1) > CONTOUR_AGREEMENT.aspect) return false;
  return polygonArea(quad) > 0;
}

/** Whether `p` lies inside a convex quad (either winding). */
function insideConvex(p: Point, quad: Quad): boolean {
  let sign = 0;
  for (let i = 0; i < 4; i++) {
    const a = quad[i];
    const b = quad[(i + 1) % 4];
    if (!a || !b) return false;
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}

/**
 * Longer over shorter side of a page outline that may be an MRZ document (ID-1 1.59, ID-2 and ID-3 1.42),
 * with room for perspective.
 */
export const OUTLINE_ASPECT = { min: 1.3, max: 1.75 } as const;

/**
 * The largest candidate shaped like an MRZ document's page (OUTLINE_ASPECT) with print inside it
 * (MIN_OUTLINE_SPREAD), for frames where no MRZ read: a document in view whose MRZ is too small to find
 * still has an outline. Corners in the contour's order; null when none.
 *
 * @example
 * pageOutline(pageQuadCandidates(cv, gray), gray); // the card, 170 px wide, of a frame whose MRZ was not found
 */
export function pageOutline(candidates: readonly Quad[], gray: GrayImage): Quad | null {
  let best: Quad | null = null;
  for (const quad of candidates) {
    const [a, b, c, d] = quad;
    const one = distance(a, b) + distance(c, d);
    const other = distance(b, c) + distance(d, a);
    const aspect = Math.max(one, other) / Math.min(one, other);
    if (aspect < OUTLINE_ASPECT.min || aspect > OUTLINE_ASPECT.max) continue;
    if (best && polygonArea(quad) <= polygonArea(best)) continue;
    if (interiorSpread(gray, quad) >= MIN_OUTLINE_SPREAD) best = quad;
  }
  return best;
}

/**
 * Least grey-level standard deviation inside an outline for it to be a printed page (photo, text,
 * security print); a plain box, a blank card or a patch of desk between objects is flatter.
 */
export const MIN_OUTLINE_SPREAD = 12;

/** Standard deviation of the grey levels at 24 × 24 points spread over the middle 80 % of a quad. */
function interiorSpread(gray: GrayImage, [a, b, c, d]: Quad): number {
  const values: number[] = [];
  for (let i = 0; i < 24; i++) {
    for (let j = 0; j < 24; j++) {
      const u = 0.1 + (0.8 * i) / 23;
      const v = 0.1 + (0.8 * j) / 23;
      const x = (1 - u) * (1 - v) * a.x + u * (1 - v) * b.x + u * v * c.x + (1 - u) * v * d.x;
      const y = (1 - u) * (1 - v) * a.y + u * (1 - v) * b.y + u * v * c.y + (1 - u) * v * d.y;
      const px = Math.min(gray.width - 1, Math.max(0, Math.round(x)));
      const py = Math.min(gray.height - 1, Math.max(0, Math.round(y)));
      values.push(gray.data[py * gray.width + px] ?? 0);
    }
  }
  const mean = values.reduce((s, x) => s + x, 0) / values.length;
  return Math.sqrt(values.reduce((s, x) => s + (x - mean) ** 2, 0) / values.length);
}
