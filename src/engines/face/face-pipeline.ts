import { unitVector } from '../../lib/vectors.js';
import {
  cropTransform,
  keyPoints,
  meanShapeTransform,
  type CropGeometry,
  type CropTransform,
  type FaceKeyPoints,
} from './face-alignment.js';
// Types only: face-detector.ts brings TF.js and human, loaded by importTfjsDetector only for the `tfjs` detector.
import type * as TfjsDetectorModule from './face-detector.js';
import type { DetectedFace, DetectFaces } from './face-detector.js';
import { DEFAULT_FACE_DETECTOR, type FaceDetectorKind } from './face-detector-kind.js';
import { FaceMeshRefiner } from './face-mesh-refiner.js';
import { OnnxFaceDetector } from './onnx-face-detector.js';
import { isSubjectContender } from './face-selection.js';
import { FaceRecognizer, RECOGNIZER_INPUT_SIZE } from './face-recognizer.js';
import type { RgbImage } from './raster.js';

/**
 * One aligned crop the recognition net reads: `zoom` scales the face in the crop (1 = the standard
 * framing, 1.05 = 5% larger), `mirrored` flips it left-right. Averaging the embeddings of a few views
 * (test-time augmentation) evens out alignment noise.
 */
export interface CropView {
  readonly zoom: number;
  readonly mirrored: boolean;
}

/** The plain standard crop. */
export const PLAIN_VIEW: CropView = { zoom: 1, mirrored: false };

/** What the pipeline computes for each face, beyond detection and landmarks. */
export interface EmbeddingOptions {
  /** Crops to embed with faceRecognitionNet (128-d each); none: no recognition. */
  readonly views: readonly CropView[];
  /** human's 1024-d `faceres` description. */
  readonly description: boolean;
}

export interface FacePipelineConfig {
  readonly maxFaces: number;
  readonly minConfidence: number;
  readonly iris: boolean;
  /** Whether to load `faceres` (needed by any algorithm or caller that asks for `description`). */
  readonly description: boolean;
  /** How the recognition crop is cut from the mesh. */
  readonly alignment: RecognitionAlignment;
  /**
   * Fit the recognition crop to a second, sub-pixel FaceMesh pass (face-mesh-refiner.ts) instead of
   * human's whole-pixel mesh: F500's FNMR at FMR 10^-3 5.4% -> 4.9% on the dev set, ~5 ms per
   * embedded face. Liveness and analysis still read the detector's mesh.
   */
  readonly refineMesh: boolean;
  /** Which detector finds faces and their meshes (face-detector.ts or onnx-face-detector.ts). */
  readonly detector: FaceDetectorKind;
}

/**
 * How the 150×150 crop the recognition net reads is fitted to the face:
 * - `mean-shape` (the default): dlib's face chip, a least-squares fit of 33 mesh points (nose, eyes,
 *   upper lip) to dlib's mean face with `padding` around it, as dlib cut the chips the net was trained
 *   on; roll beyond `levelAboveDegrees` is levelled (0: always).
 * - `eyes-mouth`: the earlier framing from the eye and mouth centres alone (face-alignment.ts).
 * Measured in reports/face-eval.md: the mean-shape fit, always levelled, took F500's EER from 1.36%
 * to 1.14% and FNMR at FMR 10^-3 from 6.7% to 5.4%.
 */
export type RecognitionAlignment =
  | { readonly method: 'mean-shape'; readonly padding: number; readonly levelAboveDegrees: number }
  | { readonly method: 'eyes-mouth'; readonly geometry: CropGeometry };

export const DEFAULT_ALIGNMENT: RecognitionAlignment = { method: 'mean-shape', padding: 0.25, levelAboveDegrees: 0 };

export const DEFAULT_PIPELINE_CONFIG: FacePipelineConfig = {
  maxFaces: 5,
  minConfidence: 0.3,
  iris: false,
  // faceres is not used by F200/F500 (measured: it does not help, reports/face-eval.md); loading it
  // costs memory per worker.
  description: false,
  alignment: DEFAULT_ALIGNMENT,
  refineMesh: true,
  // `onnx`: the same faces and meshes as TF.js's, without TF.js (docs/face-engine.md#detection-on-onnxruntime).
  detector: DEFAULT_FACE_DETECTOR,
};

/** One face with its measurements, in the decoded image's pixel coordinates. */
export interface FaceObservation {
  readonly box: readonly [number, number, number, number];
  readonly score: number;
  readonly pose: DetectedFace['pose'];
  readonly keyPoints: FaceKeyPoints;
  readonly mesh: DetectedFace['mesh'];
  /**
   * Unit embedding of each requested view, in the order asked; empty for background faces, too small to
   * contend for subject (face-selection.ts).
   */
  readonly recognitionViews: readonly Float32Array[];
  /** Unit vector. */
  readonly description: Float32Array | undefined;
}

