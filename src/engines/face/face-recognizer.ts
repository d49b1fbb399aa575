import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { unitVector } from '../../lib/vectors.js';
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
    if (crops.length === 0) return [];
    const side = RECOGNIZER_INPUT_SIZE;
    const plane = side * side;
    const planar = new Float32Array(crops.length * CROP_VALUES);
    crops.forEach((crop, n) => {
      if (crop.length !== CROP_VALUES) throw new RangeError(`a crop has ${CROP_VALUES} values (got ${crop.length})`);
      const base = n * CROP_VALUES;
      for (let p = 0; p < plane; p++) {
        // In bounds: the length was checked above.
        planar[base + p] = crop[p * 3] ?? 0;
        planar[base + plane + p] = crop[p * 3 + 1] ?? 0;
        planar[base + 2 * plane + p] = crop[p * 3 + 2] ?? 0;
      }
    });
    const input = new Tensor('float32', planar, [crops.length, 3, side, side]);
    const outputs = await this.session.run({ [RECOGNITION_INPUT]: input });
    const output = outputs[RECOGNITION_OUTPUT];
    try {
      if (output === undefined || !(output.data instanceof Float32Array))
        throw new Error('the recognition graph returned no float embeddings');
      const flat = output.data;
      return crops.map((_, i) => unitVector(flat.subarray(i * RECOGNIZER_DIMENSIONS, (i + 1) * RECOGNIZER_DIMENSIONS)));
    } finally {
      for (const tensor of Object.values(outputs)) tensor.dispose();
      input.dispose();
    }
  }
}
