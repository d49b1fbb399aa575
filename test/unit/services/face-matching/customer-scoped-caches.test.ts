import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { exportedTemplateSealer } from '../../../../src/crypto/exported-template-sealing.js';
import { templateSealer } from '../../../../src/crypto/template-sealing.js';
import { verifySample as verifyFace } from '../../../../src/biometric-matching/comparison.js';
import {
  addEncounter,
  addEncounters,
  deleteEncounter,
  dropCache,
  encounterIds,
  updateEncounter,
} from '../../../../src/biometric-matching/encounter-cache.js';
import { identifyInCache } from '../../../../src/biometric-matching/identification.js';
import { FACE_ALGORITHMS, FACE_ALGORITHM_NAMES } from '../../../../src/engines/face/algorithms.js';
import { FACE_TEMPLATES } from '../../../../src/engines/face/face-template-family.js';
import { CacheGalleries } from '../../../../src/engines/matching/cache-galleries.js';
import { encodeTemplate } from '../../../../src/engines/templates/template-codec.js';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import { algorithmOf, type FaceVectors } from '../../../../src/services/face-matching/face-samples.js';
import type { FaceMatchingContext } from '../../../../src/services/face-matching/matching-context.js';
import type { FaceSample } from '../../../../src/services/face-matching/schemas.js';
import type {
  AddOutcome,
  BiometricEncountersRepository,
  EncounterTemplates,
  ReplaceOutcome,
  StoredTemplate,
} from '../../../../src/store/biometric-encounters.js';

/** One stored cache of the fake store: its generation and sealed templates by encounter id. */
interface FakeCache {
  generation: number;
  encounters: Map<string, EncounterTemplates['templates']>;
}

/** An in-memory store of caches by customer, then cache name: what biometric_caches/_templates hold. */
class FakeStore {
  readonly customers = new Map<string, Map<string, FakeCache>>();

  repository(customer: string): BiometricEncountersRepository {
    const cacheOf = (name: string): FakeCache => {
      let caches = this.customers.get(customer);
      if (!caches) this.customers.set(customer, (caches = new Map<string, FakeCache>()));
      let cache = caches.get(name);
      if (!cache) caches.set(name, (cache = { generation: 0, encounters: new Map() }));
      return cache;
    };
    const peek = (name: string) => this.customers.get(customer)?.get(name);
    return {
      customer,
      add(name, encounters, limit): Promise<AddOutcome> {
        const cache = cacheOf(name);
        const existing = encounters.find((e) => cache.encounters.has(e.id));
        if (existing) return Promise.resolve({ kind: 'exists', id: existing.id });
        if (cache.encounters.size + encounters.length > limit) return Promise.resolve({ kind: 'full', limit });
        for (const e of encounters) cache.encounters.set(e.id, e.templates);
        return Promise.resolve({ kind: 'added', generation: (cache.generation += 1) });
      },
      replace(name, encounter): Promise<ReplaceOutcome> {
        const cache = peek(name);
        if (!cache?.encounters.has(encounter.id)) return Promise.resolve({ kind: 'absent' });
        cache.encounters.set(encounter.id, encounter.templates);
        return Promise.resolve({ kind: 'updated', generation: (cache.generation += 1) });
      },
      remove(name, id) {
        const cache = peek(name);
        if (!cache?.encounters.delete(id)) return Promise.resolve(undefined);
        return Promise.resolve((cache.generation += 1));
      },
      drop(name) {
        const cache = cacheOf(name);
        const removed = cache.encounters.size;
        cache.encounters.clear();
        return Promise.resolve({ removed, generation: (cache.generation += 1) });
      },
      ids: (name) => Promise.resolve([...(peek(name)?.encounters.keys() ?? [])].sort()),
      generation: (name) => Promise.resolve(peek(name)?.generation),
      load(name) {
        const cache = peek(name);
        const templates: StoredTemplate[] = [...(cache?.encounters ?? [])].flatMap(([encounterId, stored]) =>
          stored.map((t) => ({ encounterId, algorithm: t.algorithm, sealed: t.sealed })),
        );
        return Promise.resolve({ generation: cache?.generation ?? 0, templates });
      },
    };
  }
}