/** Milliseconds spent per stage of one `analyze` call (single thread). */
export interface StageTimings {
  readonly detectMs: number;
  readonly embedMs: number;
}

export interface ImageAnalysis {
  readonly faces: FaceObservation[];
  readonly timings: StageTimings;
}

/**
 * Detect → landmarks → align → embed, for every face of an image. Holds the loaded models; one per
 * worker thread.
 *
 * @example
 * const pipeline = await FacePipeline.load();
 * const { faces } = await pipeline.analyze(await decodeImage(bytes), { views: [PLAIN_VIEW], description: false });
 */
export class FacePipeline {
  private constructor(
    private readonly detectFaces: DetectFaces,
    private readonly recognizer: FaceRecognizer,
    private readonly refiner: FaceMeshRefiner | undefined,
    readonly config: FacePipelineConfig,
  ) {}

  static async load(config: FacePipelineConfig = DEFAULT_PIPELINE_CONFIG): Promise<FacePipeline> {
    const detectorOptions = {
      maxFaces: config.maxFaces,
      minConfidence: config.minConfidence,
      iris: config.iris,
      description: config.description,
    };
    if (config.detector === 'onnx') {
      const [detector, recognizer] = await Promise.all([OnnxFaceDetector.load(detectorOptions), FaceRecognizer.load()]);
      // The refiner shares the detector's FaceMesh session.
      const refiner = config.refineMesh ? await FaceMeshRefiner.load(undefined, detector.mesh) : undefined;
      return new FacePipeline((image) => detector.detect(image), recognizer, refiner, config);
    }
    const { loadTfjsFaceDetection } = await importTfjsDetector();
    const [detect, recognizer, refiner] = await Promise.all([
      loadTfjsFaceDetection(detectorOptions),
      FaceRecognizer.load(),
      config.refineMesh ? FaceMeshRefiner.load() : undefined,
    ]);
    return new FacePipeline(detect, recognizer, refiner, config);
  }

  async analyze(image: RgbImage, options: EmbeddingOptions): Promise<ImageAnalysis> {
    const started = performance.now();
    const detected = await this.detectFaces(image, options.description);
    const detectedAt = performance.now();
    const observations: FaceObservation[] = [];
    // Faces too small to contend for subject are background, never the subject (face-selection.ts), so
    // they are not embedded (each view costs ~10 ms).
    const largest = Math.max(0, ...detected.map((f) => f.box[2]));
    for (const face of detected) {
      const points = keyPoints(face.mesh);
      let recognitionViews: Float32Array[] = [];
      if (options.views.length > 0 && isSubjectContender(face, largest)) {
        const mesh = (await this.refiner?.refine(image, face)) ?? face.mesh;
        const meshPoints = mesh === face.mesh ? points : keyPoints(mesh);
        recognitionViews = await this.recognizer.embedViews(
          image,
          options.views.map((view) => ({
            transform: recognitionTransform(mesh, meshPoints, this.config.alignment, view.zoom),
            mirrored: view.mirrored,
          })),
        );
      }
      observations.push({
        box: face.box,
        score: face.score,
        pose: face.pose,
        keyPoints: points,
        mesh: face.mesh,
        recognitionViews,
        description: options.description && face.description ? unitVector(face.description) : undefined,
      });
    }
    return {
      faces: observations,
      timings: { detectMs: detectedAt - started, embedMs: performance.now() - detectedAt },
    };
  }
}

/**
 * face-detector.ts, imported only when the `tfjs` detector is asked for, so that a worker with the onnx detector
 * never loads TF.js or human (test/unit/engines/face/detector-module-loading.test.ts). Source runs under tsx load
 * a piscina worker as CommonJS, and Node 20 applies no ESM loader hooks in worker threads, so `import()` cannot
 * find the `.ts` file there: `require` (defined only in such a CommonJS module) loads it instead.
 */
async function importTfjsDetector(): Promise<typeof TfjsDetectorModule> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (typeof require === 'function') return require('./face-detector.js') as typeof TfjsDetectorModule;
  return import('./face-detector.js');
}

/** The crop transform of one view: `zoom` > 1 shows the face that much larger. */
function recognitionTransform(
  mesh: FaceObservation['mesh'],
  points: FaceKeyPoints,
  alignment: RecognitionAlignment,
  zoom: number,
): CropTransform {
  if (alignment.method === 'eyes-mouth') {
    return cropTransform(points, RECOGNIZER_INPUT_SIZE, {
      ...alignment.geometry,
      eyeToMouth: alignment.geometry.eyeToMouth * zoom,
    });
  }
  // The mean face spans 1/(1 + 2·padding) of the crop; zooming scales that share.
  const padding = ((1 + 2 * alignment.padding) / zoom - 1) / 2;
  return meanShapeTransform(mesh, RECOGNIZER_INPUT_SIZE, { padding, levelAboveDegrees: alignment.levelAboveDegrees });
}
