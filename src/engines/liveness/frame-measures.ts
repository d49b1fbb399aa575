import type { FaceKeyPoints } from '../face/face-alignment.js';
import type { RgbImage } from '../face/raster.js';
import { framingSides } from './border-lines.js';
import { analyzeCrop, PAD_CROP_SIZE, padCrop, type PadFace, type PadSignals } from './pad-features.js';

/** Side of the luma thumbnails compared across frames (of the face crop and of the whole frame). */
export const THUMBNAIL_SIZE = 16;

/** What liveness reads from one face of one frame, computed where the pixels are (the worker). */
export interface FaceFrameMeasures {
  /** PAD feature vector (pad-features.ts), for the classifier. */
  readonly padFeatures: Float32Array;
  readonly padSignals: PadSignals;
  /** 16×16 luma of the normalised face crop: near-identical across frames means a replayed still. */
  readonly faceThumbnail: Uint8Array;
  /** Luma spread of the face crop, 2nd to 98th percentile, 0..255: a flat, washed-out face is low. */
  readonly dynamicRange: number;
  /** Mean luma of the face crop, 0..255. */
  readonly brightness: number;
  /** Mean R, G, B of the face crop, 0..255: the light trace follows its colour across frames. */
  readonly meanRgb: readonly [number, number, number];
  readonly interEyePixels: number;
  /** Sides of the face (0-4) with a long straight edge around it: a phone, screen or print held up. */
  readonly framingSides: number;
}

/**
 * Measures one face of a frame for liveness: PAD texture features and signals on the normalised face
 * crop, a small thumbnail for frame-to-frame comparison, and the quality figures the gates use.
 *
 * @example
 * const measures = faceFrameMeasures(image, subject.face);
 * padScore(measures.padFeatures);
 */
export function faceFrameMeasures(image: RgbImage, face: PadFace & { readonly keyPoints: FaceKeyPoints }): FaceFrameMeasures {
  const crop = padCrop(image, face);
  const { features, signals } = analyzeCrop(crop, PAD_CROP_SIZE);
  const luma = lumaOf(crop);
  const sorted = Float32Array.from(luma).sort();
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const { rightEye, leftEye } = face.keyPoints;
  return {
    padFeatures: features,
    padSignals: signals,
    faceThumbnail: thumbnail(luma, PAD_CROP_SIZE, PAD_CROP_SIZE),
    dynamicRange: at(0.98) - at(0.02),
    brightness: luma.reduce((s, v) => s + v, 0) / luma.length,
    meanRgb: channelMeans(crop),
    interEyePixels: Math.hypot(leftEye[0] - rightEye[0], leftEye[1] - rightEye[1]),
    framingSides: framingSides(image, face.box),
  };
}

/**
 * 16×16 luma thumbnail of a whole frame (box-averaged), for comparing frames.
 *
 * @example
 * meanAbsoluteDifference(frameThumbnail(a), frameThumbnail(b)); // ~0 for a repeated frame
 */
export function frameThumbnail(image: RgbImage): Uint8Array {
  const luma = new Float32Array(image.width * image.height);
  for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * image.data[i * 3]! + 0.587 * image.data[i * 3 + 1]! + 0.114 * image.data[i * 3 + 2]!;
  return thumbnail(luma, image.width, image.height);
}

/** Mean absolute difference of two thumbnails, 0..255. */
export function meanAbsoluteDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new RangeError('thumbnails differ in size');
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

function channelMeans(rgb: Float32Array): [number, number, number] {
  const sums = [0, 0, 0];
  for (let i = 0; i < rgb.length; i++) sums[i % 3] = sums[i % 3]! + rgb[i]!;
  const n = rgb.length / 3;
  return [sums[0]! / n, sums[1]! / n, sums[2]! / n];
}

function lumaOf(rgb: Float32Array): Float32Array {
  const out = new Float32Array(rgb.length / 3);
  for (let i = 0; i < out.length; i++) out[i] = 0.299 * rgb[i * 3]! + 0.587 * rgb[i * 3 + 1]! + 0.114 * rgb[i * 3 + 2]!;
  return out;
}

function thumbnail(luma: Float32Array, width: number, height: number): Uint8Array {
  const n = THUMBNAIL_SIZE;
  const sums = new Float64Array(n * n);
  const counts = new Uint32Array(n * n);
  for (let y = 0; y < height; y++) {
    const ty = Math.min(n - 1, Math.floor((y * n) / height));
    for (let x = 0; x < width; x++) {
      const cell = ty * n + Math.min(n - 1, Math.floor((x * n) / width));
      sums[cell] = sums[cell]! + luma[y * width + x]!;
      counts[cell] = counts[cell]! + 1;
    }
  }
  return Uint8Array.from(sums, (s, i) => Math.round(s / Math.max(1, counts[i]!)));
}

/**
 * Fine detail of a whole frame relative to its detail one octave down: mean squared Laplacian at full
 * resolution over the same at half resolution. A camera frame keeps sensor noise and edges at full
 * resolution; a frame upscaled from a smaller video (a typical injected stream) has almost nothing in
 * its top octave, so the ratio falls.
 *
 * @example
 * frameDetailRatio(image); // ~0.3 for a camera frame, far less for a 2× upscaled one
 */
export function frameDetailRatio(image: RgbImage): number {
  const { width, height } = image;
  const luma = new Float32Array(width * height);
  for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * image.data[i * 3]! + 0.587 * image.data[i * 3 + 1]! + 0.114 * image.data[i * 3 + 2]!;
  const halfWidth = Math.floor(width / 2);
  const halfHeight = Math.floor(height / 2);
  const half = new Float32Array(halfWidth * halfHeight);
  for (let y = 0; y < halfHeight; y++) {
    for (let x = 0; x < halfWidth; x++) {
      const i = 2 * y * width + 2 * x;
      half[y * halfWidth + x] = (luma[i]! + luma[i + 1]! + luma[i + width]! + luma[i + width + 1]!) / 4;
    }
  }
  const full = laplacianEnergy(luma, width, height);
  const coarse = laplacianEnergy(half, halfWidth, halfHeight);
  return coarse > 0 ? full / coarse : 0;
}

function laplacianEnergy(plane: Float32Array, width: number, height: number): number {
  let sum = 0;
  let count = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const lap = plane[i - 1]! + plane[i + 1]! + plane[i - width]! + plane[i + width]! - 4 * plane[i]!;
      sum += lap * lap;
      count++;
    }
  }
  return count > 0 ? sum / count : 0;
}
