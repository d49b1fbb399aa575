import type { Point, RgbImage } from './raster.js';

/**
 * Where the aligned crop puts the face, as fractions of its side: the midpoint of the eyes sits at
 * (0.5, eyeY) and the mouth centre `eyeToMouth` below it. The default is dlib's 150-px face chip
 * (its mean face shape with 25% padding) placed from the eye and mouth centres: on the dev set it took
 * the recogniser's EER from 6.3% (eyes at 0.40, mouth 0.36 below) to 1.66%. Recognition now fits the
 * whole mean face instead ({@link meanShapeTransform}, 1.18%); this three-point framing serves the
 * liveness and quality crops, which need a steady framing rather than dlib's.
 */
export interface CropGeometry {
  readonly eyeY: number;
  readonly eyeToMouth: number;
  /**
   * Roll correction with a dead zone: the crop is rotated by the eye line's tilt minus this many
   * degrees (0: always level the eyes; Infinity: never rotate). When the recogniser used this framing,
   * levelling every face cost accuracy on the dev set (EER 1.93% against 1.75% never rotating, face
   * eval of 2026-11-22): the eye line alone wobbles with yaw, so small rotations add noise. A hard
   * threshold was worse than both (2.08%): two photos tilted 8° and 12° got crops 12° apart. The
   * dead zone is continuous, and a strongly tilted phone or head is still nearly levelled.
   */
  readonly levelAboveDegrees: number;
}

export const DEFAULT_CROP_GEOMETRY: CropGeometry = { eyeY: 0.311, eyeToMouth: 0.389, levelAboveDegrees: 10 };

// FaceMesh indices of the eye contours (corners and lid middles) and the mouth (lip middles and corners).
export const RIGHT_EYE = [33, 133, 159, 145] as const; // the subject's right eye: on the image's left
export const LEFT_EYE = [362, 263, 386, 374] as const;
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
export function cropTransform(
  points: FaceKeyPoints,
  size: number,
  geometry: CropGeometry = DEFAULT_CROP_GEOMETRY,
): CropTransform {
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
export function sampleRegion(
  image: RgbImage,
  transform: Omit<CropTransform, 'size'>,
  width: number,
  height: number,
  mirrored = false,
  supersample = 1,
): Float32Array {
  const k = Math.max(1, Math.round(supersample));
  if (k === 1) return sampleOnce(image, transform, width, height, mirrored, new Float32Array(width * height * 3));
  const { a, b, tx, ty } = transform;
  const { data, width: imageWidth, height: imageHeight } = image;
  const inv = 1 / (k * k);
  const maxX = imageWidth - 1;
  const maxY = imageHeight - 1;
  // Sub-sample offsets within a crop pixel.
  const offsets = Float64Array.from({ length: k }, (_, i) => (i + 0.5) / k - 0.5);
  const out = new Float32Array(width * height * 3);
  // Corner indices are clamped into the image, so every `data` read is in bounds (`?? 0` never fires).
  let o = 0;
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const cu = mirrored ? width - 1 - u : u;
      let r = 0;
      let g = 0;
      let bl = 0;
      for (let j = 0; j < k; j++) {
        const sv = v + (offsets[j] ?? 0);
        for (let i = 0; i < k; i++) {
          const su = cu + (offsets[i] ?? 0);
          let x = a * su - b * sv + tx;
          let y = b * su + a * sv + ty;
          x = x > 0 ? (x < maxX ? x : maxX) : 0;
          y = y > 0 ? (y < maxY ? y : maxY) : 0;
          const x0 = Math.floor(x);
          const y0 = Math.floor(y);
          const fx = x - x0;
          const fy = y - y0;
          const o00 = (y0 * imageWidth + x0) * 3;
          const o10 = x0 < maxX ? o00 + 3 : o00;
          const o01 = y0 < maxY ? o00 + imageWidth * 3 : o00;
          const o11 = x0 < maxX ? o01 + 3 : o01;
          const w00 = (1 - fx) * (1 - fy);
          const w10 = fx * (1 - fy);
          const w01 = (1 - fx) * fy;
          const w11 = fx * fy;
          r += (data[o00] ?? 0) * w00 + (data[o10] ?? 0) * w10 + (data[o01] ?? 0) * w01 + (data[o11] ?? 0) * w11;
          g +=
            (data[o00 + 1] ?? 0) * w00 +
            (data[o10 + 1] ?? 0) * w10 +
            (data[o01 + 1] ?? 0) * w01 +
            (data[o11 + 1] ?? 0) * w11;
          bl +=
            (data[o00 + 2] ?? 0) * w00 +
            (data[o10 + 2] ?? 0) * w10 +
            (data[o01 + 2] ?? 0) * w01 +
            (data[o11 + 2] ?? 0) * w11;
        }
      }
      out[o] = r * inv;
      out[o + 1] = g * inv;
      out[o + 2] = bl * inv;
      o += 3;
    }
  }
  return out;
}

