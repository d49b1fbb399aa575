import { ApiError, ErrorCode, invalidValue } from '../server/errors/api-error.js';
import { checkedCache } from './cache-name.js';
import { vectorFor } from './exported-templates.js';
import type { BiometricSample, MatchingContext } from './matching-context.js';

/**
 * A 1:1 score: the family's similarity (face: cosine; voice: normalised score), its calibrated percentage, and
 * `scoreFmr` (-log10 FMR) for fusion.
 */
export interface ComparisonScore {
  score: number;
  scorePercent: number;
  scoreFmr: number;
}

/**
 * `/compare`: 1:1 comparison of two samples, each raw or a template, with the workflow's algorithm.
 *
 * @example
 * await compareSamples(matching, { probe: { VISIBLE_FRONTAL: a }, gallery: { import: templateB } });
 * // { score: 0.71, scorePercent: 93.2, scoreFmr: 5.6 }
 */
export async function compareSamples<A extends string, S extends BiometricSample, W>(
  matching: MatchingContext<A, S, W>,
  body: { readonly probe: S; readonly gallery: S; readonly workflow?: W | undefined },
): Promise<ComparisonScore> {
  const algorithm = matching.algorithmOf(body.workflow);
  const [probe, gallery] = await Promise.all([
    matching.vectors(body.probe, 'probe', [algorithm], body.workflow),
    matching.vectors(body.gallery, 'gallery', [algorithm], body.workflow),
  ]);
  const similarity = matching.caches.family.similarity(
    algorithm,
    vectorFor(probe, algorithm, 'probe'),
    vectorFor(gallery, algorithm, 'gallery'),
  );
  return scoreOf(matching.calibrated(algorithm, similarity, body.workflow));
}

/**
 * `/verify`: 1:1 comparison of a sample with one encounter of the customer's cache.
 *
 * @example
 * await verifySample(matching, 'acme', 'staff', { id: 'alice', probe: { VISIBLE_FRONTAL: jpegBase64 } });
 * @throws {ApiError} 400 -6 for an id the cache lacks or an encounter without the algorithm's
 *   template; 500 when its stored template cannot be read
 */
export async function verifySample<A extends string, S extends BiometricSample, W>(
  matching: MatchingContext<A, S, W>,
  customer: string,
  cacheName: string,
  body: { readonly probe: S; readonly id: string; readonly workflow?: W | undefined },
): Promise<ComparisonScore> {
  const cache = checkedCache(customer, cacheName);
  const algorithm = matching.algorithmOf(body.workflow);
  const probe = matching.caches.family.scoringVector(
    algorithm,
    vectorFor(await matching.vectors(body.probe, 'probe', [algorithm], body.workflow), algorithm, 'probe'),
  );
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
  return scoreOf(matching.calibrated(algorithm, score, body.workflow));
}

function scoreOf(calibrated: { score: number; scorePercent: number; scoreFmr: number }): ComparisonScore {
  return { score: calibrated.score, scorePercent: calibrated.scorePercent, scoreFmr: calibrated.scoreFmr };
}
