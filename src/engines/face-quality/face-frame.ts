import type { FaceKeyPoints } from '../face/face-alignment.js';
import type { Point } from '../face/raster.js';
import { meshPoint } from './mesh-regions.js';

/**
 * Mesh coordinates in the face's own image frame: origin at the eye midpoint, x along the eye line
 * (towards the person's left eye), y down the face, in inter-eye distances. Shape measures read it
 * so that they do not depend on the face's size, position or roll. (The mesh's depth coordinate is
 * not used: on the dev set it was too unreliable to undo pitch with.)
 *
 * @example
 * const at = faceFrame(face.mesh, face.keyPoints);
 * at(152)[1]; // the chin, ~1.7 inter-eye distances below the eye line
 */
export function faceFrame(mesh: readonly (readonly number[])[], keyPoints: FaceKeyPoints): (index: number) => Point {
  const { rightEye, leftEye } = keyPoints;
  const cx = (rightEye[0] + leftEye[0]) / 2;
  const cy = (rightEye[1] + leftEye[1]) / 2;
  const dx = leftEye[0] - rightEye[0];
  const dy = leftEye[1] - rightEye[1];
  const d2 = Math.max(dx * dx + dy * dy, 1e-9);
  return (index) => {
    const [x, y] = meshPoint(mesh, index);
    return [((x - cx) * dx + (y - cy) * dy) / d2, (-(x - cx) * dy + (y - cy) * dx) / d2];
  };
}
