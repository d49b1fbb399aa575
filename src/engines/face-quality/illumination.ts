import type { FaceRegion } from './face-region.js';

/** Mean skin luma of the two halves of the face. */
export interface IlluminationBalance {
  /** The person's right half (the image's left for a frontal face). */
  readonly right: number;
  readonly left: number;
  /** Darker half over brighter half, 0..1 (1: evenly lit). */
  readonly ratio: number;
}

/**
 * Left/right balance of the light on the face: mean skin luma of each half of the eye-levelled crop,
 * split by the vertical line through the eye midpoint. Undefined when a half has no skin in the image.
 *
 * @example
 * const balance = illuminationBalance(faceRegion(image, face));
 * Math.round(100 * (balance?.ratio ?? 0)); // ILLUMINATION_UNIFORMITY
 */
export function illuminationBalance(region: FaceRegion): IlluminationBalance | undefined {
  const { size, skin, luma } = region;
  // The crop's left half (u < middle) is the person's right side.
  let rightSum = 0;
  let rightCount = 0;
  let leftSum = 0;
  let leftCount = 0;
  const middle = size / 2;
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      const i = v * size + u;
      if (!skin[i] || u === middle) continue;
      if (u < middle) {
        rightSum += luma[i] ?? 0;
        rightCount += 1;
      } else {
        leftSum += luma[i] ?? 0;
        leftCount += 1;
      }
    }
  }
  if (!rightCount || !leftCount) return undefined;
  const right = rightSum / rightCount;
  const left = leftSum / leftCount;
  const brighter = Math.max(right, left);
  return { right, left, ratio: brighter > 0 ? Math.min(right, left) / brighter : 1 };
}
