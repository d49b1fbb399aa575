import { solveSymmetricPositiveDefinite } from '../../lib/linear-solve.js';
import type { LumaWindow } from './luma-window.js';

/**
 * An affine map of frame coordinates, x' = a·x + b·y + c, y' = d·x + e·y + f, as [a, b, c, d, e, f].
 */
export type Affine = readonly [number, number, number, number, number, number];

export const IDENTITY: Affine = [1, 0, 0, 0, 1, 0];

/** One window registered onto another: the warp, the brightness change and the pixel residual. */
export interface Registration {
  /** Maps reference-frame coordinates to moving-frame coordinates. */
  readonly warp: Affine;
  /** Moving luma ≈ gain · reference luma + bias (exposure and white-balance drift). */
  readonly gain: number;
  readonly bias: number;
  /**
   * On the reference window's grid: the moving window sampled through the warp (Keys cubic),
   * brightness-corrected, less the reference; NaN where the warp leaves the moving window, the mask
   * excludes the pixel, or either frame is clipped (within 3 levels of black or white).
   */
  readonly residual: Float32Array;
  /** Share of reference pixels with a residual. */
  readonly overlap: number;
  /** Root mean square of the residual, in luma levels. */
  readonly rms: number;
}

export interface RegistrationOptions {
  /** Reference pixels to use (1) or ignore (0), on the reference window's grid: e.g. the face left out. */
  readonly mask?: Uint8Array;
  /** Gauss-Newton steps per pyramid level. */
  readonly iterations?: number;
  /** Pyramid levels (each halves the windows); 2 covers ~4 px of error in the initial warp. */
  readonly levels?: number;
  /**
   * Most reference pixels the fit reads per level: beyond, only the most textured are kept (a flat
   * pixel says nothing about motion), which bounds the time a large window takes.
   */
  readonly maxPixels?: number;
}

const MIN_PIXELS = 64;

/**
 * Registers `moving` onto `reference` with an affine warp and a gain and bias, by inverse-compositional
 * Lucas-Kanade (Baker & Matthews 2004) over a small pyramid, with Huber weights so a blink or a moving
 * hand does not pull the fit. `initial` (frame to frame, e.g. from the face meshes) must be within a few
 * pixels. Undefined when the windows overlap too little or hold too little texture to register.
 *
 * @example
 * const r = registerWindows(frameA.face.window, frameB.face.window, meshAffine(a.mesh, b.mesh));
 * r?.rms; // ~2 levels for two camera frames, ~0.3 for a still re-encoded
 */
export function registerWindows(
  reference: LumaWindow,
  moving: LumaWindow,
  initial: Affine,
  options: RegistrationOptions = {},
): Registration | undefined {
  const levels = Math.max(1, options.levels ?? 2);
  const iterations = options.iterations ?? 8;
  const pyramid: Array<{ reference: LumaWindow; moving: LumaWindow; mask: Uint8Array | undefined }> = [
    { reference, moving, mask: options.mask },
  ];
  for (let level = 1; level < levels; level++) {
    const finer = pyramid[level - 1];
    if (finer === undefined || Math.min(finer.reference.width, finer.reference.height) < 32) break;
    pyramid.push({
      reference: halve(finer.reference),
      moving: halve(finer.moving),
      mask: finer.mask && halveMask(finer.mask, finer.reference.width, finer.reference.height),
    });
  }
  let warp = initial;
  for (let level = pyramid.length - 1; level >= 0; level--) {
    const step = pyramid[level];
    if (step === undefined) continue;
    const refined = refine(step.reference, step.moving, warp, step.mask, iterations, options.maxPixels);
    // A coarse level that cannot be fitted (too little texture left at its scale) hands on the warp it got.
    if (refined === undefined && level === 0) return undefined;
    warp = refined ?? warp;
  }
  return residualOf(reference, moving, warp, options.mask);
}

/**
 * Composition: (outer ∘ inner)(x) = outer(inner(x)).
 *
 * @example
 * composeAffine([1, 0, 5, 0, 1, 0], [2, 0, 0, 0, 2, 0]); // [2, 0, 5, 0, 2, 0]: scale, then shift
 */
export function composeAffine(outer: Affine, inner: Affine): Affine {
  const [a, b, c, d, e, f] = outer;
  const [p, q, r, s, t, u] = inner;
  return [a * p + b * s, a * q + b * t, a * r + b * u + c, d * p + e * s, d * q + e * t, d * r + e * u + f];
}

