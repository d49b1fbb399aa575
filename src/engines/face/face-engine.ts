import { availableParallelism } from 'node:os';
import type { Piscina } from 'piscina';
import { engineWorkerFile, startEnginePool } from '../worker-pool.js';
import { ImageDecodeError } from './image-decoding.js';
import { unpackFaceMeshes } from './mesh-transport.js';
import type { EmbeddingOptions, FacePipelineConfig } from './face-pipeline.js';
import type { AnalyzeOptions, WorkerAnalysis } from './face-analysis-types.js';
import type { AnalyzeOutcome, AnalyzeTask, FaceWorkerData } from './face-worker.js';
import type { PadModelKind } from '../liveness/pad-model-kind.js';

export interface FaceEngineConfig {
  /** Worker threads, each with its own copy of the models (~150 MB). Default: the number of cores. */
  readonly workers: number;
  readonly pipeline?: Partial<FacePipelineConfig>;
  /** The PAD model liveness analyses run (`onnx`, the default, also runs the neural model per face). */
  readonly padModel?: PadModelKind;
  /**
   * Compute the hand-made PAD features for every liveness face even when the ONNX model decides, for
   * evaluations that compare both models (eval/calibrate-pad.ts). Default false: with `padModel: 'onnx'` a face
   * gets only their sharpness (the blur gate's), ~17 ms of CPU less a face.
   */
  readonly handmadePadFeatures?: boolean;
}

const WORKER_FILE = engineWorkerFile('./face-worker', import.meta.url);

/**
 * The face engine: a pool of worker threads, each holding the detection, landmark and recognition
 * models, so analysis runs in parallel and off the event loop.
 *
 * @example
 * const engine = FaceEngine.start({ workers: 2 });
 * const { faces } = await engine.analyze(jpegBytes, FACE_ALGORITHMS.F500.embeddings);
 * await engine.close();
 */
export class FaceEngine {
  private constructor(private readonly pool: Piscina<AnalyzeTask, AnalyzeOutcome>) {}

  static start(config: Partial<FaceEngineConfig> = {}): FaceEngine {
    const workers = Math.max(1, config.workers ?? availableParallelism());
    const workerData: FaceWorkerData = {
      pipeline: config.pipeline ?? {},
      padModel: config.padModel,
      handmadePadFeatures: config.handmadePadFeatures,
    };
    // One image at a time per worker: every model runs on one thread (TF.js WASM with one thread,
    // onnxruntime CPU sessions with one intra-op thread), so the workers are the parallelism.
    const pool = startEnginePool<AnalyzeTask, AnalyzeOutcome>(WORKER_FILE, workers, workerData);
    return new FaceEngine(pool);
  }

  /** Loads the models in every worker now rather than on the first request. */
  async warm(): Promise<void> {
    await Promise.all(
      Array.from({ length: this.pool.threads.length || 1 }, () => this.pool.run({} as AnalyzeTask, { name: 'warm' })),
    );
  }

  /**
   * Decodes an image and finds, measures and embeds its faces.
   *
   * @throws {ImageDecodeError} when the bytes are not a supported image
   */
  async analyze(
    image: Uint8Array,
    embeddings: EmbeddingOptions,
    options: AnalyzeOptions = {},
  ): Promise<WorkerAnalysis> {
    const outcome = await this.pool.run({ image, embeddings, ...options });
    if (!outcome.ok) throw new ImageDecodeError(outcome.message);
    const { ok: _ok, faces, ...analysis } = outcome;
    return { ...analysis, faces: unpackFaceMeshes(faces) };
  }

  get workers(): number {
    return this.pool.options.maxThreads;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
