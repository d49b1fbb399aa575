import { join } from 'node:path';
import { Tensor, type InferenceSession } from 'onnxruntime-node';
import { packageDir } from '../../lib/package-files.js';
import { sampleRegionInto, type CropTransform } from './face-alignment.js';
import { graphModelToOnnx, type ConvertedGraphModel } from './runtime/graph-model-onnx.js';
import { openCpuSession } from './runtime/onnx-session.js';
import type { RgbImage } from './raster.js';
import { ScratchBuffer } from './scratch-buffer.js';

/** Side of the square crop FaceMesh reads. */
export const MESH_INPUT_SIZE = 192;
export const MESH_POINTS = 468;

/** FaceMesh's answer for one crop. */
export interface MeshPrediction {
  /** 468 × [x, y, z] in crop pixels (continuous: pixel u spans u..u+1; z on the same scale). */
  readonly coords: Float32Array;
  /** FaceMesh's own face flag, ~1 on a face. */
  readonly faceFlag: number;
}

/**
 * human's 468-point FaceMesh on onnxruntime (the TF.js graph converted in memory, graph-model-onnx.ts),
 * reading a 192×192 crop cut from an image by a similarity transform. Shared by the mesh refiner and
 * the ONNX detector; one per worker.
 */
export class FaceMeshModel {
  readonly #crop = new ScratchBuffer();

  private constructor(
    private readonly session: InferenceSession,
    private readonly model: ConvertedGraphModel,
  ) {}

  /**
   * Converts the model shipped in `@vladmandic/human` and opens a session.
   *
   * @example
   * const model = await FaceMeshModel.load();
   * const { coords, faceFlag } = await model.predict(image, transform);
   */
  static async load(): Promise<FaceMeshModel> {
    const model = graphModelToOnnx(join(packageDir('@vladmandic/human'), 'models', 'facemesh.json'), [
      1,
      MESH_INPUT_SIZE,
      MESH_INPUT_SIZE,
      3,
    ]);
    return new FaceMeshModel(await openCpuSession(model.bytes), model);
  }

  /** Runs FaceMesh on the crop `transform` cuts from the image (bilinear, values 0..1). */
  async predict(image: RgbImage, transform: Omit<CropTransform, 'size'>): Promise<MeshPrediction> {
    const pixels = this.#crop.take(MESH_INPUT_SIZE * MESH_INPUT_SIZE * 3);
    try {
      sampleRegionInto(pixels, image, transform, MESH_INPUT_SIZE, MESH_INPUT_SIZE);
      for (let i = 0; i < pixels.length; i++) pixels[i] = (pixels[i] ?? 0) / 255;
      return await this.predictCrop(pixels);
    } finally {
      this.#crop.give(pixels);
    }
  }

  /**
   * Runs FaceMesh on a crop written by `write` into a buffer kept from call to call (192 × 192 × 3
   * values 0..1, row by row; the buffer holds the last crop's values, so `write` sets every value).
   */
  async predictInto(write: (pixels: Float32Array) => void): Promise<MeshPrediction> {
    const pixels = this.#crop.take(MESH_INPUT_SIZE * MESH_INPUT_SIZE * 3);
    try {
      write(pixels);
      return await this.predictCrop(pixels);
    } finally {
      this.#crop.give(pixels);
    }
  }

  /** Runs FaceMesh on a crop already cut: 192 × 192 × 3 values 0..1, row by row. */
  async predictCrop(pixels: Float32Array): Promise<MeshPrediction> {
    const input = new Tensor('float32', pixels, [1, MESH_INPUT_SIZE, MESH_INPUT_SIZE, 3]);
    const outputs = await this.session.run({ [this.model.input]: input });
    try {
      let coords: Float32Array | undefined;
      let faceFlag: number | undefined;
      for (const name of this.model.outputs) {
        const data = outputs[name]?.data;
        if (!(data instanceof Float32Array)) continue;
        if (data.length === MESH_POINTS * 3) coords = Float32Array.from(data);
        else if (data.length === 1) faceFlag = data[0];
      }
      if (!coords || faceFlag === undefined) throw new Error('the FaceMesh graph returned no mesh or face flag');
      return { coords, faceFlag };
    } finally {
      for (const tensor of Object.values(outputs)) tensor.dispose();
      input.dispose();
    }
  }
}