/**
 * The inverse map.
 *
 * @example
 * invertAffine([2, 0, 4, 0, 2, 0]); // [0.5, 0, -2, 0, 0.5, 0]
 * @throws {RangeError} for a singular map
 */
export function invertAffine(m: Affine): Affine {
  const [a, b, c, d, e, f] = m;
  const det = a * e - b * d;
  if (Math.abs(det) < 1e-12) throw new RangeError('singular affine map');
  const ia = e / det;
  const ib = -b / det;
  const id = -d / det;
  const ie = a / det;
  return [ia, ib, -(ia * c + ib * f), id, ie, -(id * c + ie * f)];
}

/**
 * Applies an affine map to a point.
 *
 * @example
 * applyAffine([1, 0, 3, 0, 1, -2], 10, 10); // [13, 8]
 */
export function applyAffine(m: Affine, x: number, y: number): [number, number] {
  return [m[0] * x + m[1] * y + m[2], m[3] * x + m[4] * y + m[5]];
}

/**
 * The least-squares affine map taking points `from` to points `to` (frame coordinates): the starting
 * warp between two frames' face meshes.
 *
 * @example
 * fitAffine(first.mesh, second.mesh); // [1, 0, 3, 0, 1, -2] for a face moved 3 px right and 2 px up
 * @throws {RangeError} for fewer than 3 point pairs or points on one line
 */
export function fitAffine(
  from: ReadonlyArray<readonly [number, number, ...number[]]>,
  to: ReadonlyArray<readonly [number, number, ...number[]]>,
): Affine {
  const n = Math.min(from.length, to.length);
  if (n < 3) throw new RangeError('at least 3 point pairs are needed');
  const ata = new Float64Array(9);
  const bx = new Float64Array(3);
  const by = new Float64Array(3);
  for (let i = 0; i < n; i++) {
    const p = from[i];
    const q = to[i];
    if (p === undefined || q === undefined) continue;
    const row = [p[0], p[1], 1];
    for (const [r, vr] of row.entries()) {
      bx[r] = (bx[r] ?? 0) + vr * q[0];
      by[r] = (by[r] ?? 0) + vr * q[1];
      for (const [c, vc] of row.entries()) ata[r * 3 + c] = (ata[r * 3 + c] ?? 0) + vr * vc;
    }
  }
  const [a = 1, b = 0, c = 0] = solveSymmetricPositiveDefinite(ata, bx, 3);
  const [d = 0, e = 1, f = 0] = solveSymmetricPositiveDefinite(ata, by, 3);
  return [a, b, c, d, e, f];
}

/** Window pixel (i, j) to frame coordinates. */
function windowToFrame(w: LumaWindow): Affine {
  return [w.scale, 0, w.left, 0, w.scale, w.top];
}

/** The frame warp as a map of reference-window pixels to moving-window pixels. */
function localWarp(reference: LumaWindow, moving: LumaWindow, warp: Affine): Affine {
  return composeAffine(invertAffine(windowToFrame(moving)), composeAffine(warp, windowToFrame(reference)));
}

/** The inverse of localWarp. */
function frameWarp(reference: LumaWindow, moving: LumaWindow, local: Affine): Affine {
  return composeAffine(windowToFrame(moving), composeAffine(local, invertAffine(windowToFrame(reference))));
}

