import { join } from 'node:path';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { packageDir } from '../../lib/package-files.js';
import type { Point, RgbImage } from './raster.js';
import { graphModelToOnnx, type ConvertedGraphModel } from './runtime/graph-model-onnx.js';
import { openCpuSession } from './runtime/onnx-session.js';
import { ScratchBuffer } from './scratch-buffer.js';

/** Side of the square image BlazeFace reads (human's `blazeface.json`, the 256-pixel "back" model). */
const INPUT_SIZE = 256;
/** Per anchor: the face logit, the box (centre offset x, y, width, height) and 6 key points (x, y). */
const ANCHOR_VALUES = 17;
const KEY_POINTS = 6;
/** BlazeFace's key points: 0 right eye, 1 left eye, 2 nose, 3 mouth, 4 right ear, 5 left ear (subject's sides). */
const NOSE = 2;
const MOUTH = 3;

/** One face as BlazeFace finds it, in image pixels. */
export interface BlazeFaceBox {
  /** The square crop the mesh model reads: the detector's box enlarged by `boxScale`, squared, whole pixels. */
  readonly start: Point;
  readonly end: Point;
  /** The enlarged box's width and height before squaring, rounded. */
  readonly size: readonly [number, number];
  /** The 6 key points in image pixels. */
  readonly keyPoints: readonly Point[];
  /** Sigmoid of the face logit, 0..1. */
  readonly score: number;
  /** The roll of the mouth-to-nose line, radians in [-π, π): 0 when the nose is straight above the mouth. */
  readonly roll: number;
}

export interface BlazeFaceOptions {
  /** Faces kept at most (NMS output size). */
  readonly maxFaces: number;
  /** Scores at or under this are dropped. */
  readonly minConfidence: number;
  /** NMS: a box overlapping a better one by this IoU or more is dropped. */
  readonly iouThreshold: number;
  /** The detector's box is enlarged by this factor (about its centre) before squaring. */
  readonly boxScale: number;
}

/** human's defaults for what face-detector.ts does not set (`iouThreshold` 0.1, `scale` 1.4). */
export const DEFAULT_BLAZEFACE_OPTIONS: BlazeFaceOptions = {
  maxFaces: 5,
  minConfidence: 0.3,
  iouThreshold: 0.1,
  boxScale: 1.4,
};

/**
 * BlazeFace (MediaPipe's short-range face detector, as `@vladmandic/human` ships it) on onnxruntime:
 * the TF.js graph converted in memory (graph-model-onnx.ts), the anchors, box decoding, NMS and the
 * crop box human's mesh pass reads, in plain TypeScript, so the results match human's own decoding
 * (`face/blazeface.ts`) without TF.js. One per worker.
 */
export class BlazeFaceDetector {
  readonly #input = new ScratchBuffer();

  private constructor(
    private readonly session: InferenceSession,
    private readonly model: ConvertedGraphModel,
    private readonly anchors: Float32Array,
    private readonly options: BlazeFaceOptions,
  ) {}

  /**
   * Converts the model shipped in `@vladmandic/human` and opens a session.
   *
   * @example
   * const detector = await BlazeFaceDetector.load({ ...DEFAULT_BLAZEFACE_OPTIONS, maxFaces: 1 });
   * const [face] = await detector.detect(image);
   */
  static async load(options: BlazeFaceOptions = DEFAULT_BLAZEFACE_OPTIONS): Promise<BlazeFaceDetector> {
    // Planar input (resizeToInput writes it so), which spares the graph its input transpose.
    const model = graphModelToOnnx(
      join(packageDir('@vladmandic/human'), 'models', 'blazeface.json'),
      [1, 3, INPUT_SIZE, INPUT_SIZE],
      { inputLayout: 'nchw' },
    );
    return new BlazeFaceDetector(await openCpuSession(model.bytes), model, blazeFaceAnchors(INPUT_SIZE), options);
  }

  /** The faces in an image, best score first. */
  async detect(image: RgbImage): Promise<BlazeFaceBox[]> {
    const pixels = this.#input.take(3 * INPUT_SIZE * INPUT_SIZE);
    resizeToInput(image, INPUT_SIZE, pixels);
    const input = new Tensor('float32', pixels, [1, 3, INPUT_SIZE, INPUT_SIZE]);
    const outputs = await this.session.run({ [this.model.input]: input });
    try {
      const raw = joinOutputs(
        this.model.outputs.map((name) => outputs[name]?.data),
        this.anchors.length / 2,
      );
      return decodeBlazeFace(raw, this.anchors, image, this.options);
    } finally {
      for (const tensor of Object.values(outputs)) tensor.dispose();
      input.dispose();
      this.#input.give(pixels);
    }
  }
}

/**
 * BlazeFace's outputs as one row of 17 per anchor. human's model has four: the logits and the 16
 * regressors of the stride-16 layer (512 anchors) and of the stride-32 layer (384), told apart by size;
 * a single [anchors, 17] output is taken as it is.
 */
