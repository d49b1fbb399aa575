/**
 * Hand-built liveness inputs for the decision cores: analysed frames, faces and parsed requests as the
 * face engine and `parseLivenessRequest` would give them, without models, images or HTTP.
 */
import type { AnalyzedFace, WorkerAnalysis } from '../../src/engines/face/face-analysis-types.js';
import type { FaceFrameMeasures } from '../../src/engines/liveness/frame-measures.js';
import type { SignalMode } from '../../src/engines/liveness/iad-signal-names.js';
import type { Rgb } from '../../src/engines/liveness/light-trace.js';
import type { LivenessRequest } from '../../src/engines/liveness/liveness-request.js';
import type { LivenessContext } from '../../src/engines/liveness/passive-liveness.js';
import { loadPadModel } from '../../src/engines/liveness/pad-classifier.js';
import type { PadModelKind } from '../../src/engines/liveness/pad-model-kind.js';
import { parseWorkflow } from '../../src/engines/liveness/workflows.js';

export const FRAME_WIDTH = 480;
export const FRAME_HEIGHT = 640;
/** Pixels between the eyes of every synthetic face: above the liveness resolution gate (40). */
export const INTER_EYE = 80;

/** A 16×16 luma thumbnail of one value: thumbnails of different values are frames that moved. */
export const thumbnail = (value: number): Uint8Array => new Uint8Array(256).fill(value);

/** A unit 128-d vector at `angle` in its first plane: cos(a − b) is the similarity of two of them. */
export function identity(angle: number): Float32Array {
  const v = new Float32Array(128);
  v[0] = Math.cos(angle);
  v[1] = Math.sin(angle);
  return v;
}

/**
 * PAD features that the shipped model scores at P(live) = `pLive` (up to float32 rounding): every
 * standardised feature moves the same distance in the direction of its weight.
 */
export function padFeaturesScoring(pLive: number): Float32Array {
  const model = loadPadModel();
  const weightSum = model.weights.reduce((sum, w) => sum + Math.abs(w), 0);
  const k = (Math.log(pLive / (1 - pLive)) - model.bias) / weightSum;
  return Float32Array.from(model.weights, (w, j) => (model.mean[j] ?? 0) + k * Math.sign(w) * (model.std[j] ?? 1));
}

/** Clearly live and clearly attack PAD features under the shipped model. */
export const LIVE_PAD = padFeaturesScoring(0.999);
export const SPOOF_PAD = padFeaturesScoring(0.001);

/** The liveness measures of a sharp, well-lit, close, live-looking face; `overrides` change some. */
export function measures(overrides: Partial<FaceFrameMeasures> = {}, sharpness = 2.3): FaceFrameMeasures {
  return {
    padFeatures: LIVE_PAD,
    padSignals: { moire: 1.1, chromaMoire: 1.1, highFrequencyEnergy: 0.1, chromaSpread: 8, specular: 0, sharpness },
    sharpness,
    faceThumbnail: thumbnail(100),
    dynamicRange: 160,
    brightness: 120,
    meanRgb: [180, 140, 120],
    interEyePixels: INTER_EYE,
    framingSides: 0,
    ...overrides,
  };
}

export interface FaceSpec {
  /** Recognition embedding (views[0]); none for a background-sized face. */
  readonly vector?: Float32Array;
  readonly liveness?: FaceFrameMeasures;
  /** Head pose in radians. */
  readonly yaw?: number;
  readonly pitch?: number;
  readonly mesh?: AnalyzedFace['mesh'];
  /** Box width in pixels (the box is centred in the frame). */
  readonly width?: number;
  readonly score?: number;
}

/** A detected face in the middle of a 480×640 frame. */
export function face(spec: FaceSpec = {}): AnalyzedFace {
  const width = spec.width ?? 200;
  const x = (FRAME_WIDTH - width) / 2;
  const y = (FRAME_HEIGHT - width) / 2;
  const eyeY = y + width * 0.4;
  return {
    box: [x, y, width, width],
    score: spec.score ?? 0.95,
    pose: { yaw: spec.yaw ?? 0, pitch: spec.pitch ?? 0, roll: 0 },
    keyPoints: {
      rightEye: [FRAME_WIDTH / 2 - INTER_EYE / 2, eyeY],
      leftEye: [FRAME_WIDTH / 2 + INTER_EYE / 2, eyeY],
      mouth: [FRAME_WIDTH / 2, eyeY + INTER_EYE],
    },
    mesh: spec.mesh ?? [],
    recognitionViews: spec.vector === undefined ? [] : [spec.vector],
    description: undefined,
    liveness: spec.liveness ?? measures(),
  };
}

/** One analysed 480×640 frame holding `faces`, with a whole-frame thumbnail of value `scene`. */
export function frame(faces: readonly AnalyzedFace[], scene: number): WorkerAnalysis {
  return {
    width: FRAME_WIDTH,
    height: FRAME_HEIGHT,
    decodeMs: 0,
    faces: [...faces],
    timings: { detectMs: 0, embedMs: 0 },
    frameThumbnail: thumbnail(scene),
    frameDetail: 0.4,
  };
}

export interface RequestSpec {
  readonly securityLevel?: number;
  readonly packageTimestamp?: number;
  readonly deviceNames?: readonly string[];
  readonly lightTraceMode?: 'NORMAL' | 'STRICT';
  /** Screen colour per frame (charlie). */
  readonly screenColours?: ReadonlyArray<Rgb | undefined>;
  /** Frame bytes, one per frame; by default distinct bytes named after the workflow and frame index. */
  readonly bytes?: readonly Buffer[];
}

/** A parsed request of `workflow` with `frameCount` 480×640 frames and the default detection settings. */
export function livenessRequest(workflow: string, frameCount: number, spec: RequestSpec = {}): LivenessRequest {
  return {
    workflow: parseWorkflow(workflow, spec.securityLevel),
    frames: Array.from({ length: frameCount }, (_, i) => ({
      bytes: spec.bytes?.[i] ?? Buffer.from(`${workflow}/${i}`),
      timestamp: 1000 + i * 100,
      tags: [],
      screenColour: spec.screenColours?.[i],
    })),
    width: FRAME_WIDTH,
    height: FRAME_HEIGHT,
    rotation: 0,
    packageTimestamp: spec.packageTimestamp,
    lightTraceMode: spec.lightTraceMode ?? 'NORMAL',
    faceMinSize: 0,
    faceMaxSize: 1,
    faceMinScore: 0.3,
    deviceNames: spec.deviceNames ?? [],
  };
}

export const NOW = 1_700_000_000_000;

/**
 * A decision context at {@link NOW}: packages up to a minute old, 5 s of clock skew, default IAD modes, and the
 * hand-made PAD classifier by default (the synthetic `padFeatures` above are built for it; `padNet` outputs for the
 * ONNX model are given per test).
 */
export function context(
  iadModes: ReadonlyMap<string, SignalMode> = new Map(),
  padModel: PadModelKind = 'handmade',
): LivenessContext {
  return { now: NOW, maxAgeMs: 60_000, maxSkewMs: 5_000, iadModes, padModel };
}