/** A unit vector along `axis`, for every algorithm: equal axes score 1, different ones 0. */
function vectorsAlong(axis: number): FaceVectors {
  const vectors: FaceVectors = {};
  for (const algorithm of FACE_ALGORITHM_NAMES) {
    const vector = new Float32Array(FACE_ALGORITHMS[algorithm].dimensions);
    vector[axis] = 1;
    vectors[algorithm] = vector;
  }
  return vectors;
}

/** A fake sample: its "image" is the axis of its vector. */
const face = (axis: number) => ({ VISIBLE_FRONTAL: String(axis) });

function fakeMatching(limits: Record<string, number> = {}) {
  const store = new FakeStore();
  const sealer = templateSealer(randomBytes(32));
  const matching: FaceMatchingContext = {
    caches: new CacheGalleries((customer) => store.repository(customer), sealer, 'face-matching', FACE_TEMPLATES),
    limitOf: (cacheName) => limits[cacheName] ?? 100,
    exports: exportedTemplateSealer(randomBytes(32)),
    vectors: (sample: FaceSample) => Promise.resolve(vectorsAlong(Number(sample.VISIBLE_FRONTAL))),
    algorithmOf,
    calibrated: (algorithm, score) => FACE_TEMPLATES.calibrated(algorithm, score),
    hasRawSample: (sample) => sample.VISIBLE_FRONTAL !== undefined,
  };
  return { matching, store, sealer };
}

const invalid = (pattern: RegExp) => (error: unknown) =>
  error instanceof ApiError && error.statusCode === 400 && error.code === -6 && pattern.test(error.description);

