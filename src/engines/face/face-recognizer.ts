import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { unitVector } from '../../lib/vectors.js';
import { sampleRegionInto, type CropTransform } from './face-alignment.js';
import type { RgbImage } from './raster.js';
import { ScratchBuffer } from './scratch-buffer.js';
import { openCpuSession } from './runtime/onnx-session.js';
import {
  faceRecognitionModel,
  RECOGNITION_DIMENSIONS,
  RECOGNITION_INPUT,
  RECOGNITION_INPUT_SIZE,
  RECOGNITION_OUTPUT,
} from './face-recognition-graph.js';

/** Side of the square crop the recognition net reads. */
export const RECOGNIZER_INPUT_SIZE = RECOGNITION_INPUT_SIZE;
/** Length of the embedding it returns. */
export const RECOGNIZER_DIMENSIONS = RECOGNITION_DIMENSIONS;

const CROP_VALUES = RECOGNIZER_INPUT_SIZE * RECOGNIZER_INPUT_SIZE * 3;

/**
 * Face embeddings: `@vladmandic/face-api`'s faceRecognitionNet (a ResNet-34 trained as dlib's face
 * descriptor), the most accurate recogniser measured among the npm-shipped models. It reads aligned
 * 150×150 RGB crops and returns 128-d vectors. The net runs on onnxruntime's native CPU kernels,
 * one thread (the worker pool gives the parallelism), as a graph built from face-api's weights
 * (face-recognition-graph.ts).
 */
export class FaceRecognizer {
  readonly #crop = new ScratchBuffer();
  readonly #batch = new ScratchBuffer();

  private constructor(private readonly session: InferenceSession) {}

  /**
   * Builds the graph from the weights shipped in the package and opens a session (once per worker).
   *
   * @example
   * const recognizer = await FaceRecognizer.load();
   * const [embedding] = await recognizer.embed([crop]); // crop: 150×150×3 interleaved RGB, 0..255
   */
  static async load(): Promise<FaceRecognizer> {
    return new FaceRecognizer(await openCpuSession(faceRecognitionModel()));
  }

  /** Embeds crops (each 150×150×3 interleaved RGB, values 0..255) in one batch; one unit-length vector per crop. */
  async embed(crops: readonly Float32Array[]): Promise<Float32Array[]> {
    const planar = new Float32Array(crops.length * CROP_VALUES);
    crops.forEach((crop, n) => toPlanar(crop, planar, n, false));
    return this.#run(planar, crops.length);
  }

  /**
   * Embeds views cut from an image (`sampleCrop` of each transform, mirrored when asked) in one batch;
   * one unit-length vector per view. A view and its mirror share one sampling: the mirrored crop is
   * the same samples in reverse column order, so it is written reversed (the same values as sampling
   * it mirrored).
   *
   * @example
   * const [plain, mirrored] = await recognizer.embedViews(image, [
   *   { transform, mirrored: false },
   *   { transform, mirrored: true },
   * ]);
   */
  async embedViews(image: RgbImage, views: readonly AlignedView[]): Promise<Float32Array[]> {
    for (const { transform } of views) {
      if (transform.size !== RECOGNIZER_INPUT_SIZE)
        throw new RangeError(`a recognition view is ${RECOGNIZER_INPUT_SIZE} pixels wide (got ${transform.size})`);
    }
    const planar = this.#batch.take(views.length * CROP_VALUES);
    const crop = this.#crop.take(CROP_VALUES);
    try {
      const done = new Set<number>();
      views.forEach(({ transform }, n) => {
        if (done.has(n)) return;
        // Every value of both buffers is written: the crop whole, each view's slot whole.
        sampleRegionInto(crop, image, transform, RECOGNIZER_INPUT_SIZE, RECOGNIZER_INPUT_SIZE);
        views.forEach((view, m) => {
          if (m < n || done.has(m) || !sameTransform(view.transform, transform)) return;
          toPlanar(crop, planar, m, view.mirrored);
          done.add(m);
        });
      });
      return await this.#run(planar, views.length);
    } finally {
      this.#crop.give(crop);
      this.#batch.give(planar);
    }
  }

  async #run(planar: Float32Array, count: number): Promise<Float32Array[]> {
    if (count === 0) return [];
    const side = RECOGNIZER_INPUT_SIZE;
    const input = new Tensor('float32', planar, [count, 3, side, side]);
    const outputs = await this.session.run({ [RECOGNITION_INPUT]: input });
    const output = outputs[RECOGNITION_OUTPUT];
    try {
      if (output === undefined || !(output.data instanceof Float32Array))
        throw new Error('the recognition graph returned no float embeddings');
      const flat = output.data;
      return Array.from({ length: count }, (_, i) =>
        unitVector(flat.subarray(i * RECOGNIZER_DIMENSIONS, (i + 1) * RECOGNIZER_DIMENSIONS)),
      );
    } finally {
      for (const tensor of Object.values(outputs)) tensor.dispose();
      input.dispose();
    }
  }
}

/** One crop for {@link FaceRecognizer.embedViews}: where it is cut (a 150-pixel crop) and whether it is mirrored. */
export interface AlignedView {
  readonly transform: CropTransform;
  readonly mirrored: boolean;
}

function sameTransform(p: CropTransform, q: CropTransform): boolean {
  return p.size === q.size && p.a === q.a && p.b === q.b && p.tx === q.tx && p.ty === q.ty;
}

/** An interleaved crop into slot `n` of the planar batch, its columns reversed when `mirrored`. */
function toPlanar(crop: Float32Array, planar: Float32Array, n: number, mirrored: boolean): void {
  if (crop.length !== CROP_VALUES) throw new RangeError(`a crop has ${CROP_VALUES} values (got ${crop.length})`);
  const side = RECOGNIZER_INPUT_SIZE;
  const plane = side * side;
  const red = n * CROP_VALUES;
  const green = red + plane;
  const blue = green + plane;
  // In bounds: the length was checked above.
  for (let v = 0; v < side; v++) {
    const row = v * side;
    for (let u = 0; u < side; u++) {
      const from = (row + (mirrored ? side - 1 - u : u)) * 3;
      planar[red + row + u] = crop[from] ?? 0;
      planar[green + row + u] = crop[from + 1] ?? 0;
      planar[blue + row + u] = crop[from + 2] ?? 0;
    }
  }
}
