import { parseLivenessRequest, type LivenessRequest } from '../../engines/liveness/liveness-request.js';
import { analyzeFrames, decidePassiveLiveness, type LivenessResult } from '../../engines/liveness/passive-liveness.js';
import { invalidValue } from '../../server/errors/api-error.js';
import { autocaptureResult, type AutocaptureResult } from './autocapture.js';
import { enforceLivenessChallenge } from './liveness-challenge.js';
import type { FaceLivenessContext } from './liveness-context.js';
import type { FaceLivenessRequest } from './schemas.js';

/** The answer of `/checkLiveness`. */
export interface CheckLivenessAnswer {
  video: { liveness_result: LivenessResult; version: string; timestamp: number };
}

/** The answer of `/analyze`: the liveness result and the autocapture result. */
export interface AnalyzeAnswer {
  video: {
    autocapture_result: AutocaptureResult;
    liveness_result: LivenessResult;
    version: string;
    timestamp: number;
  };
}

/**
 * `/checkLiveness`: passive liveness of a frame sequence, for `customer` (whose challenge it may carry).
 *
 * @example
 * (await checkLiveness(liveness, body, 'acme')).video.liveness_result.decision; // 'LIVE'
 * @throws {LivenessInputError} for a request that cannot be assessed; {@link ApiError} -6 for an active workflow
 *   or a challenge refused (liveness-challenge.ts)
 */
export async function checkLiveness(
  liveness: FaceLivenessContext,
  body: FaceLivenessRequest,
  customer: string,
): Promise<CheckLivenessAnswer> {
  const { result, now } = await decidePassive(liveness, body, customer);
  return { video: { liveness_result: result, version: liveness.version, timestamp: now } };
}

/**
 * `/analyze`: passive liveness with autocapture feedback and the captured frame.
 *
 * @example
 * const { video } = await analyzeLiveness(liveness, body, 'acme');
 * video.autocapture_result.captured_frame; // base64 JPEG of the best frame
 */
export async function analyzeLiveness(
  liveness: FaceLivenessContext,
  body: FaceLivenessRequest,
  customer: string,
): Promise<AnalyzeAnswer> {
  const { request, frames, result, now } = await decidePassive(liveness, body, customer);
  const autocapture = await autocaptureResult(frames, request, body.video.workflow_data);
  return {
    video: { autocapture_result: autocapture, liveness_result: result, version: liveness.version, timestamp: now },
  };
}

/**
 * A passive request checked (and its challenge, if any, used and followed), its frames analysed and the
 * liveness decided at the request's time.
 */
async function decidePassive(liveness: FaceLivenessContext, body: FaceLivenessRequest, customer: string) {
  const request = await passiveRequest(body);
  const now = liveness.now();
  await enforceLivenessChallenge(liveness, customer, body.video.workflow_data.challenge, request, [], now);
  const frames = await analyzeFrames(liveness.faceEngine(), request);
  const result = decidePassiveLiveness(request, frames, liveness.decisionContext(now));
  return { request, frames, result, now };
}

/** The request of a passive call, checked; an active workflow belongs to `/checkActiveLiveness`. */
async function passiveRequest(body: FaceLivenessRequest): Promise<LivenessRequest> {
  const request = await parseLivenessRequest(body.video.workflow_data, body.video.meta_data);
  if (request.workflow.method === 'active')
    throw invalidValue(
      `workflow ${request.workflow.name} is active: send it with the passive request to /checkActiveLiveness`,
    );
  return request;
}
