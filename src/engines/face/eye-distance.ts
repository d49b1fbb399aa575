import { LEFT_EYE, RIGHT_EYE } from './face-alignment.js';
import type { FaceObservation } from './face-pipeline.js';

/**
 * Side of the square crop FaceMesh reads (face-mesh-model.ts `MESH_INPUT_SIZE`; not imported, so the
 * subject rule does not load onnxruntime where the services run).
 */
const MESH_CROP_SIZE = 192;

/**
 * How far apart the eye centres are, in image pixels, in 3-D: the detector's mesh gives each point a
 * depth, so a head turned from the camera, whose eyes come closer together in the image, keeps the
 * distance it would show facing the camera. The size floor reads this (face-selection.ts): measured on the
 * dev set, the ratio of this distance to the forehead-to-chin height stays at 0.38–0.39 from 0 to 0.8 rad
 * of yaw, where the distance in the image falls from 0.39 to 0.26 (docs/face-engine.md).
 *
 * The detector's mesh (human's convention, kept by the ONNX detector) has x and y in image pixels and z in
 * the pixels of FaceMesh's 192-px crop, the face box's side: z × side / 192 is in image pixels. The side
 * is the box's larger one (a box clipped by the image edge on one side keeps the other; clipped on two,
 * the depth is understated and the distance with it, never overstated). The eye centres are those of
 * `keyPoints` (4 contour points each).
 *
 * @example
 * interEyeDistance(frontal); // 24.6: the 24.6 px between its eyes in the image
 * interEyeDistance(turned); // 20.6 for a head turned 0.56 rad, 14.9 px between its eyes in the image
 *
 * A mesh without the eye contour points (not one of the detector's 468-point meshes: hand-built faces) has no
 * depth to read: the distance between the `keyPoints` eye centres in the image is taken, which never overstates.
 */
export function interEyeDistance(face: Pick<FaceObservation, 'box' | 'mesh' | 'keyPoints'>): number {
  if (!hasEyeContours(face.mesh)) {
    const { leftEye, rightEye } = face.keyPoints;
    return Math.hypot(leftEye[0] - rightEye[0], leftEye[1] - rightEye[1]);
  }
  const zScale = Math.max(face.box[2], face.box[3]) / MESH_CROP_SIZE;
  const right = centre(face.mesh, RIGHT_EYE);
  const left = centre(face.mesh, LEFT_EYE);
  return Math.hypot(left[0] - right[0], left[1] - right[1], (left[2] - right[2]) * zScale);
}

function hasEyeContours(mesh: FaceObservation['mesh']): boolean {
  return [...RIGHT_EYE, ...LEFT_EYE].every((i) => mesh[i] !== undefined);
}

function centre(mesh: FaceObservation['mesh'], indices: readonly number[]): [number, number, number] {
  const sum: [number, number, number] = [0, 0, 0];
  for (const i of indices) {
    const point = mesh[i];
    if (point === undefined) throw new RangeError(`face mesh has no point ${i} (got ${mesh.length} points)`);
    sum[0] += point[0];
    sum[1] += point[1];
    sum[2] += point[2];
  }
  return [sum[0] / indices.length, sum[1] / indices.length, sum[2] / indices.length];
}
