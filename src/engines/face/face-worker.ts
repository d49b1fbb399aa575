/**
 * Piscina worker: holds one loaded face pipeline (models load once, at the first task) and runs one
 * image at a time on this thread, so the server's event loop never waits on a model.
 */
import { decodeImage, DEFAULT_DECODE_OPTIONS, ImageDecodeError } from './image-decoding.js';
import { DEFAULT_PIPELINE_CONFIG, FacePipeline, type EmbeddingOptions, type FacePipelineConfig, type ImageAnalysis } from './face-pipeline.js';

export interface AnalyzeTask {
  /** Encoded image bytes (JPEG, PNG, ...). */
  readonly image: Uint8Array;
  readonly embeddings: EmbeddingOptions;
}

export type AnalyzeOutcome =
  | ({ readonly ok: true; readonly width: number; readonly height: number; readonly decodeMs: number } & ImageAnalysis)
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
    image = await decodeImage(task.image, DEFAULT_DECODE_OPTIONS);
  } catch (error) {
    if (error instanceof ImageDecodeError) return { ok: false, error: 'undecodable', message: error.message };
    throw error;
  }
  const decodeMs = performance.now() - started;
  const analysis = await ready.analyze(image, task.embeddings);
  return { ok: true, width: image.width, height: image.height, decodeMs, ...analysis };
}

/** Loads the models without an image: the pool calls it on every worker at start. */
export async function warm(): Promise<boolean> {
  pipeline ??= loadPipeline();
  await pipeline;
  return true;
}
