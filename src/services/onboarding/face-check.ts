import { decryptEnvelope, type Envelope, type EnvelopeOpeningKey } from '../../crypto/envelope.js';
import { FACE_ALGORITHMS } from '../../engines/face/algorithms.js';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import { checkFollowsChallenge, type TimedChallenge } from '../../engines/liveness/liveness-challenge.js';
import { parseLivenessRequest, type FrameReader } from '../../engines/liveness/liveness-request.js';
import {
  analyzeFrames,
  decidePassiveLiveness,
  subjectOf,
  type LivenessContext,
  type LivenessResult,
} from '../../engines/liveness/passive-liveness.js';
import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../../lib/json-depth.js';
import { normalisedSum } from '../../lib/vectors.js';
import { invalidValue } from '../../server/errors/api-error.js';
import type { FaceLivenessData } from './schemas.js';

/** What a face sample showed: the liveness result and, from the frames with a usable face, the F500 template. */
export interface FaceCheck {
  readonly live: boolean;
  readonly liveness: LivenessResult;
  /** Unit F500 vector averaged over the frames' subject faces; undefined when no frame had one. */
  readonly template: Float32Array | undefined;
}

/**
 * Runs a face sample of addFace or verifyFace: opens each frame's envelope with the onboarding key, runs
 * passive liveness with the customer's workflow (the package's own `workflow` and security level are
 * not trusted: a client could lower them), and takes the F500 template in the same engine pass. With a
 * `challenge` (already spent by the caller), the sample must follow it before any frame is analysed.
 *
 * @example
 * const check = await checkFaceSample(engine, body.faceLivenessData, { workflow: 'hotel2', envelopeKey, context });
 * if (check.live && check.template) ...
 * @throws {ApiError} 400 for an unreadable envelope or frame (LivenessInputError, EnvelopeError);
 *   {@link LivenessInputError} -6 for a sample that does not follow its challenge
 */
export async function checkFaceSample(
  engine: FaceEngine,
  data: FaceLivenessData,
  options: {
    workflow: string;
    envelopeKey: EnvelopeOpeningKey;
    context: LivenessContext;
    challenge?: TimedChallenge | undefined;
  },
): Promise<FaceCheck> {
  const { workflow_data: sent, meta_data: meta } = data.video;
  const request = await parseLivenessRequest(
    { frames: sent.frames, rotation: sent.rotation, timestamp: sent.timestamp, workflow: options.workflow },
    meta,
    envelopeFrameReader(options.envelopeKey),
  );
  const { challenge, context } = options;
  if (challenge !== undefined)
    checkFollowsChallenge(challenge, request, [], { now: context.now, maxSkewMs: context.maxSkewMs });
  const frames = await analyzeFrames(engine, request, FACE_ALGORITHMS.F500.embeddings.views);
  const liveness = decidePassiveLiveness(request, frames, options.context);
  const vectors = frames.flatMap((frame) => {
    const face = subjectOf(frame, request, new Set());
    return face !== undefined && face.recognitionViews.length === FACE_ALGORITHMS.F500.embeddings.views.length
      ? [FACE_ALGORITHMS.F500.templateVector(face)]
      : [];
  });
  return {
    live: liveness.decision === 'LIVE',
    liveness,
    template: vectors.length === 0 ? undefined : normalisedSum(vectors),
  };
}

/**
 * The liveness part of an onboarding response: decision, feedback and score_frr only (no PAD or IAD
 * detail for a client to tune an attack against).
 *
 * @example
 * livenessSummary(check.liveness).video.liveness_result.decision; // 'LIVE'
 */
export function livenessSummary(result: LivenessResult): {
  video: { liveness_result: { decision: string; feedback: string[]; score_frr: number } };
} {
  return {
    video: { liveness_result: { decision: result.decision, feedback: result.feedback, score_frr: result.score_frr } },
  };
}

/**
 * A frame's `data` is a `{key, iv, p}` envelope (DESIGN.md §5), as JSON text or as base64 of it; it
 * opens to the image bytes, and only when sealed for onboarding.
 */
function envelopeFrameReader(key: EnvelopeOpeningKey): FrameReader {
  return (data, field) => {
    const text = data.trimStart().startsWith('{') ? data : Buffer.from(data, 'base64').toString('utf8');
    if (jsonNestingExceeds(text, MAX_JSON_DEPTH)) {
      throw invalidValue(`${field}: the envelope is nested deeper than ${MAX_JSON_DEPTH} levels`);
    }
    let envelope: unknown;
    try {
      envelope = JSON.parse(text);
    } catch {
      throw invalidValue(
        `${field} must be an encrypted frame: a {key, iv, p} envelope as JSON, or that JSON in base64`,
      );
    }
    if (!isEnvelope(envelope)) throw invalidValue(`${field}: the envelope must have the string members key, iv and p`);
    return decryptEnvelope(envelope, key);
  };
}

function isEnvelope(value: unknown): value is Envelope {
  if (typeof value !== 'object' || value === null) return false;
  const { key, iv, p } = value as Record<string, unknown>;
  return typeof key === 'string' && typeof iv === 'string' && typeof p === 'string';
}
