import { requantised } from './jpeg-requantisation.js';
import type { LumaWindow } from './luma-window.js';
import type { Registration } from './window-registration.js';

/**
 * Temporal sensor noise. Every frame a camera delivers carries fresh noise — photon shot noise and read
 * noise, independent from frame to frame, at a level set by the exposure (about 1-3 levels of 8-bit
 * luma for a phone indoors). Frames made from one still picture (re-encoded, shifted, scaled,
 * brightened) share one frozen copy of whatever noise the picture had: once registered onto each other
 * they differ only by the re-encoding, an error set by the JPEG quantisation tables and the picture.
 *
 * Read on the native-resolution middle of the face (luma-window.ts), registered frame to frame
 * (window-registration.ts), in a band of spatial frequencies: the residual's 3×3 mean less its 9×9
 * mean (slow light changes and the last hundredths of a pixel of misregistration do not count), on
 * the smoother half of the face (edges, where registration error concentrates, do not count). For
 * white noise of standard deviation σ in both frames that band holds 2σ²·(1/9 − 1/81): the estimate is
 * σ, the noise each frame carries on its own. It is held against what re-encoding the frame itself
 * would change (reencodingFloor): a replay's frames differ by that much, a camera's by more.
 */

/** Sides of the two boxes whose difference is the band. */
const INNER = 3;
const OUTER = 9;
/** Share of the registered pixels, the smoothest, the noise is read from. */
const SMOOTH_SHARE = 0.5;

/**
 * The least floor, and a lossless (PNG) frame's: a replay then differs by resampling and 8-bit rounding
 * alone. Under the 0.6-0.8 levels measured between stills shifted, scaled or rotated and encoded at
 * quality 95 (where re-encoding adds least), so it does not refuse what those would not.
 */
export const MIN_FLOOR = 0.5;
/**
 * The noise a camera frame must show above its floor: the signal fails below margin × floor. Set
 * between the replays' highest noise/floor (1.14: a brightness ramp tinted for charlie) and the
 * simulated cameras' lowest (1.22), npm run eval -- liveness-attacks (reports/liveness-attacks.md).
 */
export const NOISE_MARGIN = 1.15;

/**
 * The per-frame temporal noise of a registered pair: standard deviation in luma levels (0..255), read
 * in the band on the reference's smoother half; undefined when too few pixels were registered.
 *
 * @example
 * bandNoise(reference.window, registerWindows(reference.window, moving.window, start)); // ~1.8 for a camera
 */
export function bandNoise(reference: LumaWindow, registration: Registration): number | undefined {
  // The residual holds two frames' noise: per frame, 1/√2 of it.
  const deviation = bandDeviation(reference, registration.residual);
  return deviation === undefined ? undefined : deviation / Math.SQRT2;
}

/**
 * The floor a frame's temporal noise is held against: what encoding its own face window again, with
 * its own JPEG luminance table on a shifted grid, changes in the band (jpeg-requantisation.ts) — the
 * error each frame of a replay re-encoding this picture carries — and at least MIN_FLOOR.
 *
 * @example
 * reencodingFloor(face.window, lumaQuantisation(frameBytes)); // ~0.9 for a face at quality 90
 */
export function reencodingFloor(window: LumaWindow, table: Uint16Array | undefined): number {
  if (table === undefined) return MIN_FLOOR;
  const change = requantised(window, table);
  // Clipped pixels (marked white or black in the window) are left out, as in the noise itself.
  for (let i = 0; i < change.length; i++) {
    const level = window.data[i] ?? 0;
    change[i] = level <= 3 || level >= 252 ? Number.NaN : (change[i] ?? 0) - level;
  }
  return Math.max(MIN_FLOOR, bandDeviation(window, change) ?? 0);
}

/**
 * The standard deviation of white noise that would put as much energy into the band (3×3 mean less
 * 9×9 mean) as `map` has on the smoother half of `reference` (same grid); undefined for too few pixels.
 */
function bandDeviation(reference: LumaWindow, map: Float32Array): number | undefined {
  const { width, height } = reference;
  const tables = summedAreas(map, width, height);
  const inner = boxMeans(tables, width, height, INNER);
  const outer = boxMeans(tables, width, height, OUTER);
  const smoothness = gradientMagnitude(reference);
  const usable = new Int32Array(inner.length);
  let usableCount = 0;
  for (let i = 0; i < inner.length; i++) {
    if (!Number.isNaN((inner[i] ?? Number.NaN) - (outer[i] ?? Number.NaN))) usable[usableCount++] = i;
  }
  if (usableCount < 256) return undefined;
  // The smoother half: below the median gradient, the median read off a sample of the pixels.
  const stride = Math.max(1, Math.floor(usableCount / 2048));
  const sample = Float64Array.from(
    { length: Math.floor(usableCount / stride) },
    (_, k) => smoothness[usable[k * stride] ?? 0] ?? 0,
  ).sort();
  const limit = sample[Math.floor(sample.length * SMOOTH_SHARE)] ?? 0;
  let energy = 0;
  let count = 0;
  for (let k = 0; k < usableCount; k++) {
    const i = usable[k] ?? 0;
    if ((smoothness[i] ?? 0) > limit) continue;
    energy += ((inner[i] ?? 0) - (outer[i] ?? 0)) ** 2;
    count++;
  }
  return Math.sqrt(energy / count / (1 / INNER ** 2 - 1 / OUTER ** 2));
}