function joinOutputs(outputs: readonly unknown[], count: number): Float32Array {
  const bySize = new Map<number, Float32Array>();
  for (const data of outputs) if (data instanceof Float32Array) bySize.set(data.length, data);
  const whole = bySize.get(count * ANCHOR_VALUES);
  if (whole) return whole;
  const raw = new Float32Array(count * ANCHOR_VALUES);
  let row = 0;
  for (const anchors of [512, 384]) {
    const logits = bySize.get(anchors);
    const regressors = bySize.get(anchors * (ANCHOR_VALUES - 1));
    if (!logits || !regressors) throw new Error(`the BlazeFace graph returned no outputs for ${anchors} anchors`);
    for (let i = 0; i < anchors; i++, row++) {
      raw[row * ANCHOR_VALUES] = logits[i] ?? 0;
      for (let k = 1; k < ANCHOR_VALUES; k++)
        raw[row * ANCHOR_VALUES + k] = regressors[i * (ANCHOR_VALUES - 1) + k - 1] ?? 0;
    }
  }
  if (row !== count) throw new Error(`the BlazeFace graph has ${row} anchors, not ${count}`);
  return raw;
}

/**
 * BlazeFace's anchor centres, in input pixels, as [x0, y0, x1, y1, ...]: a 16×16 grid of stride 16
 * with 2 anchors per cell, then an 8×8 grid of stride 32 with 6 per cell (896 for the 256 model).
 *
 * @example
 * blazeFaceAnchors(256).length / 2; // 896
 * blazeFaceAnchors(256).slice(0, 2); // [8, 8]
 */
export function blazeFaceAnchors(inputSize: number): Float32Array {
  const layers = [
    { stride: inputSize / 16, perCell: 2 },
    { stride: inputSize / 8, perCell: 6 },
  ];
  const anchors: number[] = [];
  for (const { stride, perCell } of layers) {
    const cells = Math.ceil(inputSize / stride);
    for (let row = 0; row < cells; row++) {
      for (let col = 0; col < cells; col++) {
        for (let n = 0; n < perCell; n++) anchors.push(stride * (col + 0.5), stride * (row + 0.5));
      }
    }
  }
  return Float32Array.from(anchors);
}

/**
 * The image as BlazeFace reads it: stretched to `size`×`size` by TF.js's `resizeBilinear` (no corner
 * alignment, no half-pixel centres: source = target × in/out), values mapped to -1..1, written planar
 * into `out` (red, green, blue planes: the graph's NCHW input; every value is written).
 */
function resizeToInput(image: RgbImage, size: number, out: Float32Array): void {
  const { data, width, height } = image;
  const sx = width / size;
  const sy = height / size;
  // The grid is separable: per output column, the two source offsets and the weight, computed once.
  const left = new Int32Array(size);
  const right = new Int32Array(size);
  const weights = new Float64Array(size);
  for (let u = 0; u < size; u++) {
    const x = u * sx;
    const x0 = Math.floor(x);
    left[u] = x0 * 3;
    right[u] = Math.min(x0 + 1, width - 1) * 3;
    weights[u] = x - x0;
  }
  // Offsets stay inside the image, so every read is in bounds (`?? 0` never fires).
  const plane = size * size;
  let o = 0;
  for (let v = 0; v < size; v++) {
    const y = v * sy;
    const y0 = Math.floor(y);
    const row0 = y0 * width * 3;
    const row1 = Math.min(y0 + 1, height - 1) * width * 3;
    const fy = y - y0;
    for (let u = 0; u < size; u++) {
      const l = left[u] ?? 0;
      const r = right[u] ?? 0;
      const fx = weights[u] ?? 0;
      for (let c = 0; c < 3; c++) {
        const p00 = data[row0 + l + c] ?? 0;
        const p01 = data[row0 + r + c] ?? 0;
        const p10 = data[row1 + l + c] ?? 0;
        const p11 = data[row1 + r + c] ?? 0;
        const top = p00 + (p01 - p00) * fx;
        const bottom = p10 + (p11 - p10) * fx;
        out[c * plane + o] = (top + (bottom - top) * fy) / 127.5 - 1;
      }
      o++;
    }
  }
}

/**
 * Raw BlazeFace output (one row of 17 per anchor) to faces: box centre = offset + anchor, logit →
 * sigmoid, greedy NMS in input pixels, then the box scaled to the image, enlarged by `boxScale` and
 * squared (whole pixels), key points = offset + anchor, and the roll of the mouth-to-nose line.
 *
 * @example
 * const faces = decodeBlazeFace(output, blazeFaceAnchors(256), image, DEFAULT_BLAZEFACE_OPTIONS);
 */
