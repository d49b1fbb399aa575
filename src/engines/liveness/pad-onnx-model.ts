/**
 * The neural presentation-attack model: `model/fr_liveness.onnx` from the npm package
 * `faceplugin-face-recognition-js` (a small convolutional classifier, 1.9 MB), run on onnxruntime's CPU
 * kernels. It reads a 128×128 crop around the face, 2.7 times the face box, and returns three class
 * scores. Its training data is not disclosed and its licence line is a template MIT that says nothing
 * of the weights (docs/liveness.md).
 *
 * The crop follows the package's `alignLivenessImage` (box scaled about its centre, the scale reduced so
 * the crop fits the image, the crop shifted inside the image, resized bilinearly) without its
 * `parseInt` on floats, which reads 5.6e-7 as 5 and crashes on some images: here the crop rectangle
 * stays in floating point and is sampled directly. The package feeds the channels in RGB order; the
 * model separates live from spoof better fed BGR (the OpenCV order it was presumably trained in): on the
 * dev set's decided faces AUC 0.9996 against 0.975 (reports/pad-models.md), so BGR is what it gets here.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { openCpuSession } from '../face/runtime/onnx-session.js';
import type { RgbImage } from '../face/raster.js';
import { packageDir } from '../../lib/package-files.js';

/** Side of the square crop the model reads. */
export const PAD_NET_INPUT_SIZE = 128;
/** The crop is this many face boxes wide and high (fewer where the image is too small). */
export const PAD_NET_BOX_SCALE = 2.7;
/**
 * The class of the three outputs that is the bona fide face (the package reads class 0 as "liveness"). On the
 * dev set class 1 takes every attack and class 2 stays under 0.002 for live and spoof faces alike.
 */
export const PAD_NET_LIVE_CLASS = 0;

const PACKAGE = 'faceplugin-face-recognition-js';
const MODEL_PATH = 'model/fr_liveness.onnx';
/** SHA-256 of the file this build was calibrated on: other weights need a new calibration (docs/liveness.md). */
export const PAD_NET_SHA256 = 'afa783b7e902fdfcf323a7240cac2a1c580c25314ea4161129dc1b0d100dc32d';

/** A face box in image pixels: [x, y, width, height]. */
export type PadNetBox = readonly [number, number, number, number];

/** What the model says of one face. */
export interface PadNetOutput {
  /** Softmax of the three outputs; `PAD_NET_LIVE_CLASS` is the live one. */
  readonly probabilities: readonly [number, number, number];
  /** P(live): the live class's probability. */
  readonly pLive: number;
}

/** How the input is cut and ordered; the defaults are what the model is run with (evaluations vary them). */
export interface PadNetInputOptions {
  /** Crop side over the face box side (default PAD_NET_BOX_SCALE). */
  readonly scale?: number;
  /** Channel order of the planes (default `bgr`; the package feeds `rgb`). */
  readonly channels?: 'bgr' | 'rgb';
}

/** The crop rectangle in image pixels (floating point, inside the image). */
export interface PadNetCrop {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * Where the model's crop lies: the box scaled by `scale` about its centre (the scale lowered so that the
 * crop fits the image in both directions), then shifted to lie inside the image, as the package does,
 * but in floating point.
 *
 * @example
 * padNetCrop([100, 80, 60, 60], 640, 480); // { x: 49, y: 29, width: 162, height: 162 }
 * @throws {RangeError} for a box without area or an empty image
 */
export function padNetCrop(box: PadNetBox, width: number, height: number, scale = PAD_NET_BOX_SCALE): PadNetCrop {
  const [x, y, w, h] = box;
  if (!(w > 0 && h > 0) || !(width > 1 && height > 1))
    throw new RangeError('padNetCrop needs a box and an image with area');
  const s = Math.min((height - 1) / h, (width - 1) / w, scale);
  const cw = w * s;
  const ch = h * s;
  const left = clamp(x + w / 2 - cw / 2, 0, width - 1 - cw);
  const top = clamp(y + h / 2 - ch / 2, 0, height - 1 - ch);
  return { x: left, y: top, width: cw, height: ch };
}

