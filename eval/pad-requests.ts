/**
 * Every PAD image of an evaluation folder sent as a one-frame `hotel` request through the real path
 * (parse, analyse in the face engine, decide), kept with what each PAD model says of its subject face:
 * which images are decided (LIVE or SPOOF) and which the request checks or quality gates stop first
 * (FACE_TOO_LOW_RESOLUTION, ...), reported apart. Shared by `npm run eval -- liveness` and `calibrate-pad`.
 */
import { readFileSync } from 'node:fs';
import type { FaceEngine } from '../src/engines/face/face-engine.js';
import { LivenessInputError } from '../src/engines/liveness/liveness-input-error.js';
import { parseLivenessRequest, type LivenessRequest } from '../src/engines/liveness/liveness-request.js';
import {
  analyzeFrames,
  decidePassiveLiveness,
  subjectOf,
  type LivenessContext,
  type LivenessDecision,
} from '../src/engines/liveness/passive-liveness.js';
import type { PadNetOutput } from '../src/engines/liveness/pad-onnx-model.js';
import { facePLive } from '../src/engines/liveness/pad-score.js';
import type { PadImage } from './face-dataset.js';
import type { WorkerAnalysis } from '../src/engines/face/face-analysis-types.js';

/** One PAD image as a request. */
export interface PadRequestOutcome extends PadImage {
  /**
   * `decided` when the decision reached PAD (LIVE or SPOOF); otherwise the gate's decision
   * (FACE_TOO_LOW_RESOLUTION, UNABLE_TO_CALCULATE_LIVENESS, ...) or `refused <code>` for a request refused
   * before analysis (e.g. -8, a frame under 120 px).
   */
  readonly outcome: 'decided' | Exclude<LivenessDecision, 'LIVE' | 'SPOOF'> | `refused ${number}`;
  /** The subject face's measures: always for decided requests, and for gated ones that have a subject. */
  readonly face?: {
    /** Only from an engine started with `handmadePadFeatures` (or `padModel: 'handmade'`). */
    readonly padFeatures?: Float32Array;
    readonly padNet: PadNetOutput;
    readonly box: readonly [number, number, number, number];
    readonly interEyePixels: number;
  };
  /** What the request and its analysis were, for decided requests (to decide again at other levels). */
  readonly request?: LivenessRequest;
  readonly frames?: readonly WorkerAnalysis[];
}

/** A context that accepts any package age and decides with `padModel`. */
export function evalContext(padModel: LivenessContext['padModel']): LivenessContext {
  return { now: Date.now(), maxAgeMs: 1e12, maxSkewMs: 1e12, iadModes: new Map(), padModel };
}

/**
 * Sends every image as a `hotel4` request; the engine must run the ONNX PAD model (its default).
 *
 * @example
 * const outcomes = await padRequests(engine, loadPadImages(dir));
 * outcomes.filter((o) => o.outcome === 'decided').length;
 */
export async function padRequests(engine: FaceEngine, images: readonly PadImage[]): Promise<PadRequestOutcome[]> {
  return Promise.all(
    images.map(async (image): Promise<PadRequestOutcome> => {
      let request: LivenessRequest;
      try {
        request = await parseLivenessRequest(
          { workflow: 'hotel4', frames: [{ data: readFileSync(image.file).toString('base64'), timestamp: 0 }] },
          undefined,
        );
      } catch (error) {
        if (error instanceof LivenessInputError) return { ...image, outcome: `refused ${error.code}` };
        throw error;
      }
      const frames = await analyzeFrames(engine, request);
      // The gates do not depend on the PAD model: decide with the hand-made one when the engine computed its
      // features (it needs no calibration file, which calibrate-pad writes), else with the ONNX model.
      const handmade = frames.some((f) => f.faces.some((face) => face.liveness?.padFeatures !== undefined));
      const { decision } = decidePassiveLiveness(request, frames, evalContext(handmade ? 'handmade' : 'onnx'));
      const [frame] = frames;
      const subject = frame && subjectOf(frame, request, new Set());
      const measures = subject?.liveness;
      const face = subject &&
        measures?.padNet && {
          ...(measures.padFeatures && { padFeatures: measures.padFeatures }),
          padNet: measures.padNet,
          box: subject.box,
          interEyePixels: measures.interEyePixels,
        };
      if (decision !== 'LIVE' && decision !== 'SPOOF') return { ...image, outcome: decision, ...(face && { face }) };
      if (!face) throw new Error(`${image.file}: decided without a subject scored by the ONNX model`);
      return { ...image, outcome: 'decided', face, request, frames };
    }),
  );
}

/** P(live) of an outcome's face (decided, or gated with a subject) under a model kind. */
export function outcomePLive(outcome: PadRequestOutcome, kind: 'onnx' | 'handmade'): number {
  if (!outcome.face) throw new Error(`${outcome.file} has no subject face`);
  return facePLive(outcome.face, kind);
}

/** Count of each outcome, live and spoof apart: `{ "live FACE_TOO_LOW_RESOLUTION": 33, ... }`. */
export function outcomeCounts(outcomes: readonly PadRequestOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const o of outcomes) {
    const key = `${o.live ? 'live' : 'spoof'} ${o.outcome}`;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => a.localeCompare(b)));
}