/** Gauss-Newton steps at one pyramid level; the refined frame warp, or undefined when it cannot be fitted. */
function refine(
  reference: LumaWindow,
  moving: LumaWindow,
  warp: Affine,
  mask: Uint8Array | undefined,
  iterations: number,
  maxPixels = Number.POSITIVE_INFINITY,
): Affine | undefined {
  const { width, height, data: t } = reference;
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const radius = Math.max(cx, cy, 1);
  // Steepest-descent images of the inverse-compositional step, at the reference's interior pixels.
  let pixels: number[] = [];
  for (let y = 1; y < height - 1; y++)
    for (let x = 1; x < width - 1; x++) if (mask === undefined || mask[y * width + x] === 1) pixels.push(y * width + x);
  if (pixels.length > maxPixels) pixels = mostTextured(t, width, pixels, maxPixels);
  const n = pixels.length;
  if (n < MIN_PIXELS) return undefined;
  // Per pixel: position, template value and the six columns of the Jacobian (gx·ux, gx·uy, gy·ux, gy·uy, gx, gy).
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  const tv = new Float64Array(n);
  const j0 = new Float64Array(n);
  const j1 = new Float64Array(n);
  const j2 = new Float64Array(n);
  const j3 = new Float64Array(n);
  const j4 = new Float64Array(n);
  const j5 = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const i = pixels[k] ?? 0;
    const x = i % width;
    const y = (i - x) / width;
    const gx = ((t[i + 1] ?? 0) - (t[i - 1] ?? 0)) / 2;
    const gy = ((t[i + width] ?? 0) - (t[i - width] ?? 0)) / 2;
    const ux = (x - cx) / radius;
    const uy = (y - cy) / radius;
    xs[k] = x;
    ys[k] = y;
    tv[k] = t[i] ?? 0;
    j0[k] = gx * ux;
    j1[k] = gx * uy;
    j2[k] = gy * ux;
    j3[k] = gy * uy;
    j4[k] = gx;
    j5[k] = gy;
  }
  let local = localWarp(reference, moving, warp);
  const sampled = new Float64Array(n);
  let scaleOfResidual = Number.POSITIVE_INFINITY;
  for (let iteration = 0; iteration < iterations; iteration++) {
    // Sample the moving window through the current warp and fit the brightness change.
    let count = 0;
    let st = 0;
    let si = 0;
    let stt = 0;
    let sti = 0;
    const [l0, l1, l2, l3, l4, l5] = local;
    for (let k = 0; k < n; k++) {
      const x = xs[k] ?? 0;
      const y = ys[k] ?? 0;
      const value = bilinear(moving, l0 * x + l1 * y + l2, l3 * x + l4 * y + l5);
      sampled[k] = value;
      if (Number.isNaN(value)) continue;
      const v = tv[k] ?? 0;
      count++;
      st += v;
      si += value;
      stt += v * v;
      sti += v * value;
    }
    if (count < MIN_PIXELS) return undefined;
    const variance = stt - (st * st) / count;
    if (!(variance > 1e-6 * count)) return undefined; // a flat window: nothing to register on
    const gain = (sti - (st * si) / count) / variance;
    if (!(gain > 0.2)) return undefined;
    const bias = (si - gain * st) / count;
    // Normal equations of the step, with Huber weights from the residual scale of the previous step;
    // the 21 entries of the symmetric 6×6 matrix and the 6 of the right side kept in locals (hot loop).
    let h00 = 0,
      h01 = 0,
      h02 = 0,
      h03 = 0,
      h04 = 0,
      h05 = 0,
      h11 = 0,
      h12 = 0,
      h13 = 0,
      h14 = 0,
      h15 = 0;
    let h22 = 0,
      h23 = 0,
      h24 = 0,
      h25 = 0,
      h33 = 0,
      h34 = 0,
      h35 = 0,
      h44 = 0,
      h45 = 0,
      h55 = 0;
    let b0 = 0,
      b1 = 0,
      b2 = 0,
      b3 = 0,
      b4 = 0,
      b5 = 0;
    let sumAbs = 0;
    const limit = 1.345 * scaleOfResidual;
    for (let k = 0; k < n; k++) {
      const value = sampled[k] ?? Number.NaN;
      if (Number.isNaN(value)) continue;
      const e = (value - bias) / gain - (tv[k] ?? 0);
      const abs = Math.abs(e);
      sumAbs += abs;
      const w = abs <= limit ? 1 : limit / abs;
      const a0 = j0[k] ?? 0;
      const a1 = j1[k] ?? 0;
      const a2 = j2[k] ?? 0;
      const a3 = j3[k] ?? 0;
      const a4 = j4[k] ?? 0;
      const a5 = j5[k] ?? 0;
      const w0 = w * a0;
      const w1 = w * a1;
      const w2 = w * a2;
      const w3 = w * a3;
      const w4 = w * a4;
      const w5 = w * a5;
      h00 += w0 * a0;
      h01 += w0 * a1;
      h02 += w0 * a2;
      h03 += w0 * a3;
      h04 += w0 * a4;
      h05 += w0 * a5;
      h11 += w1 * a1;
      h12 += w1 * a2;
      h13 += w1 * a3;
      h14 += w1 * a4;
      h15 += w1 * a5;
      h22 += w2 * a2;
      h23 += w2 * a3;
      h24 += w2 * a4;
      h25 += w2 * a5;
      h33 += w3 * a3;
      h34 += w3 * a4;
      h35 += w3 * a5;
      h44 += w4 * a4;
      h45 += w4 * a5;
      h55 += w5 * a5;
      b0 += w0 * e;
      b1 += w1 * e;
      b2 += w2 * e;
      b3 += w3 * e;
      b4 += w4 * e;
      b5 += w5 * e;
    }
    const ridge = (v: number) => v * (1 + 1e-9) + 1e-6;
    const h = Float64Array.of(
      ridge(h00),
      h01,
      h02,
      h03,
      h04,
      h05,
      h01,
      ridge(h11),
      h12,
      h13,
      h14,
      h15,
      h02,
      h12,
      ridge(h22),
      h23,
      h24,
      h25,
      h03,
      h13,
      h23,
      ridge(h33),
      h34,
      h35,
      h04,
      h14,
      h24,
      h34,
      ridge(h44),
      h45,
      h05,
      h15,
      h25,
      h35,
      h45,
      ridge(h55),
    );
    const b = Float64Array.of(b0, b1, b2, b3, b4, b5);
    // Mean absolute residual × 1.25 ≈ its standard deviation for Gaussian noise.
    scaleOfResidual = Math.max(0.5, (1.25 * sumAbs) / count);
    let delta: Float64Array;
    try {
      delta = solveSymmetricPositiveDefinite(h, b, 6);
    } catch {
      return undefined;
    }
    const [p0 = 0, p1 = 0, p2 = 0, p3 = 0, p4 = 0, p5 = 0] = delta;
    // The step as a map of reference pixels: u ↦ u + ΔA·(u − c)/radius + Δt; the warp composes its inverse.
    const da: Affine = [
      1 + p0 / radius,
      p1 / radius,
      p4 - (p0 * cx + p1 * cy) / radius,
      p2 / radius,
      1 + p3 / radius,
      p5 - (p2 * cx + p3 * cy) / radius,
    ];
    const det = da[0] * da[4] - da[1] * da[3];
    if (!Number.isFinite(det) || det < 0.5 || !da.every(Number.isFinite)) return undefined; // a step no image takes
    local = composeAffine(local, invertAffine(da));
    // Converged: the step moves no pixel of the window by more than ~0.003 px.
    if (Math.hypot(p4, p5) + Math.abs(p0) + Math.abs(p1) + Math.abs(p2) + Math.abs(p3) < 3e-3) break;
  }
  return frameWarp(reference, moving, local);
}

