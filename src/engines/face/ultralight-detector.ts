/**
 * A second face detector for the faces BlazeFace misses (a head turned towards profile, a small face):
 * `model/fr_detect.onnx` from the npm package `faceplugin-face-recognition-js`, an Ultra-Light-Fast-Generic
 * face detector (RFB-320: 1.2 MB, 4,420 priors on a 320×240 input, its SSD heads named as in Linzaer's
 * Ultra-Light-Fast-Generic-Face-Detector-1MB, MIT), exported with its box decoding: it returns per prior the
 * softmax of (background, face) and a box in corners, as shares of the input. Pre- and post-processing are
 * ours, after the package's `lib/fr_detect.js` and the original's ONNX demo (RGB, (v − 127) / 128, planar;
 * boxes over a score floor, greedy non-maximum suppression), but the image is letterboxed into 320×240, not
 * stretched ({@link ultraLightPlacement}). The package's licence is a template MIT and says nothing of the weights
 * (docs/face-engine.md).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { packageDir } from '../../lib/package-files.js';
import { nonMaxSuppression } from './blazeface-detector.js';
import type { Point, RgbImage } from './raster.js';
import { openCpuSession } from './runtime/onnx-session.js';

const PACKAGE = 'faceplugin-face-recognition-js';
const MODEL_PATH = 'model/fr_detect.onnx';
/** SHA-256 of the file the fallback was measured with (docs/face-engine.md): other weights need measuring again. */
export const ULTRALIGHT_SHA256 = '6c0256ccd3164f844736a401faf936ec2930764a87ae39442180887d0c5c8854';

/** The input the model reads, width × height. */
export const ULTRALIGHT_INPUT_WIDTH = 320;
export const ULTRALIGHT_INPUT_HEIGHT = 240;
/** The model's priors (its boxes per image): 40×30, 20×15, 10×8 and 5×4 cells with 3, 2, 2 and 3 sizes. */
export const ULTRALIGHT_PRIORS = 4420;

/** One face as the Ultra-Light detector finds it: corners in image pixels and the face probability. */
export interface UltraLightBox {
  readonly x1: number;
  readonly y1: number;
  readonly x2: number;
  readonly y2: number;
  readonly score: number;
}

export interface UltraLightOptions {
  /** Boxes whose face probability is at or under this are dropped. */
  readonly minScore: number;
  /** A box overlapping a better one by this IoU or more is dropped. */
  readonly iouThreshold: number;
  /** Faces kept at most. */
  readonly maxFaces: number;
}

/** The original's ONNX demo's score floor (0.7) and its NMS IoU (0.3 in its box utilities). */
export const DEFAULT_ULTRALIGHT_OPTIONS: UltraLightOptions = { minScore: 0.7, iouThreshold: 0.3, maxFaces: 5 };

/**
 * The Ultra-Light face detector on onnxruntime, one per worker.
 *
 * @example
 * const detector = await UltraLightDetector.load();
 * const boxes = await detector.detect(image); // [{ x1: 52, y1: 40, x2: 131, y2: 142, score: 0.98 }]
 */
export class UltraLightDetector {
  private constructor(
    private readonly session: InferenceSession,
    private readonly options: UltraLightOptions,
  ) {}

  /**
   * Reads the model from the installed package, checks it is the file this build was measured with, and
   * opens a session.
   *
   * @example
   * const detector = await UltraLightDetector.load({ ...DEFAULT_ULTRALIGHT_OPTIONS, maxFaces: 1 });
   * @throws {Error} when the package or the file is missing, or the file's SHA-256 differs
   */
  static async load(options: UltraLightOptions = DEFAULT_ULTRALIGHT_OPTIONS): Promise<UltraLightDetector> {
    const bytes = readFileSync(join(packageDir(PACKAGE), MODEL_PATH));
    const digest = createHash('sha256').update(bytes).digest('hex');
    if (digest !== ULTRALIGHT_SHA256) {
      throw new Error(
        `${PACKAGE}/${MODEL_PATH} has SHA-256 ${digest}, not the ${ULTRALIGHT_SHA256} it was measured with`,
      );
    }
    return new UltraLightDetector(await openCpuSession(bytes), options);
  }

