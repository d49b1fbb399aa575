import type { Point } from '../face/raster.js';

/**
 * Sets to `value` the pixels of a width×height mask that lie inside a polygon (even-odd rule, one
 * scanline per row), after scaling the polygon by `scale` about its centroid (> 1 grows it). Pixel
 * (col, row) is the point (col, row), as in the aligned crops (face-alignment.ts).
 *
 * @example
 * const mask = new Uint8Array(64 * 64);
 * fillPolygon(mask, 64, 64, [[8, 8], [56, 8], [32, 56]], 1);
 */
export function fillPolygon(
  mask: Uint8Array,
  width: number,
  height: number,
  polygon: readonly Point[],
  value: number,
  scale = 1,
): void {
  const n = polygon.length;
  if (n < 3) return;
  let cx = 0;
  let cy = 0;
  for (const [x, y] of polygon) {
    cx += x / n;
    cy += y / n;
  }
  const points = polygon.map(([x, y]): Point => [cx + (x - cx) * scale, cy + (y - cy) * scale]);
  const ys = points.map(([, y]) => y);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  const last = points[n - 1];
  if (last === undefined) return;
  const crossings: number[] = [];
  for (let row = top; row <= bottom; row++) {
    const y = row;
    crossings.length = 0;
    // Each edge runs from the previous point (j) to this one (i), the last point closing the polygon.
    let [xj, yj] = last;
    for (const [xi, yi] of points) {
      if (yi > y !== yj > y) crossings.push(xi + ((y - yi) * (xj - xi)) / (yj - yi));
      xj = xi;
      yj = yi;
    }
    crossings.sort((a, b) => a - b);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil(crossings[k] ?? 0));
      const to = Math.min(width - 1, Math.floor(crossings[k + 1] ?? 0));
      for (let col = from; col <= to; col++) mask[row * width + col] = value;
    }
  }
}
