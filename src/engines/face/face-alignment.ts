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
 * Samples the aligned crop as float RGB 0..255, optionally mirrored left-right: bilinear, with k×k
 * samples averaged per crop pixel when `supersample` is k > 1 (so a large face is averaged down
 * instead of point-sampled, and its fine texture does not alias). Edge pixels repeat outside the image.
 *
 * @example
 * const crop = sampleCrop(image, cropTransform(points, 150), false);
 * const textureCrop = sampleCrop(image, transform, false, areaSupersampling(transform));
 */
export function sampleCrop(image: RgbImage, transform: CropTransform, mirrored = false, supersample = 1): Float32Array {
  return sampleRegion(image, transform, transform.size, transform.size, mirrored, supersample);
}

/**
 * {@link sampleCrop} for a `width`×`height` output (the transform's `size` is not used): the constructed
 * token images of face analysis are not square.
 *
 * @example
 * const pixels = sampleRegion(image, eyeAlignment(points, { rightEye: [180, 288], leftEye: [300, 288] }), 480, 640);
 */
export function sampleRegion(image: RgbImage, transform: Omit<CropTransform, 'size'>, width: number, height: number, mirrored = false, supersample = 1): Float32Array {
  const { a, b, tx, ty } = transform;
  const { data, width: imageWidth, height: imageHeight } = image;
  const k = Math.max(1, Math.round(supersample));
  const inv = 1 / (k * k);
  const out = new Float32Array(width * height * 3);
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const cu = mirrored ? width - 1 - u : u;
      let r = 0;
      let g = 0;
      let bl = 0;
      for (let j = 0; j < k; j++) {
        const sv = v + (j + 0.5) / k - 0.5;
        for (let i = 0; i < k; i++) {
          const su = cu + (i + 0.5) / k - 0.5;
          const x = Math.min(Math.max(a * su - b * sv + tx, 0), imageWidth - 1);
          const y = Math.min(Math.max(b * su + a * sv + ty, 0), imageHeight - 1);
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const x1 = Math.min(x0 + 1, imageWidth - 1);
          const y1 = Math.min(y0 + 1, imageHeight - 1);
          const fx = x - x0;
          const fy = y - y0;
          const w00 = (1 - fx) * (1 - fy);
          const w10 = fx * (1 - fy);
          const w01 = (1 - fx) * fy;
          const w11 = fx * fy;
          const o00 = (y0 * imageWidth + x0) * 3;
          const o10 = (y0 * imageWidth + x1) * 3;
          const o01 = (y1 * imageWidth + x0) * 3;
          const o11 = (y1 * imageWidth + x1) * 3;
          r += data[o00]! * w00 + data[o10]! * w10 + data[o01]! * w01 + data[o11]! * w11;
          g += data[o00 + 1]! * w00 + data[o10 + 1]! * w10 + data[o01 + 1]! * w01 + data[o11 + 1]! * w11;
          bl += data[o00 + 2]! * w00 + data[o10 + 2]! * w10 + data[o01 + 2]! * w01 + data[o11 + 2]! * w11;
        }
      }
      const o = (v * width + u) * 3;
      out[o] = r * inv;
      out[o + 1] = g * inv;
      out[o + 2] = bl * inv;
    }
  }
  return out;
}


/**
 * The similarity transform that puts the face's eye centres at `target` eye positions of an output
 * image (person's right eye on the output's left): rotation and scale from the two eye vectors.
 *
 * @example
 * const transform = eyeAlignment(face.keyPoints, { rightEye: [180, 288], leftEye: [300, 288] });
 */
export function eyeAlignment(points: Pick<FaceKeyPoints, 'rightEye' | 'leftEye'>, target: { rightEye: Point; leftEye: Point }): Omit<CropTransform, 'size'> {
  const source = [points.leftEye[0] - points.rightEye[0], points.leftEye[1] - points.rightEye[1]] as const;
  const wanted = [target.leftEye[0] - target.rightEye[0], target.leftEye[1] - target.rightEye[1]] as const;
  const scale = Math.hypot(...source) / Math.max(Math.hypot(...wanted), 1e-6);
  const angle = Math.atan2(source[1], source[0]) - Math.atan2(wanted[1], wanted[0]);
  const a = scale * Math.cos(angle);
  const b = scale * Math.sin(angle);
  const [u0, v0] = [(target.rightEye[0] + target.leftEye[0]) / 2, (target.rightEye[1] + target.leftEye[1]) / 2];
  const [cx, cy] = [(points.rightEye[0] + points.leftEye[0]) / 2, (points.rightEye[1] + points.leftEye[1]) / 2];
  return { a, b, tx: cx - (a * u0 - b * v0), ty: cy - (b * u0 + a * v0) };
}

/** Samples per crop pixel side for area averaging: image pixels per crop pixel, rounded up, at most 6. */
export function areaSupersampling(transform: Pick<CropTransform, 'a' | 'b'>): number {
  return Math.min(6, Math.max(1, Math.ceil(Math.hypot(transform.a, transform.b) - 1e-6)));
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
