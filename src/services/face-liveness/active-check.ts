import { parseLivenessRequest } from '../../engines/liveness/liveness-request.js';
import { invalidValue } from '../../server/errors/api-error.js';
import { assessActiveLiveness, type ActiveLivenessResult } from './active-liveness.js';
import { carriedChallenge, enforceLivenessChallenge } from './liveness-challenge.js';
import type { FaceLivenessContext } from './liveness-context.js';
import type { ActiveLivenessRequest } from './schemas.js';

/** The answer of `/checkActiveLiveness`. */
export interface ActiveLivenessAnswer {
  video: { liveness_result: ActiveLivenessResult; version: string; timestamp: number };
}

/**
 * `/checkActiveLiveness`: exactly three requests, one passive and two active (in any order), assessed
 * together ({@link assessActiveLiveness}), for `customer`; any of them may carry the customer's challenge,
 * whose head moves the active requests must then make in the order drawn.
 *
 * @example
 * await checkActiveLiveness(liveness, [hotel4Request, activeUpRequest, activeLeftRequest], 'acme');
 * @throws {ApiError} -6 for another number or mix of requests or a challenge refused; {@link LivenessInputError}
 *   for a bad request
 */
export async function checkActiveLiveness(
  liveness: FaceLivenessContext,
  body: ActiveLivenessRequest,
  customer: string,
): Promise<ActiveLivenessAnswer> {
  if (body.length !== 3)
    throw invalidValue(`checkActiveLiveness takes exactly 3 requests: 1 passive and 2 active (got ${body.length})`);
  const requests = await Promise.all(
    body.map((item) => parseLivenessRequest(item.video.workflow_data, item.video.meta_data)),
  );
  const passives = requests.filter((r) => r.workflow.method !== 'active');
  const actives = requests.filter((r) => r.workflow.method === 'active');
  const [passive] = passives;
  if (passive === undefined || passives.length !== 1 || actives.length !== 2) {
    throw invalidValue(
      `checkActiveLiveness takes 1 passive and 2 active requests (got ${passives.length} passive, ${actives.length} active)`,
    );
  }
  const now = liveness.now();
  const nonce = carriedChallenge(body.map((item) => item.video.workflow_data.challenge));
  await enforceLivenessChallenge(liveness, customer, nonce, passive, actives, now);
  const result = await assessActiveLiveness(liveness.faceEngine(), passive, actives, liveness.decisionContext(now));
  return { video: { liveness_result: result, version: liveness.version, timestamp: now } };
}
