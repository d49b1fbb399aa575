/**
 * The frame most quality measures read: the face resampled to a fixed-size, eye-levelled crop (so a
 * measure means the same at any face size and roll), with masks of its parts drawn from the mesh.
 */
import {
  areaSupersampling,
  cropTransform,
  sampleCrop,
  type CropGeometry,
  type CropTransform,
  type FaceKeyPoints,
} from '../face/face-alignment.js';
import type { Point, RgbImage } from '../face/raster.js';
import { lumaPlane } from '../liveness/luma.js';
import {
  FACE_OVAL,
  LEFT_BROW,
  LEFT_EYE_CONTOUR,
  LIPS_OUTER,
  meshPoint,
  RIGHT_BROW,
  RIGHT_EYE_CONTOUR,
} from './mesh-regions.js';
import { fillPolygon } from './polygon-mask.js';

/** A face as the quality measures need it (a FaceObservation has all of it). */
export interface QualityFace {
  /** [x, y, width, height] in image pixels. */
  readonly box: readonly [number, number, number, number];
  readonly keyPoints: FaceKeyPoints;
  /** 468 FaceMesh points [x, y, z] in image pixels. */
  readonly mesh: readonly (readonly number[])[];
  /** Radians, as the detector gives them (face-detector.ts). */
  readonly pose: { readonly yaw: number; readonly pitch: number; readonly roll: number };
}

/** An eye-levelled crop of the image: its pixels, and which of them fall inside the image. */
export interface AlignedCrop {
  readonly size: number;
  readonly transform: CropTransform;
  /** size²×3 float RGB 0..255, row by row (pixels outside the image repeat its edge). */
  readonly rgb: Float32Array;
  readonly luma: Float32Array;
  /** 1 where the crop pixel lies inside the image. */
  readonly inImage: Uint8Array;
  /** Crop coordinates of an image point. */
  toCrop(point: Point): Point;
}

/** The face crop with the masks of its parts (each 1 inside, and only where inside the image). */
export interface FaceRegion extends AlignedCrop {
  /** Inside the face outline. */
  readonly face: Uint8Array;
  /** The outline minus eyes, brows and lips (slightly enlarged): skin, unless something covers it. */
  readonly skin: Uint8Array;
  /** The eye openings, the person's right then left, not limited to the image (their in-image share is a measure). */
  readonly eyes: readonly [Uint8Array, Uint8Array];
  /** Crop pixels per eye-to-mouth distance. */
  readonly unit: number;
  /** The crop row of the (levelled) eye line; the eye midpoint is at column size / 2. */
  readonly eyeRow: number;
}

/** Side of the face crop. */
export const FACE_REGION_SIZE = 160;

/**
 * Eyes levelled at 38% of the height, mouth 30% of the side below them: the whole mesh outline
 * (forehead top ~0.75, chin ~1.6 eye-to-mouth distances from the eye line, width ~2.1) with ~10% margin.
 */
export const FACE_REGION_GEOMETRY: CropGeometry = { eyeY: 0.38, eyeToMouth: 0.3, levelAboveDegrees: 0 };

// Part masks are enlarged about their centroid so that lashes, lid shadows and lip edges stay out of the skin.
const EYE_MARGIN = 1.5;
const BROW_MARGIN = 1.3;
const LIPS_MARGIN = 1.15;
// The outline is pulled in a little: its edge is where hair and background begin.
const OVAL_SHRINK = 0.95;

/**
 * Resamples an eye-levelled crop: bilinear, averaging up to `maxSupersample`² samples per crop pixel
 * when the face is larger than the crop (fewer alias more, more cost more: k² bilinear reads).
 *
 * @example
 * const wide = alignedCrop(image, face.keyPoints, 128, { eyeY: 0.45, eyeToMouth: 0.1, levelAboveDegrees: 0 }, 3);
 */
export function alignedCrop(
  image: RgbImage,
  keyPoints: FaceKeyPoints,
  size: number,
  geometry: CropGeometry,
  maxSupersample = 4,
): AlignedCrop {
  const transform = cropTransform(keyPoints, size, geometry);
  const rgb = sampleCrop(image, transform, false, Math.min(maxSupersample, areaSupersampling(transform)));
  const { a, b, tx, ty } = transform;
  const inImage = new Uint8Array(size * size);
  for (let v = 0; v < size; v++) {
    for (let u = 0; u < size; u++) {
      const x = a * u - b * v + tx;
      const y = b * u + a * v + ty;
      inImage[v * size + u] = x >= -0.5 && y >= -0.5 && x <= image.width - 0.5 && y <= image.height - 0.5 ? 1 : 0;
    }
  }
  const det = a * a + b * b;
  return {
    size,
    transform,
    rgb,
    luma: lumaPlane({ data: rgb, width: size, height: size }).data,
    inImage,
    toCrop: ([x, y]) => [(a * (x - tx) + b * (y - ty)) / det, (-b * (x - tx) + a * (y - ty)) / det],
  };
}

/**
 * The face crop and its part masks, from the mesh.
 *
 * @example
 * const region = faceRegion(image, face);
 * const skinPixels = region.skin.reduce((n, m) => n + m, 0);
 */
export function faceRegion(image: RgbImage, face: Pick<QualityFace, 'keyPoints' | 'mesh'>): FaceRegion {
  const size = FACE_REGION_SIZE;
  const crop = alignedCrop(image, face.keyPoints, size, FACE_REGION_GEOMETRY);
  const polygon = (indices: readonly number[]) => indices.map((i) => crop.toCrop(meshPoint(face.mesh, i)));
  const mask = (): Uint8Array => new Uint8Array(size * size);

  const outline = mask();
  fillPolygon(outline, size, size, polygon(FACE_OVAL), 1, OVAL_SHRINK);
  const skin = Uint8Array.from(outline);
  for (const eye of [RIGHT_EYE_CONTOUR, LEFT_EYE_CONTOUR]) fillPolygon(skin, size, size, polygon(eye), 0, EYE_MARGIN);
  for (const brow of [RIGHT_BROW, LEFT_BROW]) fillPolygon(skin, size, size, polygon(brow), 0, BROW_MARGIN);
  fillPolygon(skin, size, size, polygon(LIPS_OUTER), 0, LIPS_MARGIN);
  const eyeMask = (contour: readonly number[]): Uint8Array => {
    const eye = mask();
    fillPolygon(eye, size, size, polygon(contour), 1);
    return eye;
  };
  const eyes: [Uint8Array, Uint8Array] = [eyeMask(RIGHT_EYE_CONTOUR), eyeMask(LEFT_EYE_CONTOUR)];
  for (let i = 0; i < size * size; i++) {
    const inImage = crop.inImage[i] ?? 0;
    outline[i] = (outline[i] ?? 0) & inImage;
    skin[i] = (skin[i] ?? 0) & inImage;
  }
  return {
    ...crop,
    face: outline,
    skin,
    eyes,
    unit: FACE_REGION_GEOMETRY.eyeToMouth * size,
    eyeRow: FACE_REGION_GEOMETRY.eyeY * size,
  };
}
