/**
 * Piscina worker: holds one loaded face pipeline (models load once, at the first task) and runs one
 * image at a time on this thread, so the server's event loop never waits on a model.
 */
import { measureFaceQuality } from '../face-quality/face-quality.js';
import { faceLivenessMeasures, frameMeasures } from '../liveness/frame-measures.js';
import { DEFAULT_PAD_MODEL, type PadModelKind } from '../liveness/pad-model-kind.js';
import { OnnxPadModel } from '../liveness/pad-onnx-model.js';
import type { AnalyzedFace, AnalyzeOptions, WorkerAnalysis } from './face-analysis-types.js';
import { decodeImage, DEFAULT_DECODE_OPTIONS, ImageDecodeError } from './image-decoding.js';
import { packFaceMeshes, type PackedFace } from './mesh-transport.js';
import { threadCpuTime, threadCpuTimeSince } from './thread-cpu-time.js';
import {
  DEFAULT_PIPELINE_CONFIG,
  FacePipeline,
  type EmbeddingOptions,
  type FacePipelineConfig,
} from './face-pipeline.js';

/** One image to analyse: what `FaceEngine.analyze` sends to a worker. */
export interface AnalyzeTask extends AnalyzeOptions {
  /** Encoded image bytes (JPEG, PNG, ...). */
  readonly image: Uint8Array;
  readonly embeddings: EmbeddingOptions;
}

/** What a worker sends back: the analysis with its meshes packed for the trip (mesh-transport.ts). */
export type AnalyzeOutcome =
  | ({ readonly ok: true } & Omit<WorkerAnalysis, 'faces'> & { readonly faces: PackedFace[] })
  | { readonly ok: false; readonly error: 'undecodable'; readonly message: string };

/** Worker data the pool passes at start. */
export interface FaceWorkerData {
  readonly pipeline?: Partial<FacePipelineConfig>;
  /** The PAD model liveness analyses run; `onnx` (the default) loads fr_liveness.onnx at the first one. */
  readonly padModel?: PadModelKind | undefined;
  /** Compute the hand-made PAD features even when the ONNX model decides (FaceEngineConfig.handmadePadFeatures). */
  readonly handmadePadFeatures?: boolean | undefined;
}

let pipeline: Promise<FacePipeline> | undefined;

/** The PAD model of each liveness face and whether it also gets the hand-made features. */
interface PadSetting {
  readonly net: OnnxPadModel | undefined;
  readonly handmade: boolean;
}

let padSetting: Promise<PadSetting> | undefined;

async function loadPadSetting(): Promise<PadSetting> {
  const threads = await import('node:worker_threads');
  // Set by FaceEngine.start, typed there as FaceWorkerData; null outside a pool.
  const data = threads.workerData as FaceWorkerData | null;
  const kind = data?.padModel ?? DEFAULT_PAD_MODEL;
  // The hand-made features (~17 ms a face) only when their classifier decides or an evaluation asks for them.
  const handmade = kind === 'handmade' || data?.handmadePadFeatures === true;
  return { net: kind === 'onnx' ? await OnnxPadModel.load() : undefined, handmade };
}

async function loadPipeline(): Promise<FacePipeline> {
  const threads = await import('node:worker_threads');
  // Set by FaceEngine.start, typed there as FaceWorkerData; null outside a pool.
  const overrides = (threads.workerData as FaceWorkerData | null)?.pipeline ?? {};
  return FacePipeline.load({ ...DEFAULT_PIPELINE_CONFIG, ...overrides });
}

/** Decodes and analyses one image; decoding failures come back as a value, anything else throws. */
export default async function analyzeImage(task: AnalyzeTask): Promise<AnalyzeOutcome> {
  pipeline ??= loadPipeline();
  const ready = await pipeline;
  const threadAtStart = threadCpuTime();
  const analysis = await analyzeDecoded(ready, task);
  if (!analysis.ok) return analysis;
  const faces = packFaceMeshes(analysis.faces);
  return { ...analysis, faces, thread: threadCpuTimeSince(threadAtStart, threadCpuTime()) };
}

/** Decoding and analysis, with faces as the pipeline gives them. */
async function analyzeDecoded(
  ready: FacePipeline,
  task: AnalyzeTask,
): Promise<({ readonly ok: true } & WorkerAnalysis) | Extract<AnalyzeOutcome, { ok: false }>> {
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
    const pad = await (padSetting ??= loadPadSetting());
    measured = await Promise.all(
      measured.map(async (face) => ({
        ...face,
        liveness: await faceLivenessMeasures(image, face, frame, pad.net, { handmadePad: pad.handmade }),
      })),
    );
    frameFields = { frameThumbnail: frame.thumbnail, frameDetail: frame.detail, frameScene: frame.scene };
  }
  if (!task.quality) return { ...base, faces: measured, ...frameFields };
  const qualityStarted = performance.now();
  measured = measured.map((face) => ({
    ...face,
    quality: measureFaceQuality(image, face, { faceCount: faces.length }),
  }));
  return { ...base, faces: measured, ...frameFields, qualityMs: performance.now() - qualityStarted };
}

/**
 * Loads the models without an image. Nothing runs it at pool start: `FaceEngine.warm` runs it on request
 * (once per pool thread); otherwise a worker loads its models at its first image.
 */
export async function warm(): Promise<boolean> {
  pipeline ??= loadPipeline();
  padSetting ??= loadPadSetting();
  await Promise.all([pipeline, padSetting]);
  return true;
}
