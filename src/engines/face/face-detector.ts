import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Config, Human as HumanType } from '@vladmandic/human';
import type { Tensor3D } from '@tensorflow/tfjs-core';
import { packageDir, requirePackageFile } from '../../lib/package-files.js';
import type { RgbImage } from './raster.js';
import { startTfjs } from './runtime/tfjs-runtime.js';

/** One face found by the detector, in pixel coordinates of the image it was given. */
export interface DetectedFace {
  /** [x, y, width, height] */
  readonly box: readonly [number, number, number, number];
  /** Overall confidence 0..1 (detector and mesh). */
  readonly score: number;
  /** 468 face-mesh points plus 10 iris points (when iris is on), each [x, y, z]. */
  readonly mesh: readonly (readonly [number, number, number])[];
  /** Head pose in radians (yaw > 0: face turned to the image's left; pitch > 0: looking down). */
  readonly pose: { readonly yaw: number; readonly pitch: number; readonly roll: number };
  /** The `faceres` 1024-d description, when asked for. */
  readonly description: Float32Array | undefined;
}

export interface FaceDetectorOptions {
  /** Faces kept at most, largest confidence first. */
  readonly maxFaces: number;
  /** Detector confidence below which a face is dropped. */
  readonly minConfidence: number;
  /** Also run the iris model (10 more points: sharper eye centres). */
  readonly iris: boolean;
  /** Load the `faceres` description model (1024-d embedding, age, gender), computed when a call asks. */
  readonly description: boolean;
}

interface HumanModule {
  Human: new (config: Partial<Config>) => HumanType;
}

/**
 * Face detection and landmarks: `@vladmandic/human`'s BlazeFace detector and 468-point FaceMesh (the
 * detector that almost never misses a face and gives pose angles), run on TF.js WASM with the model
 * files shipped inside the npm package.
 */
export class FaceDetector {
  private constructor(
    private readonly human: HumanType,
    private readonly options: FaceDetectorOptions,
  ) {}

  /**
   * Loads the models (once per worker).
   *
   * @example
   * const detector = await FaceDetector.load({ maxFaces: 5, minConfidence: 0.3, iris: true, description: false });
   * const faces = await detector.detect(tf.tensor3d(rgb, [height, width, 3], 'int32'));
   */
  static async load(options: FaceDetectorOptions): Promise<FaceDetector> {
    await startTfjs();
    const { Human } = requirePackageFile<HumanModule>('@vladmandic/human', 'dist/human.node-wasm.js');
    const human = new Human({
      backend: 'wasm',
      wasmPath: `${join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')}/`,
      modelBasePath: `${pathToFileURL(join(packageDir('@vladmandic/human'), 'models')).href}/`,
      warmup: 'none',
      debug: false,
      // Results are never reused between calls: every request is a new image.
      cacheSensitivity: 0,
      filter: { enabled: false },
      face: {
        enabled: true,
        detector: {
          rotation: true,
          maxDetected: options.maxFaces,
          minConfidence: options.minConfidence,
          return: false,
        },
        mesh: { enabled: true },
        iris: { enabled: options.iris },
        description: { enabled: options.description },
        emotion: { enabled: false },
        antispoof: { enabled: false },
        liveness: { enabled: false },
        attention: { enabled: false },
        gear: { enabled: false },
      },
      body: { enabled: false },
      hand: { enabled: false },
      object: { enabled: false },
      gesture: { enabled: false },
      segmentation: { enabled: false },
    });
    await human.load();
    return new FaceDetector(human, options);
  }

  /**
   * Detects faces in an RGB image tensor [height, width, 3]; the caller keeps ownership of the tensor.
   * `description` runs `faceres` for this call (only if it was loaded): it costs about twice the
   * detection itself, so callers ask for it only when they use it.
   */
  async detect(image: Tensor3D, description = false): Promise<DetectedFace[]> {
    const wanted = description && this.options.description;
    const result = await this.human.detect(image, { face: { description: { enabled: wanted } } });
    if (result.error) throw new Error(`face detection failed: ${result.error}`);
    return result.face
      .filter((face) => face.mesh.length >= 468)
      .slice(0, this.options.maxFaces)
      .map((face) => ({
        box: [face.box[0], face.box[1], face.box[2], face.box[3]],
        score: face.score,
        mesh: face.mesh.map((p) => [p[0], p[1], p[2] ?? 0] as const),
        pose: {
          yaw: face.rotation?.angle.yaw ?? 0,
          pitch: face.rotation?.angle.pitch ?? 0,
          roll: face.rotation?.angle.roll ?? 0,
        },
        description: wanted && face.embedding ? Float32Array.from(face.embedding) : undefined,
      }));
  }
}

/** Faces found in an RGB image, with human's `faceres` description when `description` is asked and loaded. */
export type DetectFaces = (image: RgbImage, description: boolean) => Promise<DetectedFace[]>;

/**
 * Starts TF.js and loads the detector, as a function of an RGB image (the tensor made and freed per call): what
 * the face pipeline runs for the `tfjs` detector. This module brings TF.js and human with it, so the pipeline
 * imports it only then (face-pipeline.ts).
 *
 * @example
 * const detect = await loadTfjsFaceDetection({ maxFaces: 5, minConfidence: 0.3, iris: false, description: false });
 * const faces = await detect(await decodeImage(jpegBytes), false);
 */
export async function loadTfjsFaceDetection(options: FaceDetectorOptions): Promise<DetectFaces> {
  const tf = await startTfjs();
  const detector = await FaceDetector.load(options);
  return async (image, description) => {
    const input = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
    try {
      return await detector.detect(input, description);
    } finally {
      input.dispose();
    }
  };
}
