import { boxDownscale, type LumaPlane } from './luma.js';

/**
 * Straight high-contrast edges framing a face: the bezel of a phone or screen, or the edge of a print,
 * held up to the camera. Looks for long horizontal and vertical edge segments on each side of the face
 * (above, below, left, right), within a few face widths of it.
 */

/** Width the frame is reduced to before looking for edges (enough for bezels, cheap). */
const WORK_WIDTH = 160;
/** Sobel magnitude (on 0..255 luma) that counts as an edge. */
const EDGE_MAGNITUDE = 120;
/** A side counts when its longest segment spans this many face widths. */
const MIN_SEGMENT_FACE_WIDTHS = 1.1;
/** How far from the face box, in face widths, a framing edge may lie. */
const MAX_DISTANCE_FACE_WIDTHS = 1.5;
/** Missing edge pixels tolerated inside one segment (noise, JPEG). */
const MAX_GAP = 2;

/**
 * The frame's luma reduced to the width the edge search works at; made once per frame and shared by
 * all its faces.
 *
 * @example
 * const plane = framingPlane(lumaPlane(image));
 */
export function framingPlane(luma: LumaPlane): LumaPlane {
  return boxDownscale(luma, WORK_WIDTH, Math.max(8, Math.round((luma.height * WORK_WIDTH) / luma.width)));
}

/**
 * How many sides of the face (0-4) have a long straight edge around it. Edges within about ±5° of the
 * image axes are found; a strongly tilted frame is not. `box` is in the coordinates of the full frame,
 * `frameWidth` pixels wide.
 *
 * @example
 * // 4 for a face shown inside a phone held upright:
 * framingSides(framingPlane(lumaPlane(image)), image.width, face.box);
 */
export function framingSides(
  plane: LumaPlane,
  frameWidth: number,
  box: readonly [number, number, number, number],
): number {
  const scale = plane.width / frameWidth;
  const { width, height, data: luma } = plane;
  const [bx, by, bw, bh] = [box[0] * scale, box[1] * scale, box[2] * scale, box[3] * scale];
  const reach = MAX_DISTANCE_FACE_WIDTHS * bw;
  const minLength = MIN_SEGMENT_FACE_WIDTHS * bw;
  const horizontal = (y: number) => longestRun(width, (x) => isEdge(luma, width, height, x, y, 'horizontal'));
  const vertical = (x: number) => longestRun(height, (y) => isEdge(luma, width, height, x, y, 'vertical'));
  const rows = (from: number, to: number) => range(from, to, height).some((y) => horizontal(y) >= minLength);
  const columns = (from: number, to: number) => range(from, to, width).some((x) => vertical(x) >= minLength);
  return [
    rows(by - reach, by - 1),
    rows(by + bh + 1, by + bh + reach),
    columns(bx - reach, bx - 1),
    columns(bx + bw + 1, bx + bw + reach),
  ].filter(Boolean).length;
}

function range(from: number, to: number, limit: number): number[] {
  const out: number[] = [];
  for (let i = Math.max(1, Math.floor(from)); i <= Math.min(limit - 2, Math.ceil(to)); i++) out.push(i);
  return out;
}

/** An edge pixel whose gradient points across the line: vertical gradient for a horizontal line. */
function isEdge(
  luma: Float32Array,
  width: number,
  height: number,
  x: number,
  y: number,
  line: 'horizontal' | 'vertical',
): boolean {
  if (x < 1 || y < 1 || x >= width - 1 || y >= height - 1) return false;
  const i = y * width + x;
  // In bounds: (x, y) is at least one pixel inside the plane.
  const nw = luma[i - width - 1] ?? 0;
  const n = luma[i - width] ?? 0;
  const ne = luma[i - width + 1] ?? 0;
  const w = luma[i - 1] ?? 0;
  const e = luma[i + 1] ?? 0;
  const sw = luma[i + width - 1] ?? 0;
  const s = luma[i + width] ?? 0;
  const se = luma[i + width + 1] ?? 0;
  const gx = Math.abs(ne + 2 * e + se - nw - 2 * w - sw);
  const gy = Math.abs(sw + 2 * s + se - nw - 2 * n - ne);
  const across = line === 'horizontal' ? gy : gx;
  const along = line === 'horizontal' ? gx : gy;
  return across >= EDGE_MAGNITUDE && across >= 2 * along;
}

/** Longest run of positions where `edge` holds, bridging gaps of up to MAX_GAP. */
function longestRun(length: number, edge: (i: number) => boolean): number {
  let best = 0;
  let start = -1;
  let gap = 0;
  for (let i = 0; i < length; i++) {
    if (edge(i)) {
      if (start < 0) start = i;
      gap = 0;
      best = Math.max(best, i - start + 1);
    } else if (start >= 0 && ++gap > MAX_GAP) {
      start = -1;
      gap = 0;
    }
  }
  return best;
}