export function decodeBlazeFace(
  raw: Float32Array,
  anchors: Float32Array,
  image: { readonly width: number; readonly height: number },
  options: BlazeFaceOptions,
): BlazeFaceBox[] {
  const count = anchors.length / 2;
  const boxes = new Float32Array(count * 4);
  const scores = new Float32Array(count);
  for (let i = 0; i < count; i++) {
    const row = i * ANCHOR_VALUES;
    const cx = (raw[row + 1] ?? 0) + (anchors[i * 2] ?? 0);
    const cy = (raw[row + 2] ?? 0) + (anchors[i * 2 + 1] ?? 0);
    const halfW = (raw[row + 3] ?? 0) / 2;
    const halfH = (raw[row + 4] ?? 0) / 2;
    boxes[i * 4] = cx - halfW;
    boxes[i * 4 + 1] = cy - halfH;
    boxes[i * 4 + 2] = cx + halfW;
    boxes[i * 4 + 3] = cy + halfH;
    scores[i] = 1 / (1 + Math.exp(-(raw[row] ?? 0)));
  }
  const fx = image.width / INPUT_SIZE;
  const fy = image.height / INPUT_SIZE;
  const faces: BlazeFaceBox[] = [];
  for (const i of nonMaxSuppression(boxes, scores, options)) {
    const ax = anchors[i * 2] ?? 0;
    const ay = anchors[i * 2 + 1] ?? 0;
    const keyPoints: Point[] = [];
    for (let k = 0; k < KEY_POINTS; k++) {
      const at = i * ANCHOR_VALUES + 5 + k * 2;
      keyPoints.push([((raw[at] ?? 0) + ax) * fx, ((raw[at + 1] ?? 0) + ay) * fy]);
    }
    const x1 = (boxes[i * 4] ?? 0) * fx;
    const y1 = (boxes[i * 4 + 1] ?? 0) * fy;
    const x2 = (boxes[i * 4 + 2] ?? 0) * fx;
    const y2 = (boxes[i * 4 + 3] ?? 0) * fy;
    const cx = (x1 + x2) / 2;
    const cy = (y1 + y2) / 2;
    const width = Math.abs(x2 - x1) * options.boxScale;
    const height = Math.abs(y2 - y1) * options.boxScale;
    const half = Math.max(width, height) / 2;
    const size = [Math.round(width), Math.round(height)] as const;
    if (!(size[0] > 0 && size[1] > 0)) continue;
    const mouth = keyPoints[MOUTH] ?? [0, 0];
    const nose = keyPoints[NOSE] ?? [0, 0];
    faces.push({
      start: [Math.round(cx - half), Math.round(cy - half)],
      end: [Math.round(cx + half), Math.round(cy + half)],
      size,
      keyPoints,
      score: scores[i] ?? 0,
      roll: normalizeRadians(Math.PI / 2 - Math.atan2(mouth[1] - nose[1], nose[0] - mouth[0])),
    });
  }
  return faces;
}

/**
 * Greedy non-maximum suppression as TF.js's `nonMaxSuppression`: candidates scoring over
 * `minConfidence`, best first; one is dropped when its IoU with a kept box reaches `iouThreshold`.
 * Boxes are [x1, y1, x2, y2] per index.
 *
 * @example
 * nonMaxSuppression(boxes, scores, { maxFaces: 5, minConfidence: 0.3, iouThreshold: 0.1 }); // [412, 87]
 */
export function nonMaxSuppression(
  boxes: Float32Array,
  scores: Float32Array,
  options: Pick<BlazeFaceOptions, 'maxFaces' | 'minConfidence' | 'iouThreshold'>,
): number[] {
  const candidates: number[] = [];
  for (let i = 0; i < scores.length; i++) if ((scores[i] ?? 0) > options.minConfidence) candidates.push(i);
  candidates.sort((p, q) => (scores[q] ?? 0) - (scores[p] ?? 0) || p - q);
  const kept: number[] = [];
  for (const i of candidates) {
    if (kept.length >= options.maxFaces) break;
    if (kept.every((j) => intersectionOverUnion(boxes, i, j) < options.iouThreshold)) kept.push(i);
  }
  return kept;
}

function intersectionOverUnion(boxes: Float32Array, i: number, j: number): number {
  const [ax1, ay1, ax2, ay2] = corners(boxes, i);
  const [bx1, by1, bx2, by2] = corners(boxes, j);
  const areaA = (ax2 - ax1) * (ay2 - ay1);
  const areaB = (bx2 - bx1) * (by2 - by1);
  if (areaA <= 0 || areaB <= 0) return 0;
  const w = Math.max(Math.min(ax2, bx2) - Math.max(ax1, bx1), 0);
  const h = Math.max(Math.min(ay2, by2) - Math.max(ay1, by1), 0);
  const overlap = w * h;
  return overlap / (areaA + areaB - overlap);
}

/** A box's corners ordered min then max (the network may give a negative size). */
function corners(boxes: Float32Array, i: number): [number, number, number, number] {
  const x1 = boxes[i * 4] ?? 0;
  const y1 = boxes[i * 4 + 1] ?? 0;
  const x2 = boxes[i * 4 + 2] ?? 0;
  const y2 = boxes[i * 4 + 3] ?? 0;
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

/** An angle wrapped into [-π, π). */
function normalizeRadians(angle: number): number {
  return angle - 2 * Math.PI * Math.floor((angle + Math.PI) / (2 * Math.PI));
}