  /** The faces in an image, best score first. */
  async detect(image: RgbImage): Promise<UltraLightBox[]> {
    const input = new Tensor('float32', ultraLightInput(image), [
      1,
      3,
      ULTRALIGHT_INPUT_HEIGHT,
      ULTRALIGHT_INPUT_WIDTH,
    ]);
    const outputs = await this.session.run({ input });
    try {
      const scores = outputs.scores?.data;
      const boxes = outputs.boxes?.data;
      if (!(scores instanceof Float32Array) || !(boxes instanceof Float32Array)) {
        throw new Error('the Ultra-Light detector returned no float scores or boxes');
      }
      return decodeUltraLight(scores, boxes, image, this.options);
    } finally {
      for (const tensor of Object.values(outputs)) tensor.dispose();
      input.dispose();
    }
  }
}

/** Where the image lies in the model's input: input pixel = image pixel × `scale` + (`left`, `top`). */
export interface UltraLightPlacement {
  readonly scale: number;
  readonly left: number;
  readonly top: number;
}

/**
 * The image scaled to fit 320×240 whole, its aspect kept, centred (letterboxed). The original stretches every
 * image to 320×240, which squeezes the faces of a strip-shaped photo out of shape: portraits of face-api's
 * demo photos on a 360×1400 or 1600×300 strip are found by it in 1 of 6 cases stretched, 6 of 6 letterboxed
 * (both find all 202 of a fifth of the dev set's identity images).
 *
 * @example
 * ultraLightPlacement({ width: 150, height: 150 }); // { scale: 1.6, left: 40, top: 0 }
 */
export function ultraLightPlacement(image: { readonly width: number; readonly height: number }): UltraLightPlacement {
  const scale = Math.min(ULTRALIGHT_INPUT_WIDTH / image.width, ULTRALIGHT_INPUT_HEIGHT / image.height);
  return {
    scale,
    left: (ULTRALIGHT_INPUT_WIDTH - image.width * scale) / 2,
    top: (ULTRALIGHT_INPUT_HEIGHT - image.height * scale) / 2,
  };
}

/**
 * The model's input: the image placed by {@link ultraLightPlacement}, sampled bilinearly (OpenCV's pixel-centre
 * mapping, clamped to the image), planar R, G, B, values (v − 127) / 128; the border around it is 127 (0 in).
 *
 * @example
 * ultraLightInput(image).length; // 3 × 240 × 320
 */
