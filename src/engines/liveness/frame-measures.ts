import type { FaceKeyPoints } from '../face/face-alignment.js';
import type { RgbImage } from '../face/raster.js';
import { framingPlane, framingSides } from './border-lines.js';
import { boxDownscale, lumaPlane, type LumaPlane } from './luma.js';
import { faceWindow, scenePlane, type LumaWindow } from './luma-window.js';
import { analyzeCrop, cropSharpness, PAD_CROP_SIZE, padCrop, type PadFace, type PadSignals } from './pad-features.js';
import type { OnnxPadModel, PadNetOutput } from './pad-onnx-model.js';

/** Side of the luma thumbnails compared across frames (of the face crop and of the whole frame). */
export const THUMBNAIL_SIZE = 16;

/** What liveness reads from one face of one frame, computed where the pixels are (the worker). */
export interface FaceFrameMeasures {
  /**
   * PAD feature vector (pad-features.ts), for the hand-made classifier; with its signals, only when asked
   * (`handmadePad`): the face engine computes them when that model decides or when an evaluation asks for both.
   */
  readonly padFeatures?: Float32Array;
  readonly padSignals?: PadSignals;
  /** The blur gate's sharpness of the PAD crop (`PadSignals.sharpness`, always measured). */
  readonly sharpness: number;
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
  /** Native-resolution luma of the middle of the face, for the multi-frame signals (sequence-motion.ts). */
  readonly window?: LumaWindow;
  /** The ONNX PAD model's output (pad-onnx-model.ts), when the face engine runs it (`padModel: 'onnx'`). */
  readonly padNet?: PadNetOutput;
}

/** Which PAD measures `faceFrameMeasures` computes beyond those every liveness face gets. */
export interface FaceMeasureOptions {
  /**
   * The hand-made PAD features and signals (~17 ms of CPU a face), which only the hand-made classifier reads;
   * without them only their sharpness is measured, for the blur gate. Default true.
   */
  readonly handmadePad?: boolean;
}

/**
 * Measures one face of a frame for liveness: PAD texture features and signals on the normalised face
 * crop (or its sharpness alone, `handmadePad: false`), a small thumbnail for frame-to-frame comparison, and
 * the quality figures the gates use.
 *
 * @example
 * const measures = faceFrameMeasures(image, subject.face, frameMeasures(image));
 * padScore(measures.padFeatures);
 * faceFrameMeasures(image, subject.face, frame, { handmadePad: false }).sharpness; // the same sharpness
 */
export function faceFrameMeasures(
  image: RgbImage,
  face: PadFace & { readonly keyPoints: FaceKeyPoints },
  frame: FrameMeasures,
  options: FaceMeasureOptions = {},
): FaceFrameMeasures {
  const crop = padCrop(image, face);
  const pad = (options.handmadePad ?? true) ? analyzeCrop(crop, PAD_CROP_SIZE) : undefined;
  const cropLuma = lumaPlane({ data: crop, width: PAD_CROP_SIZE, height: PAD_CROP_SIZE });
  const luma = cropLuma.data;
  const sorted = Float32Array.from(luma).sort();
  // In bounds: the crop is PAD_CROP_SIZE² pixels, so the `?? 0` never fires.
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  const { rightEye, leftEye } = face.keyPoints;
  return {
    ...(pad && { padFeatures: pad.features, padSignals: pad.signals }),
    sharpness: pad ? pad.signals.sharpness : cropSharpness(crop, PAD_CROP_SIZE),
    faceThumbnail: thumbnail(cropLuma),
    dynamicRange: at(0.98) - at(0.02),
    brightness: luma.reduce((s, v) => s + v, 0) / luma.length,
    meanRgb: channelMeans(crop),
    interEyePixels: Math.hypot(leftEye[0] - rightEye[0], leftEye[1] - rightEye[1]),
    framingSides: framingSides(frame.framing, image.width, face.box),
    window: faceWindow(frame.luma, face.box, image),
  };
}

