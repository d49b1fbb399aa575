import type { CropGeometry, FaceKeyPoints } from '../face/face-alignment.js';
import type { RgbImage } from '../face/raster.js';
import { alignedCrop } from './face-region.js';

/** Side of the wide, eye-levelled crop the background is read on. */
const SIZE = 128;
/** 12.8 crop pixels per eye-to-mouth distance: a face ~27 px wide in the middle of a crop ~10 of them wide. */
const GEOMETRY: CropGeometry = { eyeY: 0.45, eyeToMouth: 0.1, levelAboveDegrees: 0 };
const UNIT = GEOMETRY.eyeToMouth * SIZE;

/** The region around the head, in eye-to-mouth distances from the eye midpoint (y down). */
export interface BackgroundWindow {
  /** Half-width of the window. */
  readonly halfWidth: number;
  /** Top of the window above the eye line. */
  readonly above: number;
  /** Bottom of the window below the eye line (about the chin: lower down are neck and shoulders). */
  readonly below: number;
  /** The head (face and hair) as an ellipse about the eye midpoint, left out: semi-axes and its centre's height. */
  readonly headHalfWidth: number;
  readonly headHalfHeight: number;
  readonly headRaise: number;
}

export const DEFAULT_BACKGROUND_WINDOW: BackgroundWindow = {
  halfWidth: 3.2,
  above: 3.4,
  below: 1.6,
  headHalfWidth: 1.5,
  headHalfHeight: 2.2,
  headRaise: 0.3,
};

/** Clutter of the background next to the head. */
export interface BackgroundTexture {
  /** Mean Sobel gradient magnitude of the luma (8-bit levels per crop pixel at the normalised scale). */
  readonly gradient: number;
  /** Mean luma of the background pixels, 0..255. */
  readonly luma: number;
  /**
   * The gradient relative to the mean luma (floored at 16), in percent per crop pixel: what the eye
   * sees as busy, at any brightness.
   */
  readonly relativeGradient: number;
  /** Share (0..1) of the window that lies inside the image and outside the head. */
  readonly coverage: number;
}

/**
 * How busy the background beside and above the head is: the mean luma gradient over a window
 * around the head (sides and top, down to the chin), leaving out an ellipse holding the face and
 * hair, in a crop scaled to the face (so it reads clutter at the face's scale, and fine wall texture
 * averages out), also relative to the background's brightness. Hair outside the ellipse counts as
 * background. Undefined when under 5% of the window lies inside the image (the face fills the frame).
 *
 * @example
 * backgroundTexture(image, face.keyPoints)?.gradient;
 */
export function backgroundTexture(
  image: RgbImage,
  keyPoints: FaceKeyPoints,
  window: BackgroundWindow = DEFAULT_BACKGROUND_WINDOW,
): BackgroundTexture | undefined {
  // Three samples a side are enough at this coarse scale: the measure reads edges many pixels long.
  const crop = alignedCrop(image, keyPoints, SIZE, GEOMETRY, 3);
  const { luma, inImage } = crop;
  const cx = SIZE / 2;
  const cy = GEOMETRY.eyeY * SIZE;
  let sum = 0;
  let lumaSum = 0;
  let n = 0;
  let windowPixels = 0;
  for (let v = 1; v < SIZE - 1; v++) {
    const dy = (v - cy) / UNIT;
    if (dy < -window.above || dy > window.below) continue;
    for (let u = 1; u < SIZE - 1; u++) {
      const dx = (u - cx) / UNIT;
      if (Math.abs(dx) > window.halfWidth) continue;
      windowPixels++;
      const hy = (dy + window.headRaise) / window.headHalfHeight;
      if ((dx / window.headHalfWidth) ** 2 + hy * hy <= 1) continue;
      const i = v * SIZE + u;
      if (
        !(
          (inImage[i - SIZE - 1] ?? 0) &
          (inImage[i - SIZE + 1] ?? 0) &
          (inImage[i + SIZE - 1] ?? 0) &
          (inImage[i + SIZE + 1] ?? 0)
        )
      )
        continue;
      const gx =
        (luma[i - SIZE + 1] ?? 0) +
        2 * (luma[i + 1] ?? 0) +
        (luma[i + SIZE + 1] ?? 0) -
        (luma[i - SIZE - 1] ?? 0) -
        2 * (luma[i - 1] ?? 0) -
        (luma[i + SIZE - 1] ?? 0);
      const gy =
        (luma[i + SIZE - 1] ?? 0) +
        2 * (luma[i + SIZE] ?? 0) +
        (luma[i + SIZE + 1] ?? 0) -
        (luma[i - SIZE - 1] ?? 0) -
        2 * (luma[i - SIZE] ?? 0) -
        (luma[i - SIZE + 1] ?? 0);
      sum += Math.hypot(gx, gy) / 8;
      lumaSum += luma[i] ?? 0;
      n++;
    }
  }
  const coverage = windowPixels > 0 ? n / windowPixels : 0;
  if (coverage < 0.05) return undefined;
  const gradient = sum / n;
  const mean = lumaSum / n;
  return { gradient, luma: mean, relativeGradient: (100 * gradient) / Math.max(mean, 16), coverage };
}
