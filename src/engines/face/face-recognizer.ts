import { join } from 'node:path';
import type { FaceRecognitionNet } from '@vladmandic/face-api';
import { unstack, type Tensor2D, type Tensor4D } from '@tensorflow/tfjs-core';
import { unitVector } from '../../lib/vectors.js';
import { packageDir, requirePackageFile, startTfjs } from './tfjs-runtime.js';

interface FaceApiModule {
  FaceRecognitionNet: new () => FaceRecognitionNet;
}

/** Side of the square crop the recognition net reads. */
export const RECOGNIZER_INPUT_SIZE = 150;
/** Length of the embedding it returns. */
export const RECOGNIZER_DIMENSIONS = 128;

/**
 * Face embeddings: `@vladmandic/face-api`'s faceRecognitionNet (a ResNet-34 trained as dlib's face
 * descriptor), the most accurate recogniser measured among the npm-shipped models. It reads aligned
 * 150×150 RGB crops and returns 128-d vectors.
 */
export class FaceRecognizer {
  private constructor(private readonly net: FaceRecognitionNet) {}

  /**
   * Loads the weights shipped in the package (once per worker).
   *
   * @example
   * const recognizer = await FaceRecognizer.load();
   * const [embedding] = await recognizer.embed(crops); // crops: [n, 150, 150, 3], 0..255
   */
  static async load(): Promise<FaceRecognizer> {
    await startTfjs();
    const faceapi = requirePackageFile<FaceApiModule>('@vladmandic/face-api', 'dist/face-api.node-wasm.js');
    const net = new faceapi.FaceRecognitionNet();
    await net.loadFromDisk(join(packageDir('@vladmandic/face-api'), 'model'));
    return new FaceRecognizer(net);
  }

  /** Embeds a batch of crops [n, 150, 150, 3] (values 0..255); returns one unit-length vector per crop. */
  async embed(crops: Tensor4D): Promise<Float32Array[]> {
    // face-api takes a batch as an array of 3-D tensors, and is typed against its own bundled copy of
    // the TF.js types; the runtime tensors are the same.
    const images = unstack(crops);
    let output: Tensor2D;
    try {
      output = (await this.net.forward(images as never)) as unknown as Tensor2D;
    } finally {
      for (const image of images) image.dispose();
    }
    try {
      const flat = await output.data();
      const count = crops.shape[0];
      return Array.from({ length: count }, (_, i) => unitVector(flat.subarray(i * RECOGNIZER_DIMENSIONS, (i + 1) * RECOGNIZER_DIMENSIONS)));
    } finally {
      output.dispose();
    }
  }
}
