import type { FaceAlgorithmName } from '../../engines/face/algorithms.js';
import { calibrated } from '../../engines/face/calibrated-score.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import type { LoadedCache } from './cache-galleries.js';
import { checkedCache } from './cache-name.js';
import { algorithmOf, vectorFor } from './face-samples.js';
import type { FaceMatchingContext } from './matching-context.js';
import type { FaceSample, IdentifyBody } from './schemas.js';

const DEFAULT_CANDIDATES = 10;

export interface IdentifyResult {
  candidateList: Array<{ id: string; score: number; scoreFmr: number; scorePercent: number }>;
  recordErrors: Array<{ id: string; error: string }>;
}

/**
 * `/identify` and `/identifyPartial`: the probe of the body searched in the customer's cache, or only among
 * the ids of `only`, with the workflow's algorithm and candidate list size (10 when not given).
 *
 * @example
 * await identifyInCache(matching, 'acme', 'staff', { probe: { VISIBLE_FRONTAL: jpegBase64 } });
 * await identifyInCache(matching, 'acme', 'staff', body, body.idList); // identifyPartial
 */
export async function identifyInCache(
  matching: FaceMatchingContext,
  customer: string,
  cacheName: string,
  body: IdentifyBody,
  only?: readonly string[],
): Promise<IdentifyResult> {
  const cache = checkedCache(customer, cacheName);
  const probe = probeOf(body);
  const algorithm = algorithmOf(body.workflow);
  const size = body.candidateListSize ?? DEFAULT_CANDIDATES;
  const probeVector = vectorFor(await matching.vectors(probe, 'probe', [algorithm]), algorithm, 'probe');
  return identify(await matching.caches.fresh(cache), probeVector, algorithm, size, only);
}

/**
 * 1:N search of a cache (or of the listed ids): the best `size` candidates by score, and the
 * encounters that could not be scored (absent from the cache, unreadable, or without a template of
 * the algorithm).
 *
 * @example
 * identify(await caches.fresh({ customer: 'acme', name: 'staff' }), probeVector, 'F500', 10);
 */
export function identify(
  cache: LoadedCache,
  probe: Float32Array,
  algorithm: FaceAlgorithmName,
  size: number,
  only?: readonly string[],
): IdentifyResult {
  const gallery = cache.galleries.get(algorithm);
  const recordErrors: IdentifyResult['recordErrors'] = [];
  const wanted = only === undefined ? undefined : new Set(only);
  const consider = wanted ?? cache.ids;
  for (const id of consider) {
    const unreadable = cache.unreadable.get(id);
    if (!cache.ids.has(id)) recordErrors.push({ id, error: 'not in the cache' });
    else if (unreadable !== undefined) recordErrors.push({ id, error: unreadable });
    else if (!gallery?.has(id))
      recordErrors.push({ id, error: `no ${algorithm} template (enrolled from a template of another algorithm)` });
  }
  const hits = gallery ? gallery.search(probe, size, wanted) : [];
  return { candidateList: hits.map((hit) => ({ id: hit.id, ...calibrated(algorithm, hit.score) })), recordErrors };
}

/** The spec's identify schema names the probe `encounter`, its examples `probe`: either is accepted, not both. */
function probeOf(body: { probe?: FaceSample | undefined; encounter?: FaceSample | undefined }): FaceSample {
  if (body.probe !== undefined && body.encounter !== undefined)
    throw invalidValue("give the probe as 'probe' or as 'encounter', not both");
  const probe = body.probe ?? body.encounter;
  if (probe === undefined) throw new ApiError(400, ErrorCode.missingField, "mandatory field missing: 'probe'");
  return probe;
}
