/**
 * Piscina worker: holds one loaded face pipeline (models load once, at the first task) and runs one
 * image at a time on this thread, so the server's event loop never waits on a model.
 */
import { measureFaceQuality, type FaceQuality } from '../face-quality/face-quality.js';
import { faceFrameMeasures, frameMeasures, type FaceFrameMeasures } from '../liveness/frame-measures.js';
import { decodeImage, DEFAULT_DECODE_OPTIONS, ImageDecodeError } from './image-decoding.js';
import {
  DEFAULT_PIPELINE_CONFIG,
  FacePipeline,
  type EmbeddingOptions,
  type FaceObservation,
  type FacePipelineConfig,
  type StageTimings,
} from './face-pipeline.js';

export interface AnalyzeTask {
  /** Encoded image bytes (JPEG, PNG, ...). */
  readonly image: Uint8Array;
  readonly embeddings: EmbeddingOptions;
  /** Also measure every face for liveness (PAD features, thumbnails, quality), with the pixels at hand. */
  readonly liveness?: boolean;
  /** Also measure every face's quality metrics and eye centres (face-quality/), with the pixels at hand. */
  readonly quality?: boolean;
  readonly rotation?: 0 | 90 | 180 | 270;
}

/** A face with, when asked, its liveness measures and its quality metrics. */
export type AnalyzedFace = FaceObservation & { readonly liveness?: FaceFrameMeasures; readonly quality?: FaceQuality };

export interface WorkerAnalysis {
  readonly width: number;
  readonly height: number;
  readonly decodeMs: number;
  readonly faces: AnalyzedFace[];
  readonly timings: StageTimings;
  /** 16×16 luma of the whole frame, with `liveness`. */
  readonly frameThumbnail?: Uint8Array;
  /** Fine detail of the whole frame against one octave down (frame-measures.ts), with `liveness`. */
  readonly frameDetail?: number;
  /** Milliseconds spent on the quality metrics of all faces, with `quality`. */
  readonly qualityMs?: number;
}

export type AnalyzeOutcome =
  | ({ readonly ok: true } & WorkerAnalysis)
  | { readonly ok: false; readonly error: 'undecodable'; readonly message: string };

/** Worker data the pool passes at start. */
export interface FaceWorkerData {
  readonly pipeline?: Partial<FacePipelineConfig>;
}

let pipeline: Promise<FacePipeline> | undefined;

async function loadPipeline(): Promise<FacePipeline> {
  const { workerData } = await import('node:worker_threads');
  const overrides = (workerData as FaceWorkerData | null)?.pipeline ?? {};
  return FacePipeline.load({ ...DEFAULT_PIPELINE_CONFIG, ...overrides });
}

/** Decodes and analyses one image; decoding failures come back as a value, anything else throws. */
export default async function analyzeImage(task: AnalyzeTask): Promise<AnalyzeOutcome> {
  pipeline ??= loadPipeline();
  const ready = await pipeline;
  const started = performance.now();
  let image;
  try {
    image = await decodeImage(task.image, { ...DEFAULT_DECODE_OPTIONS, rotation: task.rotation ?? 0 });
  } catch (error) {
    if (error instanceof ImageDecodeError) return { ok: false, error: 'undecodable', message: error.message };
    throw error;
  }
  const decodeMs = performance.now() - started;
  const { faces, timings } = await ready.analyze(image, task.embeddings);
  const base = { ok: true as const, width: image.width, height: image.height, decodeMs, timings };
  if (!task.liveness && !task.quality) return { ...base, faces };
  let measured: AnalyzedFace[] = faces;
  let frameFields = {};
  if (task.liveness) {
    const frame = frameMeasures(image);
    measured = measured.map((face) => ({ ...face, liveness: faceFrameMeasures(image, face, frame) }));
    frameFields = { frameThumbnail: frame.thumbnail, frameDetail: frame.detail };
  }
  if (!task.quality) return { ...base, faces: measured, ...frameFields };
  const qualityStarted = performance.now();
  measured = measured.map((face) => ({
    ...face,
    quality: measureFaceQuality(image, face, { faceCount: faces.length }),
  }));
  return { ...base, faces: measured, ...frameFields, qualityMs: performance.now() - qualityStarted };
}

/** Loads the models without an image: the pool calls it on every worker at start. */
export async function warm(): Promise<boolean> {
  pipeline ??= loadPipeline();
  await pipeline;
  return true;
}
