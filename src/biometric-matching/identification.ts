import { identify, type IdentifyResult } from '../engines/matching/identification.js';
import { ApiError, ErrorCode, invalidValue } from '../server/errors/api-error.js';
import { checkedCache } from './cache-name.js';
import { vectorFor } from './exported-templates.js';
import type { BiometricSample, MatchingContext } from './matching-context.js';

const DEFAULT_CANDIDATES = 10;

/** What `/identify` and `/identifyPartial` bodies hold, whatever the modality. */
export interface IdentifyRequest<S, W> {
  readonly probe?: S | undefined;
  /** The spec's identifyPartial schema names the probe `encounter`. */
  readonly encounter?: S | undefined;
  readonly workflow?: W | undefined;
  readonly candidateListSize?: number | undefined;
}

/**
 * `/identify` and `/identifyPartial`: the probe of the body searched in the customer's cache, or only among
 * the ids of `only`, with the workflow's algorithm and candidate list size (10 when not given).
 *
 * @example
 * await identifyInCache(matching, 'acme', 'staff', { probe: { VISIBLE_FRONTAL: jpegBase64 } });
 * await identifyInCache(matching, 'acme', 'staff', body, body.idList); // identifyPartial
 */
export async function identifyInCache<A extends string, S extends BiometricSample, W>(
  matching: MatchingContext<A, S, W>,
  customer: string,
  cacheName: string,
  body: IdentifyRequest<S, W>,
  only?: readonly string[],
): Promise<IdentifyResult> {
  const cache = checkedCache(customer, cacheName);
  const probe = probeOf(body);
  const algorithm = matching.algorithmOf(body.workflow);
  const size = body.candidateListSize ?? DEFAULT_CANDIDATES;
  const probeVector = matching.caches.family.scoringVector(
    algorithm,
    vectorFor(await matching.vectors(probe, 'probe', [algorithm], body.workflow), algorithm, 'probe'),
  );
  const calibrate = (score: number) => matching.calibrated(algorithm, score, body.workflow);
  return identify(await matching.caches.fresh(cache), probeVector, algorithm, calibrate, size, only);
}

/** The spec's identify schema names the probe `encounter`, its examples `probe`: either is accepted, not both. */
function probeOf<S>(body: { probe?: S | undefined; encounter?: S | undefined }): S {
  if (body.probe !== undefined && body.encounter !== undefined)
    throw invalidValue("give the probe as 'probe' or as 'encounter', not both");
  const probe = body.probe ?? body.encounter;
  if (probe === undefined) throw new ApiError(400, ErrorCode.missingField, "mandatory field missing: 'probe'");
  return probe;
}
