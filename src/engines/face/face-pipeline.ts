import type * as tfTypes from '@tensorflow/tfjs-core';
import { unitVector } from '../../lib/vectors.js';
import { cropTransform, DEFAULT_CROP_GEOMETRY, keyPoints, sampleCrop, type CropGeometry, type CropTransform, type FaceKeyPoints } from './face-alignment.js';
import { FaceDetector, type DetectedFace } from './face-detector.js';
import { DEFAULT_SUBJECT_RULES } from './face-selection.js';
import { FaceRecognizer, RECOGNIZER_INPUT_SIZE } from './face-recognizer.js';
import type { RgbImage } from './raster.js';
import { startTfjs } from './tfjs-runtime.js';

/**
 * One aligned crop the recognition net reads: `zoom` scales the face in the crop (1 = the standard
 * framing, 1.05 = 5% larger), `mirrored` flips it left-right. Averaging the embeddings of a few views
 * (test-time augmentation) evens out alignment noise.
 */
export interface CropView {
  readonly zoom: number;
  readonly mirrored: boolean;
  /** Degrees the crop is turned about the eye midpoint (positive: the face turns clockwise in the crop). */
  readonly rotation?: number;
  /** Crop pixels the face moves by, [right, down]. */
  readonly shift?: readonly [number, number];
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
  readonly geometry: CropGeometry;
}

export const DEFAULT_PIPELINE_CONFIG: FacePipelineConfig = {
  maxFaces: 5,
  minConfidence: 0.3,
  iris: false,
  // faceres is not used by F200/F500 (measured: it does not help, reports/face-eval.md); loading it costs memory per worker.
  description: false,
  geometry: DEFAULT_CROP_GEOMETRY,
};

/** One face with its measurements, in the decoded image's pixel coordinates. */
export interface FaceObservation {
  readonly box: readonly [number, number, number, number];
  readonly score: number;
  readonly pose: DetectedFace['pose'];
  readonly keyPoints: FaceKeyPoints;
  readonly mesh: DetectedFace['mesh'];
  /** Unit embedding of each requested view, in the order asked; empty for background faces under half the largest's width. */
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
    private readonly tf: typeof tfTypes,
    private readonly detector: FaceDetector,
    private readonly recognizer: FaceRecognizer,
    readonly config: FacePipelineConfig,
  ) {}

  static async load(config: FacePipelineConfig = DEFAULT_PIPELINE_CONFIG): Promise<FacePipeline> {
    const tf = await startTfjs();
    const [detector, recognizer] = await Promise.all([
      FaceDetector.load({ maxFaces: config.maxFaces, minConfidence: config.minConfidence, iris: config.iris, description: config.description }),
      FaceRecognizer.load(),
    ]);
    return new FacePipeline(tf, detector, recognizer, config);
  }

  async analyze(image: RgbImage, options: EmbeddingOptions): Promise<ImageAnalysis> {
    const tf = this.tf;
    const started = performance.now();
    const input = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
    let detected: DetectedFace[];
    try {
      detected = await this.detector.detect(input, options.description);
    } finally {
      input.dispose();
    }
    const detectedAt = performance.now();
    const observations: FaceObservation[] = [];
    // Faces under half the width of the largest are background: never the subject (face-selection.ts),
    // so they are not embedded (each view costs ~9 ms).
    const largest = Math.max(0, ...detected.map((f) => f.box[2]));
    const subjectWidth = DEFAULT_SUBJECT_RULES.competingFaceRatio * largest;
    for (const face of detected) {
      const points = keyPoints(face.mesh);
      let recognitionViews: Float32Array[] = [];
      if (options.views.length > 0 && face.box[2] >= subjectWidth) {
        const crops = options.views.map((view) => {
          const geometry = { ...this.config.geometry, eyeToMouth: this.config.geometry.eyeToMouth * view.zoom };
          return sampleCrop(image, viewTransform(cropTransform(points, RECOGNIZER_INPUT_SIZE, geometry), geometry, view), view.mirrored);
        });
        recognitionViews = await this.recognizer.embed(crops);
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
    return { faces: observations, timings: { detectMs: detectedAt - started, embedMs: performance.now() - detectedAt } };
  }
}

/** The crop transform moved as the view asks: the crop pixel (u, v) reads where (u', v') read before. */
function viewTransform(t: CropTransform, geometry: CropGeometry, view: CropView): CropTransform {
  const degrees = view.rotation ?? 0;
  const [du, dv] = view.shift ?? [0, 0];
  if (degrees === 0 && du === 0 && dv === 0) return t;
  const theta = (degrees * Math.PI) / 180;
  const cos = Math.cos(theta);
  const sin = Math.sin(theta);
  const u0 = 0.5 * t.size;
  const v0 = geometry.eyeY * t.size;
  // (u', v') = R·((u, v) − c) + c − shift, and image = T(u', v').
  const a = t.a * cos - t.b * sin;
  const b = t.b * cos + t.a * sin;
  const cu = u0 - (cos * u0 - sin * v0) - du;
  const cv = v0 - (sin * u0 + cos * v0) - dv;
  return { size: t.size, a, b, tx: t.a * cu - t.b * cv + t.tx, ty: t.b * cu + t.a * cv + t.ty };
}
