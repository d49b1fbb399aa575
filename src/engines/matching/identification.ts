import type { CalibratedScore } from '../scoring/calibrated-score.js';
import type { LoadedCache } from './cache-galleries.js';

/** The answer of a 1:N search: the spec's `candidateList` and `recordErrors`. */
export interface IdentifyResult {
  candidateList: Array<{ id: string; score: number; scoreFmr: number; scorePercent: number }>;
  recordErrors: Array<{ id: string; error: string }>;
}

/**
 * 1:N search of a cache (or of the listed ids): the best `size` candidates by score with their calibrated
 * forms (`calibrate`: the algorithm's table), and the encounters that could not be scored (absent from the
 * cache, unreadable, or without a template of the algorithm).
 *
 * @example
 * const calibrate = (score: number) => FACE_TEMPLATES.calibrated('F500', score);
 * identify(await caches.fresh({ customer: 'acme', name: 'staff' }), probeVector, 'F500', calibrate, 10);
 * // { candidateList: [{ id: 'alice', score: 0.93, scoreFmr: 5.1, scorePercent: 85 }], recordErrors: [] }
 */
export function identify<A extends string>(
  cache: LoadedCache<A>,
  probe: Float32Array,
  algorithm: A,
  calibrate: (score: number) => CalibratedScore,
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
  return {
    candidateList: hits.map((hit) => ({ id: hit.id, ...calibrate(hit.score) })),
    recordErrors,
  };
}
