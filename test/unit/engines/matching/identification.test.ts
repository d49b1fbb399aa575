import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LoadedCache } from '../../../../src/engines/matching/cache-galleries.js';
import { identify } from '../../../../src/engines/matching/identification.js';
import { VectorGallery } from '../../../../src/engines/matching/vector-gallery.js';

const axis = (i: number) => {
  const v = new Float32Array(4);
  v[i] = 1;
  return v;
};

describe('identify', () => {
  it('ranks the gallery of the algorithm, calibrates each hit and lists the encounters it could not score', () => {
    const gallery = new VectorGallery(4, 'float32');
    gallery.add('a', axis(0));
    gallery.add('b', Float32Array.of(0.6, 0.8, 0, 0));
    const cache: LoadedCache<'X1' | 'X2'> = {
      generation: 1,
      galleries: new Map([['X1', gallery]]),
      ids: new Set(['a', 'b', 'c', 'd']),
      unreadable: new Map([['d', 'stored template cannot be read: damaged']]),
    };
    const calibrate = (score: number) => ({ score, scoreFmr: score * 10, scorePercent: score * 100 });
    const found = identify(cache, axis(0), 'X1', calibrate, 5);
    assert.deepEqual(
      found.candidateList.map((c) => [c.id, Math.round(c.scoreFmr * 100) / 100]),
      [
        ['a', 10],
        ['b', 6],
      ],
    );
    assert.deepEqual(found.recordErrors, [
      { id: 'c', error: 'no X1 template (enrolled from a template of another algorithm)' },
      { id: 'd', error: 'stored template cannot be read: damaged' },
    ]);
    const partial = identify(cache, axis(0), 'X1', calibrate, 5, ['b', 'zed']);
    assert.deepEqual(
      partial.candidateList.map((c) => c.id),
      ['b'],
    );
    assert.deepEqual(partial.recordErrors, [{ id: 'zed', error: 'not in the cache' }]);
  });
});