/**
 * The model's input for one face: the crop resampled to 128×128 bilinearly (pixel centres mapped as
 * OpenCV's `resize` maps them), planar B, G, R (or R, G, B when asked), values 0..255.
 *
 * @example
 * const input = padNetInput(image, face.box); // Float32Array of 3 × 128 × 128
 */
export function padNetInput(image: RgbImage, box: PadNetBox, options: PadNetInputOptions = {}): Float32Array {
  const crop = padNetCrop(box, image.width, image.height, options.scale ?? PAD_NET_BOX_SCALE);
  const bgr = (options.channels ?? 'bgr') === 'bgr';
  const n = PAD_NET_INPUT_SIZE;
  const plane = n * n;
  const out = new Float32Array(3 * plane);
  const { data, width, height } = image;
  const sx = crop.width / n;
  const sy = crop.height / n;
  for (let v = 0; v < n; v++) {
    const fy = clamp(crop.y + (v + 0.5) * sy - 0.5, 0, height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(height - 1, y0 + 1);
    const wy = fy - y0;
    for (let u = 0; u < n; u++) {
      const fx = clamp(crop.x + (u + 0.5) * sx - 0.5, 0, width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(width - 1, x0 + 1);
      const wx = fx - x0;
      const a = (y0 * width + x0) * 3;
      const b = (y0 * width + x1) * 3;
      const c = (y1 * width + x0) * 3;
      const d = (y1 * width + x1) * 3;
      for (let ch = 0; ch < 3; ch++) {
        // Every index is a pixel of the image (clamped above), so the `?? 0` never fires.
        const top = (data[a + ch] ?? 0) * (1 - wx) + (data[b + ch] ?? 0) * wx;
        const bottom = (data[c + ch] ?? 0) * (1 - wx) + (data[d + ch] ?? 0) * wx;
        // In B, G, R order RGB channel ch goes to plane 2 - ch.
        out[(bgr ? 2 - ch : ch) * plane + v * n + u] = top * (1 - wy) + bottom * wy;
      }
    }
  }
  return out;
}

/**
 * The loaded model, one per face worker.
 *
 * @example
 * const model = await OnnxPadModel.load();
 * const { pLive } = await model.predict(image, face.box);
 */
export class OnnxPadModel {
  private constructor(private readonly session: InferenceSession) {}

  /**
   * Reads the model from the installed package and checks it is the file this build was calibrated on.
   *
   * @example
   * const model = await OnnxPadModel.load();
   * @throws {Error} when the package or the file is missing, or the file's SHA-256 differs
   */
  static async load(): Promise<OnnxPadModel> {
    const bytes = readFileSync(join(packageDir(PACKAGE), MODEL_PATH));
    const digest = createHash('sha256').update(bytes).digest('hex');
    if (digest !== PAD_NET_SHA256) {
      throw new Error(
        `${PACKAGE}/${MODEL_PATH} has SHA-256 ${digest}, not the ${PAD_NET_SHA256} its calibration was measured on`,
      );
    }
    return new OnnxPadModel(await openCpuSession(bytes));
  }

  /**
   * Scores one face given its box (the face detector's, in image pixels); `options` only for evaluations.
   *
   * @example
   * const { pLive, probabilities } = await model.predict(image, [120, 90, 200, 200]);
   */
  async predict(image: RgbImage, box: PadNetBox, options: PadNetInputOptions = {}): Promise<PadNetOutput> {
    const data = padNetInput(image, box, options);
    const input = new Tensor('float32', data, [1, 3, PAD_NET_INPUT_SIZE, PAD_NET_INPUT_SIZE]);
    const outputs = await this.session.run({ input });
    const logits = outputs.output?.data;
    if (!(logits instanceof Float32Array) || logits.length !== 3)
      throw new Error('fr_liveness.onnx returned no 3-class output');
    const probabilities = softmax3(logits);
    return { probabilities, pLive: probabilities[PAD_NET_LIVE_CLASS] };
  }
}

function softmax3(logits: Float32Array): [number, number, number] {
  const [a = 0, b = 0, c = 0] = logits;
  const top = Math.max(a, b, c);
  const e = [Math.exp(a - top), Math.exp(b - top), Math.exp(c - top)] as const;
  const sum = e[0] + e[1] + e[2];
  return [e[0] / sum, e[1] / sum, e[2] / sum];
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), Math.max(low, high));
}