export function ultraLightInput(image: RgbImage): Float32Array {
  const { data, width, height } = image;
  const { scale, left, top } = ultraLightPlacement(image);
  const w = ULTRALIGHT_INPUT_WIDTH;
  const h = ULTRALIGHT_INPUT_HEIGHT;
  const plane = w * h;
  const out = new Float32Array(3 * plane);
  for (let v = 0; v < h; v++) {
    const sy = (v + 0.5 - top) / scale - 0.5;
    if (sy < -0.5 || sy > height - 0.5) continue;
    const fy = Math.min(Math.max(sy, 0), height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(height - 1, y0 + 1);
    const wy = fy - y0;
    for (let u = 0; u < w; u++) {
      const sx = (u + 0.5 - left) / scale - 0.5;
      if (sx < -0.5 || sx > width - 0.5) continue;
      const fx = Math.min(Math.max(sx, 0), width - 1);
      const x0 = Math.floor(fx);
      const x1 = Math.min(width - 1, x0 + 1);
      const wx = fx - x0;
      const a = (y0 * width + x0) * 3;
      const b = (y0 * width + x1) * 3;
      const c = (y1 * width + x0) * 3;
      const d = (y1 * width + x1) * 3;
      for (let ch = 0; ch < 3; ch++) {
        // Every index is a pixel of the image (clamped above), so the `?? 0` never fires.
        const upper = (data[a + ch] ?? 0) * (1 - wx) + (data[b + ch] ?? 0) * wx;
        const lower = (data[c + ch] ?? 0) * (1 - wx) + (data[d + ch] ?? 0) * wx;
        out[ch * plane + v * w + u] = (upper * (1 - wy) + lower * wy - 127) / 128;
      }
    }
  }
  return out;
}

/**
 * The model's outputs to faces: per prior, scores (background, face) and corners as shares of the input;
 * the face probability over `minScore`, greedy NMS at `iouThreshold`, at most `maxFaces`, corners mapped
 * back to the image ({@link ultraLightPlacement}).
 *
 * @example
 * const faces = decodeUltraLight(outputs.scores.data, outputs.boxes.data, image, DEFAULT_ULTRALIGHT_OPTIONS);
 * @throws {RangeError} when the outputs do not hold the same number of priors
 */
export function decodeUltraLight(
  scores: Float32Array,
  boxes: Float32Array,
  image: { readonly width: number; readonly height: number },
  options: UltraLightOptions,
): UltraLightBox[] {
  const count = scores.length / 2;
  if (!Number.isInteger(count) || boxes.length !== count * 4) {
    throw new RangeError(`Ultra-Light outputs disagree: ${scores.length} scores for ${boxes.length} box values`);
  }
  const face = new Float32Array(count);
  for (let i = 0; i < count; i++) face[i] = scores[i * 2 + 1] ?? 0;
  const kept = nonMaxSuppression(boxes, face, {
    maxFaces: options.maxFaces,
    minConfidence: options.minScore,
    iouThreshold: options.iouThreshold,
  });
  const { scale, left, top } = ultraLightPlacement(image);
  const x = (share: number) => (share * ULTRALIGHT_INPUT_WIDTH - left) / scale;
  const y = (share: number) => (share * ULTRALIGHT_INPUT_HEIGHT - top) / scale;
  return kept.map((i) => ({
    x1: x(boxes[i * 4] ?? 0),
    y1: y(boxes[i * 4 + 1] ?? 0),
    x2: x(boxes[i * 4 + 2] ?? 0),
    y2: y(boxes[i * 4 + 3] ?? 0),
    score: face[i] ?? 0,
  }));
}

/** The square crop FaceMesh reads for a face the Ultra-Light detector found, level, in whole image pixels. */
export interface UltraLightMeshCrop {
  readonly start: Point;
  readonly end: Point;
  /** Always 0: the detector gives no key points to read a roll from. */
  readonly roll: number;
}

/**
 * Where BlazeFace's mesh crop lies relative to an Ultra-Light box, medians over the 722 dev identity images
 * where each found exactly one face: its side is 1.11 × the Ultra-Light box's height (5th–95th percentile
 * 0.99–1.25; the box is 1.42 × taller than wide), its centre 0.095 × that height lower (0.04–0.14) and
 * level with it across (−0.04–0.04).
 */
export const ULTRALIGHT_MESH_CROP = { sideOverHeight: 1.11, centreDown: 0.095 } as const;

/**
 * The crop FaceMesh reads for an Ultra-Light box: a square framed as BlazeFace's crop would frame the
 * same face ({@link ULTRALIGHT_MESH_CROP}), level (FaceMesh takes the roll of an upright head in its stride).
 *
 * @example
 * ultraLightMeshCrop({ x1: 50, y1: 32, x2: 96, y2: 106, score: 0.99 });
 * // { start: [32, 35], end: [114, 117], roll: 0 }
 */
export function ultraLightMeshCrop(box: UltraLightBox): UltraLightMeshCrop {
  const height = box.y2 - box.y1;
  const half = (ULTRALIGHT_MESH_CROP.sideOverHeight * height) / 2;
  const cx = (box.x1 + box.x2) / 2;
  const cy = (box.y1 + box.y2) / 2 + ULTRALIGHT_MESH_CROP.centreDown * height;
  return {
    start: [Math.round(cx - half), Math.round(cy - half)],
    end: [Math.round(cx + half), Math.round(cy + half)],
    roll: 0,
  };
}