/** About `keep` of the pixels, those with the largest gradient (threshold from a sample of them). */
function mostTextured(t: Float32Array, width: number, pixels: readonly number[], keep: number): number[] {
  const energy = (i: number) =>
    ((t[i + 1] ?? 0) - (t[i - 1] ?? 0)) ** 2 + ((t[i + width] ?? 0) - (t[i - width] ?? 0)) ** 2;
  const stride = Math.max(1, Math.floor(pixels.length / 4096));
  const sample = Float64Array.from({ length: Math.floor(pixels.length / stride) }, (_, k) =>
    energy(pixels[k * stride] ?? 0),
  ).sort();
  const threshold = sample[Math.floor(sample.length * (1 - keep / pixels.length))] ?? 0;
  return pixels.filter((i) => energy(i) >= threshold);
}

/**
 * The residual of a given warp (see Registration), brightness fitted, without refining it: e.g. the
 * background sampled through the face's motion, to see whether it moved the same way.
 *
 * @example
 * residualOf(a.scene, b.scene, faceRegistration.warp, backgroundMask)?.rms;
 */
export function residualOf(
  reference: LumaWindow,
  moving: LumaWindow,
  warp: Affine,
  mask: Uint8Array | undefined,
): Registration | undefined {
  const { width, height, data: t } = reference;
  const local = localWarp(reference, moving, warp);
  const sampled = new Float32Array(width * height).fill(Number.NaN);
  let count = 0;
  let st = 0;
  let si = 0;
  let stt = 0;
  let sti = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (mask !== undefined && mask[i] !== 1) continue;
      const mx = local[0] * x + local[1] * y + local[2];
      const my = local[3] * x + local[4] * y + local[5];
      const value = bicubic(moving, mx, my);
      // Clipped pixels (black or white) follow neither noise nor brightness: left out.
      if (Number.isNaN(value) || isClipped(value) || isClipped(t[i] ?? 0)) continue;
      sampled[i] = value;
      const tv = t[i] ?? 0;
      count++;
      st += tv;
      si += value;
      stt += tv * tv;
      sti += tv * value;
    }
  }
  if (count < MIN_PIXELS) return undefined;
  const variance = stt - (st * st) / count;
  const gain = variance > 0 ? (sti - (st * si) / count) / variance : 1;
  if (!(gain > 0.2)) return undefined;
  const bias = (si - gain * st) / count;
  const residual = new Float32Array(width * height);
  let sum = 0;
  for (let i = 0; i < residual.length; i++) {
    const e = ((sampled[i] ?? Number.NaN) - bias) / gain - (t[i] ?? 0);
    residual[i] = e;
    if (!Number.isNaN(e)) sum += e * e;
  }
  return {
    warp,
    gain,
    bias,
    residual,
    overlap: count / (width * height),
    rms: Math.sqrt(sum / count),
  };
}

