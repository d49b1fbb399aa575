import type { Point } from '../face/raster.js';
import type { QualityFace } from './face-region.js';
import { CHIN, meshPoint } from './mesh-regions.js';

/** Where the head is in the image and how it is turned. */
export interface HeadGeometry {
  /** Pixels between the eye centres. */
  readonly interEyeDistance: number;
  /** Midpoint of the eye centres, image pixels. */
  readonly eyeMidpoint: Point;
  /** Chin to crown in pixels, estimated as twice the eye-line-to-chin height (the eyes sit halfway up the head). */
  readonly headHeight: number;
  /** Distances from the eye midpoint to the image's left, right, top and bottom edges, in inter-eye distances. */
  readonly margins: { readonly left: number; readonly right: number; readonly top: number; readonly bottom: number };
  /** Degrees: yaw > 0 the person turned to their left, pitch > 0 head up, roll > 0 clockwise in the image. */
  readonly pose: { readonly yaw: number; readonly pitch: number; readonly roll: number };
}

const DEGREES = 180 / Math.PI;

/**
 * Size, position and pose of the head. Yaw and pitch are the face detector's (FaceMesh geometry),
 * with their signs turned to the catalog's convention (the detector's yaw is positive towards the
 * image's left, its pitch positive looking down); roll is the detector's too (clockwise positive, as
 * the catalog's): under in-plane rotations of the dev images it follows the rotation to a median
 * 0.8° (p90 2.4°), against 1.2-1.5° (p90 3.7-4.8°) for the tilt of the line between the mesh's eye
 * centres, whose points shift on the face as it turns (reports/analysis-eval.md).
 *
 * @example
 * const geometry = headGeometry(face, { width: image.width, height: image.height });
 * geometry.margins.left; // LEFTWARD_CROP_OF_THE_FACE_IMAGE
 */
export function headGeometry(
  face: QualityFace,
  image: { readonly width: number; readonly height: number },
): HeadGeometry {
  const { rightEye, leftEye } = face.keyPoints;
  const interEyeDistance = Math.hypot(leftEye[0] - rightEye[0], leftEye[1] - rightEye[1]);
  const eyeMidpoint: Point = [(rightEye[0] + leftEye[0]) / 2, (rightEye[1] + leftEye[1]) / 2];
  const unit = Math.max(interEyeDistance, 1e-6);
  // The chin's distance below the eye line, square to it in the image.
  const chin = meshPoint(face.mesh, CHIN);
  const chinDepth =
    (-(chin[0] - eyeMidpoint[0]) * (leftEye[1] - rightEye[1]) +
      (chin[1] - eyeMidpoint[1]) * (leftEye[0] - rightEye[0])) /
    unit;
  return {
    interEyeDistance,
    eyeMidpoint,
    headHeight: 2 * Math.max(0, chinDepth),
    margins: {
      left: eyeMidpoint[0] / unit,
      right: (image.width - eyeMidpoint[0]) / unit,
      top: eyeMidpoint[1] / unit,
      bottom: (image.height - eyeMidpoint[1]) / unit,
    },
    pose: {
      yaw: -face.pose.yaw * DEGREES,
      pitch: -face.pose.pitch * DEGREES,
      roll: face.pose.roll * DEGREES,
    },
  };
}
