import type { RgbImage } from '../face/raster.js';
import type { LumaPlane } from './luma.js';

/**
 * A rectangle of a frame's luma, kept so frames analysed apart (in different workers) can be compared
 * pixel by pixel afterwards: registered onto each other, their residual read for sensor noise and
 * their motion for parallax.
 */
export interface LumaWindow extends LumaPlane {
  /** Frame x of the centre of the window's pixel (0, 0). */
  readonly left: number;
  /** Frame y of the centre of the window's pixel (0, 0). */
  readonly top: number;
  /** Frame pixels per window pixel: 1 at native resolution, f for a frame reduced f times. */
  readonly scale: number;
}

/**
 * Largest side of a face's noise window. 128² native pixels give the temporal noise to about 1% and
 * a registration to a few hundredths of a pixel, and cost ~1 ms per frame pair to register.
 */
export const FACE_WINDOW_MAX_SIDE = 128;
/** Share of the face box width the face window spans (eyes, nose, cheeks, mouth). */
const FACE_WINDOW_SHARE = 0.7;
/** Longest side of the reduced whole frame compared for background motion. */
export const SCENE_PLANE_MAX_SIDE = 160;

/**
 * The native-resolution luma of the middle of a face: a square of 0.7 box widths (at most
 * FACE_WINDOW_MAX_SIDE) centred on the box, clipped to the frame. Native resolution keeps the sensor
 * noise the temporal-noise signal reads: any resampling would average it away. With the frame's RGB,
 * a pixel with any channel clipped (≥ 252 or ≤ 3) is set to white or black, so the noise measures
 * leave it out: a clipped channel follows neither noise nor brightness.
 *
 * @example
 * const window = faceWindow(lumaPlane(image), face.box, image); // 128×128 for a face 200 px wide
 */
export function faceWindow(
  luma: LumaPlane,
  box: readonly [number, number, number, number],
  rgb?: RgbImage,
): LumaWindow {
  const side = Math.max(8, Math.min(FACE_WINDOW_MAX_SIDE, Math.round(box[2] * FACE_WINDOW_SHARE)));
  const left = clamp(Math.round(box[0] + box[2] / 2 - side / 2), 0, luma.width - side);
  const top = clamp(Math.round(box[1] + box[3] / 2 - side / 2), 0, luma.height - side);
  const width = Math.min(side, luma.width);
  const height = Math.min(side, luma.height);
  const data = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = (top + y) * luma.width + left;
    data.set(luma.data.subarray(row, row + width), y * width);
    if (rgb === undefined) continue;
    for (let x = 0; x < width; x++) {
      const p = (row + x) * 3;
      const r = rgb.data[p] ?? 0;
      const g = rgb.data[p + 1] ?? 0;
      const b = rgb.data[p + 2] ?? 0;
      if (r >= 252 || g >= 252 || b >= 252) data[y * width + x] = 255;
      else if (r <= 3 || g <= 3 || b <= 3) data[y * width + x] = 0;
    }
  }
  return { data, width, height, left, top, scale: 1 };
}

/**
 * The whole frame's luma reduced by a whole factor (each pixel the mean of f×f frame pixels) until
 * its longer side is at most SCENE_PLANE_MAX_SIDE: enough to follow the background's motion to a
 * tenth of a frame pixel, small enough to send across threads and register in a few milliseconds.
 *
 * @example
 * scenePlane(lumaPlane(image)); // 120×160, scale 4, for a 480×640 frame
 */
export function scenePlane(luma: LumaPlane): LumaWindow {
  const f = Math.max(1, Math.ceil(Math.max(luma.width, luma.height) / SCENE_PLANE_MAX_SIDE));
  const width = Math.floor(luma.width / f);
  const height = Math.floor(luma.height / f);
  const data = new Float32Array(width * height);
  for (let y = 0; y < height * f; y++) {
    const row = Math.floor(y / f) * width;
    const source = y * luma.width;
    for (let x = 0; x < width * f; x++) {
      const i = row + Math.floor(x / f);
      data[i] = (data[i] ?? 0) + (luma.data[source + x] ?? 0);
    }
  }
  const area = f * f;
  for (let i = 0; i < data.length; i++) data[i] = (data[i] ?? 0) / area;
  // Reduced pixel i covers frame pixels i·f .. i·f + f - 1: its centre is at i·f + (f - 1)/2.
  return { data, width, height, left: (f - 1) / 2, top: (f - 1) / 2, scale: f };
}

function clamp(value: number, low: number, high: number): number {
  return Math.max(low, Math.min(high, value));
}
