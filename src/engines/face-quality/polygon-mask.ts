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
  const xs = polygon.map(([x]) => cx + (x - cx) * scale);
  const ys = polygon.map(([, y]) => cy + (y - cy) * scale);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  const crossings: number[] = [];
  for (let row = top; row <= bottom; row++) {
    const y = row;
    crossings.length = 0;
    for (let i = 0, j = n - 1; i < n; j = i++) {
      const yi = ys[i]!;
      const yj = ys[j]!;
      if (yi > y !== yj > y) crossings.push(xs[i]! + ((y - yi) * (xs[j]! - xs[i]!)) / (yj - yi));
    }
    crossings.sort((a, b) => a - b);
    for (let k = 0; k + 1 < crossings.length; k += 2) {
      const from = Math.max(0, Math.ceil(crossings[k]!));
      const to = Math.min(width - 1, Math.floor(crossings[k + 1]!));
      for (let col = from; col <= to; col++) mask[row * width + col] = value;
    }
  }
}