/** Whether a luma level is at (or within 3 levels of) black or white, where the sensor or encoder clipped. */
function isClipped(level: number): boolean {
  return level <= 3 || level >= 252;
}

/** Bilinear sample of a window at window pixel (x, y); NaN outside its pixel centres. */
function bilinear(w: LumaWindow, x: number, y: number): number {
  if (!(x >= 0 && y >= 0 && x <= w.width - 1 && y <= w.height - 1)) return Number.NaN;
  const x0 = Math.min(Math.floor(x), w.width - 2);
  const y0 = Math.min(Math.floor(y), w.height - 2);
  const fx = x - x0;
  const fy = y - y0;
  const i = y0 * w.width + x0;
  const d = w.data;
  const top = (d[i] ?? 0) * (1 - fx) + (d[i + 1] ?? 0) * fx;
  const bottom = (d[i + w.width] ?? 0) * (1 - fx) + (d[i + w.width + 1] ?? 0) * fx;
  return top * (1 - fy) + bottom * fy;
}

/**
 * Keys cubic (a = −0.5) sample of a window at window pixel (x, y); NaN within one pixel of its edge.
 * Near-flat response up to a third of the sampling rate, so the residual of a sub-pixel shift is not
 * dominated by interpolation blur (bilinear halves the energy at 1/4 cycle per pixel half-way between pixels).
 */
function bicubic(w: LumaWindow, x: number, y: number): number {
  if (!(x >= 1 && y >= 1 && x < w.width - 2 && y < w.height - 2)) return Number.NaN;
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const wx = keys(x - x0);
  const wy = keys(y - y0);
  const d = w.data;
  let sum = 0;
  for (let j = 0; j < 4; j++) {
    const row = (y0 - 1 + j) * w.width + x0 - 1;
    const line =
      (d[row] ?? 0) * wx[0] + (d[row + 1] ?? 0) * wx[1] + (d[row + 2] ?? 0) * wx[2] + (d[row + 3] ?? 0) * wx[3];
    sum += line * (wy[j] ?? 0);
  }
  return sum;
}

/** The four Keys weights (a = −0.5) of the pixels at −1, 0, 1, 2 for a sample at fraction t. */
function keys(t: number): [number, number, number, number] {
  const t2 = t * t;
  const t3 = t2 * t;
  return [-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1, -1.5 * t3 + 2 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2];
}

/** The window at half resolution (2×2 means), with its frame position. */
function halve(w: LumaWindow): LumaWindow {
  const width = Math.floor(w.width / 2);
  const height = Math.floor(w.height / 2);
  const data = new Float32Array(width * height);
  const d = w.data;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = 2 * y * w.width + 2 * x;
      data[y * width + x] = ((d[i] ?? 0) + (d[i + 1] ?? 0) + (d[i + w.width] ?? 0) + (d[i + w.width + 1] ?? 0)) / 4;
    }
  }
  // Half pixel i covers pixels 2i and 2i + 1: its centre is half a pixel (of the finer scale) further.
  return { data, width, height, left: w.left + w.scale / 2, top: w.top + w.scale / 2, scale: w.scale * 2 };
}

/** A mask at half resolution: a pixel is kept when all four it covers are. */
function halveMask(mask: Uint8Array, width: number, height: number): Uint8Array {
  const w = Math.floor(width / 2);
  const h = Math.floor(height / 2);
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const i = 2 * y * width + 2 * x;
      out[y * w + x] = mask[i] === 1 && mask[i + 1] === 1 && mask[i + width] === 1 && mask[i + width + 1] === 1 ? 1 : 0;
    }
  }
  return out;
}
