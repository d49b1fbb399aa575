/**
 * FaceMesh (468-point) indices of the face parts the quality measures read. "Right" and "left" are
 * the person's: their right eye is on the image's left in a frontal, unmirrored photo.
 */
import type { Point } from '../face/raster.js';

/** The face outline, forehead top (10) clockwise on the image through the chin (152). */
export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136,
  172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
] as const;

/** Eye contours (upper lid from the outer corner, then the lower lid back). */
export const RIGHT_EYE_CONTOUR = [33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7] as const;
export const LEFT_EYE_CONTOUR = [
  263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249,
] as const;

/** Eyebrow outlines (upper edge outward-in, lower edge back). */
export const RIGHT_BROW = [70, 63, 105, 66, 107, 55, 65, 52, 53, 46] as const;
export const LEFT_BROW = [300, 293, 334, 296, 336, 285, 295, 282, 283, 276] as const;

/** Outer lip contour. */
export const LIPS_OUTER = [
  61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146,
] as const;

/** One eye's opening: its corners and three upper/lower lid pairs across its middle. */
export interface EyeLandmarks {
  readonly corners: readonly [number, number];
  readonly lids: readonly (readonly [number, number])[];
  /** A point in the middle of the brow above it. */
  readonly brow: number;
}

export const RIGHT_EYE_LANDMARKS: EyeLandmarks = {
  corners: [33, 133],
  lids: [
    [160, 144],
    [159, 145],
    [158, 153],
  ],
  brow: 105,
};
export const LEFT_EYE_LANDMARKS: EyeLandmarks = {
  corners: [362, 263],
  lids: [
    [385, 380],
    [386, 374],
    [387, 373],
  ],
  brow: 334,
};

/** Mouth: outer corners, inner lip middles (upper, lower), outer lip middles (upper, lower). */
export const MOUTH_LANDMARKS = { corners: [61, 291], inner: [13, 14], outer: [0, 17] } as const;

/** Chin (lowest point of the outline) and nose tip. */
export const CHIN = 152;
export const NOSE_TIP = 1;

/** The x, y of a mesh point. */
export function meshPoint(mesh: readonly (readonly number[])[], index: number): Point {
  const [x, y] = mesh[index] ?? [];
  if (x === undefined || y === undefined) throw new RangeError(`face mesh has no point ${index}`);
  return [x, y];
}