describe('face matching per customer scope', () => {
  it("lists, verifies and identifies only in the caller's cache of a name", async () => {
    const { matching } = fakeMatching();
    await addEncounter(matching, 'acme', 'staff', { id: 'alice', ...face(1) });
    await addEncounter(matching, 'acme', 'staff', { id: 'bob', ...face(2) });
    // The same cache name and id for another customer: another cache, not "exists already".
    await addEncounter(matching, 'globex', 'staff', { id: 'alice', ...face(3) });

    assert.deepEqual(await encounterIds(matching, 'acme', 'staff'), ['alice', 'bob']);
    assert.deepEqual(await encounterIds(matching, 'globex', 'staff'), ['alice']);
    assert.deepEqual(await encounterIds(matching, '', 'staff'), []);

    assert.ok((await verifyFace(matching, 'acme', 'staff', { id: 'alice', probe: face(1) })).score > 0.99);
    // globex's alice is another face: acme's probe does not match it.
    assert.ok(Math.abs((await verifyFace(matching, 'globex', 'staff', { id: 'alice', probe: face(1) })).score) < 0.01);
    await assert.rejects(
      verifyFace(matching, 'globex', 'staff', { id: 'bob', probe: face(2) }),
      invalid(/no encounter 'bob' in cache 'staff'/),
    );

    const found = await identifyInCache(matching, 'globex', 'staff', { probe: face(2) });
    assert.deepEqual(
      found.candidateList.map((c) => c.id),
      ['alice'],
    );
    const partial = await identifyInCache(matching, 'globex', 'staff', { probe: face(2) }, ['bob']);
    assert.deepEqual(partial.candidateList, []);
    assert.deepEqual(partial.recordErrors, [{ id: 'bob', error: 'not in the cache' }]);
    assert.equal((await identifyInCache(matching, 'acme', 'staff', { probe: face(2) })).candidateList[0]?.id, 'bob');
  });

  it("neither updates, deletes nor drops another customer's encounters", async () => {
    const { matching } = fakeMatching();
    await addEncounter(matching, 'acme', 'staff', { id: 'alice', ...face(1) });
    await addEncounter(matching, 'acme', 'staff', { id: 'bob', ...face(2) });
    await addEncounter(matching, 'globex', 'staff', { id: 'carol', ...face(3) });

    await assert.rejects(
      updateEncounter(matching, 'globex', 'staff', { id: 'alice', ...face(9) }),
      invalid(/no encounter 'alice'/),
    );
    await assert.rejects(deleteEncounter(matching, 'globex', 'staff', 'bob'), invalid(/no encounter 'bob'/));
    assert.equal(await dropCache(matching, 'globex', 'staff'), 1);
    assert.equal(await dropCache(matching, '', 'staff'), 0);
    assert.deepEqual(await encounterIds(matching, 'acme', 'staff'), ['alice', 'bob']);
    assert.ok((await verifyFace(matching, 'acme', 'staff', { id: 'alice', probe: face(1) })).score > 0.99);
    assert.deepEqual(await encounterIds(matching, 'globex', 'staff'), []);
  });

  it('applies the limit of a cache name to each customer on its own', async () => {
    const { matching } = fakeMatching({ tiny: 1 });
    await addEncounter(matching, 'acme', 'tiny', { id: 'a', ...face(1) });
    await addEncounter(matching, 'globex', 'tiny', { id: 'b', ...face(2) });
    await assert.rejects(
      addEncounters(matching, 'globex', 'tiny', [{ id: 'c', ...face(3) }]),
      invalid(/addBatch takes template encounters/),
    );
    await assert.rejects(
      addEncounter(matching, 'acme', 'tiny', { id: 'c', ...face(3) }),
      (error: unknown) => error instanceof ApiError && error.statusCode === 500 && error.code === 1015,
    );
  });

  it('keeps the galleries of a customer and name pair apart from a pair joining to the same text', async () => {
    const { matching } = fakeMatching();
    const first = { customer: 'a', name: 'b:c' };
    const second = { customer: 'a:b', name: 'c' };
    await matching.caches.add(first, [{ id: 'x', vectors: vectorsAlong(1) }], 10);
    assert.deepEqual([...(await matching.caches.fresh(first)).ids], ['x']);
    assert.deepEqual([...(await matching.caches.fresh(second)).ids], []);
    await matching.caches.add(second, [{ id: 'y', vectors: vectorsAlong(2) }], 10);
    assert.deepEqual([...(await matching.caches.fresh(second)).ids], ['y']);
    assert.deepEqual([...(await matching.caches.fresh(first)).ids], ['x']);
  });

  it("does not open a template moved into another customer's cache; unscoped caches keep their old binding", async () => {
    const { matching, store, sealer } = fakeMatching();
    await addEncounter(matching, 'acme', 'staff', { id: 'alice', ...face(1) });
    const stolen = store.customers.get('acme')?.get('staff')?.encounters.get('alice');
    assert.ok(stolen);
    // Rows copied in the database to another customer's cache of the same name.
    await store.repository('globex').add('staff', [{ id: 'alice', templates: stolen }], 10);
    const moved = await matching.caches.fresh({ customer: 'globex', name: 'staff' });
    assert.match(moved.unreadable.get('alice') ?? '', /cannot be read/);
    await assert.rejects(
      verifyFace(matching, 'globex', 'staff', { id: 'alice', probe: face(1) }),
      (error: unknown) => error instanceof ApiError && error.statusCode === 500,
    );

    // A template sealed before caches had owners (context service/cache/id/algorithm) still opens unscoped.
    const vector = vectorsAlong(4).F500;
    assert.ok(vector);
    const old = sealer.seal(
      encodeTemplate({ modality: 'face', algorithm: 'F500', vector }),
      'face-matching/legacy/dora/F500',
    );
    await store.repository('').add('legacy', [{ id: 'dora', templates: [{ algorithm: 'F500', sealed: old }] }], 10);
    assert.ok((await verifyFace(matching, '', 'legacy', { id: 'dora', probe: face(4) })).score > 0.99);
  });
});
