/**
 * What `FaceEngine.analyze` is asked for and what it returns: the shapes that cross the worker
 * boundary, kept apart from the piscina worker entry so callers never import a worker file.
 */
import type { FaceQuality } from '../face-quality/face-quality.js';
import type { FaceFrameMeasures } from '../liveness/frame-measures.js';
import type { LumaWindow } from '../liveness/luma-window.js';
import type { FaceObservation, StageTimings } from './face-pipeline.js';
import type { DecodeOptions } from './image-decoding.js';
import type { ThreadCpuTime } from './thread-cpu-time.js';

/** Extra work per image beyond detection and embeddings. */
export interface AnalyzeOptions {
  /** Liveness measures of every face (PAD features, thumbnails) and a thumbnail of the frame, as `face.liveness`. */
  readonly liveness?: boolean;
  /** Quality metrics (face-quality/: ISO/IEC 29794-5-style scores) and eye centres of every face, as `face.quality`. */
  readonly quality?: boolean;
  /** Clockwise rotation applied after the EXIF orientation. */
  readonly rotation?: DecodeOptions['rotation'];
}

/** A face with, when asked, its liveness measures and its quality metrics. */
export type AnalyzedFace = FaceObservation & { readonly liveness?: FaceFrameMeasures; readonly quality?: FaceQuality };

/** One decoded image's faces and timings. */
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
  /** The whole frame's luma reduced (luma-window.ts), with `liveness`: the background's motion. */
  readonly frameScene?: LumaWindow;
  /** Milliseconds spent on the quality metrics of all faces, with `quality`. */
  readonly qualityMs?: number;
  /**
   * The worker thread's CPU time and run-queue wait over this image, from the start of decoding to the
   * last measure (thread-cpu-time.ts; Linux only). The wall time of the same span less these two is time
   * the thread was blocked: sharp decodes on its own threads while the worker waits.
   */
  readonly thread?: ThreadCpuTime | undefined;
}
