import type { LumaWindow } from './luma-window.js';

/**
 * What encoding a frame's luma again as JPEG would change: each 8×8 block of the window, on a grid
 * half a block off the frame's own (as a still shifted by a few pixels is re-encoded), is transformed
 * (the JPEG DCT), rounded to the frame's own luminance quantisation table, transformed back and
 * rounded to whole levels. The difference is the error a replay re-encoding this very picture would
 * add to each frame: the floor the temporal noise of a camera must stand above (temporal-noise.ts).
 */

/** Zig-zag position k of the 64 coefficients → natural index v·8 + u. */
const ZIGZAG = [
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
];

/** cos((2x + 1)·u·π / 16)·C(u)/2 at [u·8 + x]: the orthonormal 8-point DCT, JPEG's. */
const BASIS = Float64Array.from({ length: 64 }, (_, i) => {
  const u = Math.floor(i / 8);
  const x = i % 8;
  return (u === 0 ? Math.SQRT1_2 : 1) * 0.5 * Math.cos(((2 * x + 1) * u * Math.PI) / 16);
});

/** The inverse transform's matrix: the basis transposed, [x·8 + u]. */
const INVERSE = Float64Array.from({ length: 64 }, (_, i) => BASIS[(i % 8) * 8 + Math.floor(i / 8)] ?? 0);

/**
 * The window re-encoded (luma only) with `table` (64 steps in zig-zag order, as a JPEG stores them) on
 * blocks whose corners lie at frame coordinates ≡ 4 (mod 8); pixels outside whole blocks are left as
 * they are.
 *
 * @example
 * const again = requantised(face.window, lumaQuantisation(frameBytes));
 */
export function requantised(window: LumaWindow, table: Uint16Array): Float32Array {
  const { width, height, data } = window;
  const out = Float32Array.from(data);
  const steps = new Float64Array(64);
  ZIGZAG.forEach((natural, k) => (steps[natural] = Math.max(1, table[k] ?? 1)));
  // First block corner inside the window on the offset grid (window pixel i is frame x = left + i).
  const x0 = mod(4 - Math.round(window.left), 8);
  const y0 = mod(4 - Math.round(window.top), 8);
  const block = new Float64Array(64);
  const rows = new Float64Array(64);
  for (let by = y0; by + 8 <= height; by += 8) {
    for (let bx = x0; bx + 8 <= width; bx += 8) {
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) block[y * 8 + x] = (data[(by + y) * width + bx + x] ?? 0) - 128;
      transform(block, rows, false);
      for (let i = 0; i < 64; i++) {
        const step = steps[i] ?? 1;
        block[i] = Math.round((block[i] ?? 0) / step) * step;
      }
      transform(block, rows, true);
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++)
          out[(by + y) * width + bx + x] = Math.min(255, Math.max(0, Math.round((block[y * 8 + x] ?? 0) + 128)));
    }
  }
  return out;
}

/** The 2-D DCT of an 8×8 block in place (rows, then columns), or its inverse (the transposed basis). */
function transform(block: Float64Array, scratch: Float64Array, inverse: boolean): void {
  const basis = inverse ? INVERSE : BASIS;
  for (let y = 0; y < 8; y++) {
    const row = y * 8;
    for (let u = 0; u < 8; u++) {
      const b = u * 8;
      let s = 0;
      for (let x = 0; x < 8; x++) s += (block[row + x] ?? 0) * (basis[b + x] ?? 0);
      scratch[row + u] = s;
    }
  }
  for (let x = 0; x < 8; x++) {
    for (let v = 0; v < 8; v++) {
      const b = v * 8;
      let s = 0;
      for (let y = 0; y < 8; y++) s += (scratch[y * 8 + x] ?? 0) * (basis[b + y] ?? 0);
      block[v * 8 + x] = s;
    }
  }
}

function mod(a: number, m: number): number {
  return ((a % m) + m) % m;
}