/**
 * {@link sampleRegion} with one sample per pixel into `out` (every value written), for callers that keep
 * their buffer from image to image (scratch-buffer.ts).
 *
 * @example
 * sampleRegionInto(buffer, image, transform, 192, 192);
 * @throws RangeError when `out` does not hold `width`×`height`×3 values
 */
export function sampleRegionInto(
  out: Float32Array,
  image: RgbImage,
  transform: Omit<CropTransform, 'size'>,
  width: number,
  height: number,
  mirrored = false,
): Float32Array {
  if (out.length !== width * height * 3)
    throw new RangeError(`a ${width}×${height} region has ${width * height * 3} values (buffer: ${out.length})`);
  return sampleOnce(image, transform, width, height, mirrored, out);
}

/**
 * {@link sampleRegion} with one sample per pixel (the recognition views and the mesh crops), in its own
 * tight loop: the same arithmetic, so the same values, ~15% faster than through the k×k loop.
 */
function sampleOnce(
  image: RgbImage,
  transform: Omit<CropTransform, 'size'>,
  width: number,
  height: number,
  mirrored: boolean,
  out: Float32Array,
): Float32Array {
  const { a, b, tx, ty } = transform;
  const { data, width: imageWidth, height: imageHeight } = image;
  const maxX = imageWidth - 1;
  const maxY = imageHeight - 1;
  // Corner indices are clamped into the image, so every `data` read is in bounds (`?? 0` never fires).
  let o = 0;
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const cu = mirrored ? width - 1 - u : u;
      let x = a * cu - b * v + tx;
      let y = b * cu + a * v + ty;
      x = x > 0 ? (x < maxX ? x : maxX) : 0;
      y = y > 0 ? (y < maxY ? y : maxY) : 0;
      const x0 = Math.floor(x);
      const y0 = Math.floor(y);
      const fx = x - x0;
      const fy = y - y0;
      const o00 = (y0 * imageWidth + x0) * 3;
      const o10 = x0 < maxX ? o00 + 3 : o00;
      const o01 = y0 < maxY ? o00 + imageWidth * 3 : o00;
      const o11 = x0 < maxX ? o01 + 3 : o01;
      const w00 = (1 - fx) * (1 - fy);
      const w10 = fx * (1 - fy);
      const w01 = (1 - fx) * fy;
      const w11 = fx * fy;
      out[o] = (data[o00] ?? 0) * w00 + (data[o10] ?? 0) * w10 + (data[o01] ?? 0) * w01 + (data[o11] ?? 0) * w11;
      out[o + 1] =
        (data[o00 + 1] ?? 0) * w00 +
        (data[o10 + 1] ?? 0) * w10 +
        (data[o01 + 1] ?? 0) * w01 +
        (data[o11 + 1] ?? 0) * w11;
      out[o + 2] =
        (data[o00 + 2] ?? 0) * w00 +
        (data[o10 + 2] ?? 0) * w10 +
        (data[o01 + 2] ?? 0) * w01 +
        (data[o11 + 2] ?? 0) * w11;
      o += 3;
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
export function eyeAlignment(
  points: Pick<FaceKeyPoints, 'rightEye' | 'leftEye'>,
  target: { rightEye: Point; leftEye: Point },
): Omit<CropTransform, 'size'> {
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

/** Point `dlib` (17-67) of dlib's mean face, as fractions of the unpadded chip. */
function dlibMeanPoint(dlib: number): Point {
  const x = DLIB_MEAN_X[dlib - 17];
  const y = DLIB_MEAN_Y[dlib - 17];
  if (x === undefined || y === undefined) throw new RangeError(`dlib's mean face has no point ${dlib}`);
  return [x, y];
}

function centroid(mesh: readonly (readonly number[])[], indices: readonly number[]): Point {
  let x = 0;
  let y = 0;
  for (const i of indices) {
    const [px, py] = mesh[i] ?? [];
    if (px === undefined || py === undefined) throw new RangeError(`face mesh has no point ${i}`);
    x += px;
    y += py;
  }
  return [x / indices.length, y / indices.length];
}

// dlib's 68-point mean face (points 17-67, x and y as fractions of the unpadded chip): the constants
// of get_face_chip_details in dlib's image_transforms/interpolation.h (Boost Software License), the
// function that cut the chips dlib's face-recognition ResNet (the net face-api ships) was trained on.
const DLIB_MEAN_X = [
  0.000213256, 0.0752622, 0.18113, 0.29077, 0.393397, 0.586856, 0.689483, 0.799124, 0.904991, 0.98004, 0.490127,
  0.490127, 0.490127, 0.490127, 0.36688, 0.426036, 0.490127, 0.554217, 0.613373, 0.121737, 0.187122, 0.265825, 0.334606,
  0.260918, 0.182743, 0.645647, 0.714428, 0.793132, 0.858516, 0.79751, 0.719335, 0.254149, 0.340985, 0.428858, 0.490127,
  0.551395, 0.639268, 0.726104, 0.642159, 0.556721, 0.490127, 0.423532, 0.338094, 0.290379, 0.428096, 0.490127,
  0.552157, 0.689874, 0.553364, 0.490127, 0.42689,
];
const DLIB_MEAN_Y = [
  0.106454, 0.038915, 0.0187482, 0.0344891, 0.0773906, 0.0773906, 0.0344891, 0.0187482, 0.038915, 0.106454, 0.203352,
  0.307009, 0.409805, 0.515625, 0.587326, 0.609345, 0.628106, 0.609345, 0.587326, 0.216423, 0.178758, 0.179852,
  0.231733, 0.245099, 0.244077, 0.231733, 0.179852, 0.178758, 0.216423, 0.244077, 0.245099, 0.780233, 0.745405,
  0.727388, 0.742578, 0.727388, 0.745405, 0.780233, 0.864805, 0.902192, 0.909281, 0.902192, 0.864805, 0.784792,
  0.778746, 0.785343, 0.778746, 0.784792, 0.824182, 0.831803, 0.824182,
];
// The dlib points the chip is fitted to (nose, eyes, upper lip: no eyebrows, jaw or lower lip), each
// with the FaceMesh points that sit where it does (averaged when two).
const DLIB_FROM_MESH: ReadonlyArray<readonly [number, readonly number[]]> = [
  [27, [168, 6]],
  [28, [197, 195]],
  [29, [5]],
  [30, [4]],
  [31, [75]],
  [32, [97]],
  [33, [2]],
  [34, [326]],
  [35, [305]],
  [36, [33]],
  [37, [160]],
  [38, [158]],
  [39, [133]],
  [40, [153]],
  [41, [144]],
  [42, [362]],
  [43, [385]],
  [44, [387]],
  [45, [263]],
  [46, [373]],
  [47, [380]],
  [48, [61]],
  [49, [40]],
  [50, [37]],
  [51, [0]],
  [52, [267]],
  [53, [270]],
  [54, [291]],
  [60, [78]],
  [61, [81]],
  [62, [13]],
  [63, [311]],
  [64, [308]],
];

/** Options of {@link meanShapeTransform}. */
export interface MeanShapeOptions {
  /** Margin around dlib's mean face, as a share of its size on each side (dlib's chips: 0.25). */
  readonly padding: number;
  /** Roll beyond this many degrees is levelled, as in {@link CropGeometry} (0: always level). */
  readonly levelAboveDegrees: number;
}

/**
 * dlib's face chip: the least-squares similarity from dlib's mean face (33 points of nose, eyes and
 * upper lip, with `padding` around it) to the same points of the FaceMesh, as dlib's
 * get_face_chip_details fits it to its 68 landmarks. Using every rigid point, not just three centres,
 * the fit holds up when one point is off (a half-closed eye, a turned head).
 *
 * @example
 * const t = meanShapeTransform(face.mesh, 150, { padding: 0.25, levelAboveDegrees: 0 });
 * const crop = sampleCrop(image, t);
 */
export function meanShapeTransform(
  mesh: readonly (readonly number[])[],
  size: number,
  options: MeanShapeOptions = { padding: 0.25, levelAboveDegrees: 0 },
): CropTransform {
  const { padding, levelAboveDegrees } = options;
  // Each pair: a point of the padded mean face in the crop, and the same point on the mesh.
  const pairs = DLIB_FROM_MESH.map(([dlib, meshPoints]) => {
    const [meanX, meanY] = dlibMeanPoint(dlib);
    const src: Point = [((padding + meanX) / (2 * padding + 1)) * size, ((padding + meanY) / (2 * padding + 1)) * size];
    return { src, dst: centroid(mesh, meshPoints) };
  });
  const n = pairs.length;
  const ps: Point = [pairs.reduce((s, p) => s + p.src[0], 0) / n, pairs.reduce((s, p) => s + p.src[1], 0) / n];
  const qs: Point = [pairs.reduce((s, p) => s + p.dst[0], 0) / n, pairs.reduce((s, p) => s + p.dst[1], 0) / n];
  let sxx = 0;
  let num = 0;
  let cross = 0;
  for (const { src, dst } of pairs) {
    const px = src[0] - ps[0];
    const py = src[1] - ps[1];
    const qx = dst[0] - qs[0];
    const qy = dst[1] - qs[1];
    sxx += px * px + py * py;
    num += px * qx + py * qy;
    cross += px * qy - py * qx;
  }
  const scale = Math.hypot(num, cross) / Math.max(sxx, 1e-9);
  const tilt = Math.atan2(cross, num);
  const deadZone = (levelAboveDegrees * Math.PI) / 180;
  const angle = Math.sign(tilt) * Math.max(0, Math.abs(tilt) - deadZone);
  const a = scale * Math.cos(angle);
  const b = scale * Math.sin(angle);
  return { size, a, b, tx: qs[0] - (a * ps[0] - b * ps[1]), ty: qs[1] - (b * ps[0] + a * ps[1]) };
}