/**
 * `faceFrameMeasures` plus, when a PAD model is given, its output for the face (read from the frame's
 * pixels around the face box).
 *
 * @example
 * const measures = await faceLivenessMeasures(image, face, frameMeasures(image), await OnnxPadModel.load(), {
 *   handmadePad: false,
 * });
 * measures.padNet?.pLive;
 */
export async function faceLivenessMeasures(
  image: RgbImage,
  face: PadFace & { readonly keyPoints: FaceKeyPoints },
  frame: FrameMeasures,
  padNet: OnnxPadModel | undefined,
  options: FaceMeasureOptions = {},
): Promise<FaceFrameMeasures> {
  const measures = faceFrameMeasures(image, face, frame, options);
  return padNet ? { ...measures, padNet: await padNet.predict(image, face.box) } : measures;
}

/** What liveness reads from a whole frame, computed once per frame in the worker. */
export interface FrameMeasures {
  /** 16×16 luma of the frame, for comparing frames. */
  readonly thumbnail: Uint8Array;
  /** Fine detail against one octave down (see detailRatio). */
  readonly detail: number;
  /** The luma reduced for the framing-edge search, shared by the frame's faces. */
  readonly framing: LumaPlane;
  /** The frame's luma at full resolution (the faces' windows are cut from it; not sent back). */
  readonly luma: LumaPlane;
  /** The whole frame's luma reduced, for the background's motion (sequence-motion.ts). */
  readonly scene: LumaWindow;
}

/**
 * The frame-level measures, from one luma pass over the frame.
 *
 * @example
 * const frame = frameMeasures(image);
 * meanAbsoluteDifference(frame.thumbnail, previous.thumbnail); // ~0 for a repeated frame
 */
export function frameMeasures(image: RgbImage): FrameMeasures {
  const luma = lumaPlane(image);
  return {
    thumbnail: thumbnail(luma),
    detail: detailRatio(luma),
    framing: framingPlane(luma),
    luma,
    scene: scenePlane(luma),
  };
}

/** Mean absolute difference of two thumbnails, 0..255. */
export function meanAbsoluteDifference(a: Uint8Array, b: Uint8Array): number {
  if (a.length !== b.length) throw new RangeError('thumbnails differ in size');
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

function channelMeans(rgb: Float32Array): [number, number, number] {
  let r = 0;
  let g = 0;
  let b = 0;
  // Interleaved RGB, a whole number of pixels: every read is in bounds.
  for (let i = 0; i < rgb.length; i += 3) {
    r += rgb[i] ?? 0;
    g += rgb[i + 1] ?? 0;
    b += rgb[i + 2] ?? 0;
  }
  const n = rgb.length / 3;
  return [r / n, g / n, b / n];
}

function thumbnail(luma: LumaPlane): Uint8Array {
  return Uint8Array.from(boxDownscale(luma, THUMBNAIL_SIZE, THUMBNAIL_SIZE).data, Math.round);
}

/**
 * Fine detail of a whole frame relative to its detail one octave down: mean squared Laplacian at full
 * resolution over the same at half resolution. A camera frame keeps sensor noise and edges at full
 * resolution; a frame upscaled from a smaller video (a typical injected stream) has almost nothing in
 * its top octave, so the ratio falls (~0.4 for a camera-like frame, far less for a 2× upscaled one).
 */
function detailRatio(plane: LumaPlane): number {
  const { width, height, data: luma } = plane;
  const halfWidth = Math.floor(width / 2);
  const halfHeight = Math.floor(height / 2);
  const half = new Float32Array(halfWidth * halfHeight);
  for (let y = 0; y < halfHeight; y++) {
    for (let x = 0; x < halfWidth; x++) {
      const i = 2 * y * width + 2 * x;
      half[y * halfWidth + x] =
        ((luma[i] ?? 0) + (luma[i + 1] ?? 0) + (luma[i + width] ?? 0) + (luma[i + width + 1] ?? 0)) / 4;
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
      const lap =
        (plane[i - 1] ?? 0) +
        (plane[i + 1] ?? 0) +
        (plane[i - width] ?? 0) +
        (plane[i + width] ?? 0) -
        4 * (plane[i] ?? 0);
      sum += lap * lap;
      count++;
    }
  }
  return count > 0 ? sum / count : 0;
}
