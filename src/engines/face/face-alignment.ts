import type { Point, RgbImage } from './raster.js';

/**
 * Where the aligned crop puts the face, as fractions of its side: the midpoint of the eyes sits at
 * (0.5, eyeY) and the mouth centre `eyeToMouth` below it. The default is dlib's 150-px face chip
 * (its mean face shape with 25% padding), the framing faceRecognitionNet was trained on: on the dev
 * set it took the EER from 6.3% (eyes at 0.40, mouth 0.36 below) to 1.6% (reports/face-eval.md).
 */
export interface CropGeometry {
  readonly eyeY: number;
  readonly eyeToMouth: number;
  /**
   * Roll correction with a dead zone: the crop is rotated by the eye line's tilt minus this many
   * degrees (0: always level the eyes; Infinity: never rotate). On the dev set (mostly upright faces)
   * levelling every face cost accuracy (EER 1.93% against 1.75% never rotating,
   * reports/face-eval.md): the mesh's eye line wobbles with yaw, so small rotations add noise. A hard
   * threshold was worse than both (2.08%): two photos tilted 8° and 12° got crops 12° apart. The
   * dead zone is continuous, and a strongly tilted phone or head is still nearly levelled.
   */
  readonly levelAboveDegrees: number;
}

export const DEFAULT_CROP_GEOMETRY: CropGeometry = { eyeY: 0.311, eyeToMouth: 0.389, levelAboveDegrees: 10 };

// FaceMesh indices of the eye contours (corners and lid middles) and the mouth (lip middles and corners).
const RIGHT_EYE = [33, 133, 159, 145] as const; // the subject's right eye: on the image's left
const LEFT_EYE = [362, 263, 386, 374] as const;
const MOUTH = [13, 14, 78, 308] as const;

export interface FaceKeyPoints {
  /** Centre of the subject's right eye (image left for a frontal face). */
  readonly rightEye: Point;
  readonly leftEye: Point;
  readonly mouth: Point;
}

/**
 * Eye and mouth centres from a 468-point face mesh.
 *
 * @example
 * const { rightEye, leftEye } = keyPoints(face.mesh);
 * const interEyePixels = Math.hypot(leftEye[0] - rightEye[0], leftEye[1] - rightEye[1]);
 */
export function keyPoints(mesh: readonly (readonly number[])[]): FaceKeyPoints {
  return { rightEye: centroid(mesh, RIGHT_EYE), leftEye: centroid(mesh, LEFT_EYE), mouth: centroid(mesh, MOUTH) };
}

/** Maps a crop pixel (u, v) to image coordinates: a similarity transform (rotation, scale, shift). */
export interface CropTransform {
  readonly size: number;
  /** Image pixels per crop pixel, along the crop's x axis (cos, sin parts). */
  readonly a: number;
  readonly b: number;
  /** Image position of the crop's (0, 0). */
  readonly tx: number;
  readonly ty: number;
}

/**
 * The similarity transform that levels the eyes and frames the face per `geometry`: rotation from the
 * eye line, scale from the eye-to-mouth distance (which, unlike the eye distance, barely shrinks when
 * the head turns).
 */
export function cropTransform(points: FaceKeyPoints, size: number, geometry: CropGeometry = DEFAULT_CROP_GEOMETRY): CropTransform {
  const { rightEye, leftEye, mouth } = points;
  const centre: Point = [(rightEye[0] + leftEye[0]) / 2, (rightEye[1] + leftEye[1]) / 2];
  const tilt = Math.atan2(leftEye[1] - rightEye[1], leftEye[0] - rightEye[0]);
  const deadZone = (geometry.levelAboveDegrees * Math.PI) / 180;
  const angle = Math.sign(tilt) * Math.max(0, Math.abs(tilt) - deadZone);
  const eyeToMouth = Math.hypot(mouth[0] - centre[0], mouth[1] - centre[1]);
  const scale = Math.max(eyeToMouth, 1e-3) / (geometry.eyeToMouth * size);
  const a = scale * Math.cos(angle);
  const b = scale * Math.sin(angle);
  const u0 = 0.5 * size;
  const v0 = geometry.eyeY * size;
  // image = centre + R·s·((u, v) − (u0, v0))
  return { size, a, b, tx: centre[0] - (a * u0 - b * v0), ty: centre[1] - (b * u0 + a * v0) };
}

/**
 * Samples the aligned crop (bilinear, edge pixels repeated outside the image) as float RGB 0..255,
 * optionally mirrored left-right.
 */
export function sampleCrop(image: RgbImage, transform: CropTransform, mirrored = false): Float32Array {
  const { size, a, b, tx, ty } = transform;
  const { data, width, height } = image;
  const out = new Float32Array(size * size * 3);
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      const su = mirrored ? size - 1 - u : u;
      const x = Math.min(Math.max(a * su - b * v + tx, 0), width - 1);
      const y = Math.min(Math.max(b * su + a * v + ty, 0), height - 1);
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const x1 = Math.min(x0 + 1, width - 1);
      const y1 = Math.min(y0 + 1, height - 1);
      const fx = x - x0;
      const fy = y - y0;
      const o = (v * size + u) * 3;
      for (let c = 0; c < 3; c++) {
        const top = data[(y0 * width + x0) * 3 + c]! * (1 - fx) + data[(y0 * width + x1) * 3 + c]! * fx;
        const bottom = data[(y1 * width + x0) * 3 + c]! * (1 - fx) + data[(y1 * width + x1) * 3 + c]! * fx;
        out[o + c] = top * (1 - fy) + bottom * fy;
      }
    }
  }
  return out;
}

function centroid(mesh: readonly (readonly number[])[], indices: readonly number[]): Point {
  let x = 0;
  let y = 0;
  for (const i of indices) {
    const p = mesh[i];
    if (!p) throw new RangeError(`face mesh has no point ${i}`);
    x += p[0]!;
    y += p[1]!;
  }
  return [x / indices.length, y / indices.length];
}
