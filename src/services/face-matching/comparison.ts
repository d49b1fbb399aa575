import { calibrated, cosine } from '../../engines/face/calibrated-score.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import { checkedCache } from './cache-name.js';
import { algorithmOf, vectorFor } from './face-samples.js';
import type { FaceMatchingContext } from './matching-context.js';
import type { CompareBody, VerifyBody } from './schemas.js';

/** A 1:1 score: cosine similarity and its calibrated percentage (docs/scores.md). */
export interface ComparisonScore {
  score: number;
  scorePercent: number;
}

/**
 * `/compare`: 1:1 comparison of two faces, each an image or a template, with the workflow's algorithm.
 *
 * @example
 * await compareFaces(matching, { probe: { VISIBLE_FRONTAL: a }, gallery: { import: templateB } });
 * // { score: 0.71, scorePercent: 93.2 }
 */
export async function compareFaces(matching: FaceMatchingContext, body: CompareBody): Promise<ComparisonScore> {
  const algorithm = algorithmOf(body.workflow);
  const [probe, gallery] = await Promise.all([
    matching.vectors(body.probe, 'probe', [algorithm]),
    matching.vectors(body.gallery, 'gallery', [algorithm]),
  ]);
  const { score, scorePercent } = calibrated(
    algorithm,
    cosine(vectorFor(probe, algorithm, 'probe'), vectorFor(gallery, algorithm, 'gallery')),
  );
  return { score, scorePercent };
}

/**
 * `/verify`: 1:1 comparison of a face with one encounter of the customer's cache.
 *
 * @example
 * await verifyFace(matching, 'acme', 'staff', { id: 'alice', probe: { VISIBLE_FRONTAL: jpegBase64 } });
 * @throws {ApiError} 400 -6 for an id the cache lacks or an encounter without the algorithm's
 *   template; 500 when its stored template cannot be read
 */
export async function verifyFace(
  matching: FaceMatchingContext,
  customer: string,
  cacheName: string,
  body: VerifyBody,
): Promise<ComparisonScore> {
  const cache = checkedCache(customer, cacheName);
  const algorithm = algorithmOf(body.workflow);
  const probe = vectorFor(await matching.vectors(body.probe, 'probe', [algorithm]), algorithm, 'probe');
  const loaded = await matching.caches.fresh(cache);
  const { id } = body;
  if (!loaded.ids.has(id)) throw invalidValue(`no encounter '${id}' in cache '${cache.name}'`);
  const unreadable = loaded.unreadable.get(id);
  if (unreadable !== undefined) throw new ApiError(500, ErrorCode.internal, `encounter '${id}': ${unreadable}`);
  const score = loaded.galleries.get(algorithm)?.score(probe, id);
  if (score === undefined)
    throw invalidValue(
      `encounter '${id}' has no ${algorithm} template (it was enrolled from a template of another algorithm)`,
    );
  const { score: raw, scorePercent } = calibrated(algorithm, score);
  return { score: raw, scorePercent };
}
