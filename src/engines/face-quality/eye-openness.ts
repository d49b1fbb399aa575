import type { Point } from '../face/raster.js';
import { LEFT_EYE_LANDMARKS, meshPoint, RIGHT_EYE_LANDMARKS, type EyeLandmarks } from './mesh-regions.js';

/** Opening of each eye: mean lid gap over the eye's width (corner to corner), the person's sides. */
export interface EyeOpenness {
  readonly right: number;
  readonly left: number;
}

/**
 * How open each eye is, from the mesh's eyelids: the mean distance between three upper/lower lid
 * point pairs across the middle of the eye, over the distance between its corners (the eye aspect
 * ratio; ~0.25–0.35 open, under ~0.1 closed). A ratio of lengths on the same eye, so it does not
 * depend on face size or roll.
 *
 * @example
 * const { right, left } = eyeOpenness(face.mesh);
 * Math.min(right, left); // the less open eye decides EYES_OPEN
 */
export function eyeOpenness(mesh: readonly (readonly number[])[]): EyeOpenness {
  return { right: aspectRatio(mesh, RIGHT_EYE_LANDMARKS), left: aspectRatio(mesh, LEFT_EYE_LANDMARKS) };
}

function aspectRatio(mesh: readonly (readonly number[])[], eye: EyeLandmarks): number {
  const at = (i: number): Point => meshPoint(mesh, i);
  const distance = (a: Point, b: Point): number => Math.hypot(a[0] - b[0], a[1] - b[1]);
  const width = distance(at(eye.corners[0]), at(eye.corners[1]));
  const gap = eye.lids.reduce((sum, [upper, lower]) => sum + distance(at(upper), at(lower)), 0) / eye.lids.length;
  return width > 0 ? gap / width : 0;
}