/**
 * The signal: FAIL when some consecutive pair of frames holds less fresh noise than NOISE_MARGIN times
 * what re-encoding its frames leaves (the larger floor of the two: a still replayed); PASS when every
 * measured pair holds more; ERROR when no pair could be measured (fewer than two faces, nothing registered).
 *
 * @example
 * temporalNoiseStatus([{ noise: 1.8, floor: 1.06 }, { noise: 1.7, floor: 1.06 }]); // 'PASS'
 * temporalNoiseStatus([{ noise: 0.4, floor: 1.06 }, { noise: 1.7, floor: 1.06 }]); // 'FAIL'
 */
export function temporalNoiseStatus(
  pairs: ReadonlyArray<{ readonly noise: number | undefined; readonly floor: number }>,
): 'PASS' | 'FAIL' | 'ERROR' {
  const measured = pairs.filter((p): p is { noise: number; floor: number } => p.noise !== undefined);
  if (measured.length === 0) return 'ERROR';
  return measured.some((p) => p.noise < NOISE_MARGIN * p.floor) ? 'FAIL' : 'PASS';
}

/** Summed-area tables of a map's values (NaN counted as 0) and of its NaN count, (width + 1) × (height + 1). */
interface SummedAreas {
  readonly sums: Float64Array;
  readonly gaps: Float64Array;
}

function summedAreas(map: Float32Array, width: number, height: number): SummedAreas {
  const stride = width + 1;
  const sums = new Float64Array(stride * (height + 1));
  const gaps = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let rowSum = 0;
    let rowGaps = 0;
    for (let x = 0; x < width; x++) {
      const v = map[y * width + x] ?? Number.NaN;
      if (Number.isNaN(v)) rowGaps++;
      else rowSum += v;
      const at = (y + 1) * stride + x + 1;
      sums[at] = (sums[at - stride] ?? 0) + rowSum;
      gaps[at] = (gaps[at - stride] ?? 0) + rowGaps;
    }
  }
  return { sums, gaps };
}

/**
 * Mean over a side×side box around each pixel (odd sides centred), from summed-area tables; NaN where
 * the box holds a NaN or leaves the window.
 */
function boxMeans(tables: SummedAreas, width: number, height: number, side: number): Float32Array {
  const { sums, gaps } = tables;
  const stride = width + 1;
  const r = (side - 1) / 2;
  const out = new Float32Array(width * height).fill(Number.NaN);
  for (let y = r; y < height - r; y++) {
    const below = (y + r + 1) * stride;
    const above = (y - r) * stride;
    for (let x = r; x < width - r; x++) {
      const right = x + r + 1;
      const left = x - r;
      const holes =
        (gaps[below + right] ?? 0) - (gaps[above + right] ?? 0) - (gaps[below + left] ?? 0) + (gaps[above + left] ?? 0);
      if (holes > 0) continue;
      const sum =
        (sums[below + right] ?? 0) - (sums[above + right] ?? 0) - (sums[below + left] ?? 0) + (sums[above + left] ?? 0);
      out[y * width + x] = sum / (side * side);
    }
  }
  return out;
}

/** gradientMagnitude per window: a frame's window is the reference of its floor and of its pair's noise. */
const gradients = new WeakMap<LumaWindow, Float32Array>();

/** Squared gradient of the window after a 3×3 mean (so noise does not make a smooth patch look textured). */
function gradientMagnitude(w: LumaWindow): Float32Array {
  const known = gradients.get(w);
  if (known) return known;
  const { width, height } = w;
  const smooth = boxMeans(summedAreas(w.data, width, height), width, height, 3);
  const out = new Float32Array(w.data.length).fill(Number.POSITIVE_INFINITY);
  for (let y = 2; y < height - 2; y++) {
    for (let x = 2; x < width - 2; x++) {
      const i = y * width + x;
      // Squared: only the order matters.
      out[i] =
        ((smooth[i + 1] ?? 0) - (smooth[i - 1] ?? 0)) ** 2 + ((smooth[i + width] ?? 0) - (smooth[i - width] ?? 0)) ** 2;
    }
  }
  gradients.set(w, out);
  return out;
}
