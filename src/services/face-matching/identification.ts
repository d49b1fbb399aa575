import type { FaceAlgorithmName } from '../../engines/face/algorithms.js';
import type { LoadedCache } from './cache-galleries.js';
import { calibrated } from '../../engines/face/calibrated-score.js';

export interface IdentifyResult {
  candidateList: Array<{ id: string; score: number; scoreFmr: number; scorePercent: number }>;
  recordErrors: Array<{ id: string; error: string }>;
}

/**
 * 1:N search of a cache (or of the listed ids): the best `size` candidates by score, and the
 * encounters that could not be scored (absent from the cache, unreadable, or without a template of
 * the algorithm).
 *
 * @example
 * identify(await caches.fresh('staff'), probeVector, 'F500', 10);
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
    if (!cache.ids.has(id)) recordErrors.push({ id, error: 'not in the cache' });
    else if (cache.unreadable.has(id)) recordErrors.push({ id, error: cache.unreadable.get(id)! });
    else if (!gallery?.has(id))
      recordErrors.push({ id, error: `no ${algorithm} template (enrolled from a template of another algorithm)` });
  }
  const hits = gallery ? gallery.search(probe, size, wanted) : [];
  return { candidateList: hits.map((hit) => ({ id: hit.id, ...calibrated(algorithm, hit.score) })), recordErrors };
}
