import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  biometricEncountersRepository,
  UNSCOPED_CUSTOMER,
  type EncounterTemplates,
} from '../../src/store/biometric-encounters.js';
import { storeBackends, withStore } from '../helpers/stores.js';

const encounter = (id: string, ...algorithms: string[]): EncounterTemplates => ({
  id,
  templates: (algorithms.length ? algorithms : ['F500']).map((algorithm) => ({
    algorithm,
    sealed: Buffer.from(`${id}:${algorithm}`),
  })),
});

for (const backend of storeBackends()) {
  describe(`biometric encounters on ${backend.name}`, () => {
    it('adds all or none, and tracks the generation', async () => {
      await withStore(backend, async (store) => {
        const repo = biometricEncountersRepository(store.db, 'face-matching', UNSCOPED_CUSTOMER);
        assert.equal(await repo.generation('c'), undefined);
        assert.deepEqual(await repo.add('c', [encounter('a', 'F200', 'F500'), encounter('b')], 3), {
          kind: 'added',
          generation: 1,
        });
        assert.deepEqual(await repo.add('c', [encounter('x'), encounter('a')], 10), { kind: 'exists', id: 'a' });
        assert.deepEqual(await repo.add('c', [encounter('x'), encounter('y')], 3), { kind: 'full', limit: 3 });
        assert.deepEqual(await repo.ids('c'), ['a', 'b'], 'refused adds left nothing behind');
        assert.equal(await repo.generation('c'), 1, 'refused adds did not count as changes');
        const loaded = await repo.load('c');
        assert.equal(loaded.generation, 1);
        assert.deepEqual(
          loaded.templates.map((t) => `${t.encounterId}/${t.algorithm}=${Buffer.from(t.sealed).toString()}`).sort(),
          ['a/F200=a:F200', 'a/F500=a:F500', 'b/F500=b:F500'],
        );
        // Another service's caches are separate.
        assert.deepEqual(
          await biometricEncountersRepository(store.db, 'voice-matching', UNSCOPED_CUSTOMER).ids('c'),
          [],
        );
      });
    });

    it('replaces, removes and drops', async () => {
      await withStore(backend, async (store) => {
        const repo = biometricEncountersRepository(store.db, 'face-matching', UNSCOPED_CUSTOMER);
        await repo.add('c', [encounter('a', 'F200', 'F500'), encounter('b')], 10);
        assert.deepEqual(await repo.replace('c', encounter('a', 'F500')), { kind: 'updated', generation: 2 });
        assert.deepEqual(await repo.replace('c', encounter('zz')), { kind: 'absent' });
        assert.equal((await repo.load('c')).templates.filter((t) => t.encounterId === 'a').length, 1);
        assert.equal(await repo.remove('c', 'b'), 3);
        assert.equal(await repo.remove('c', 'b'), undefined);
        assert.deepEqual(await repo.drop('c'), { removed: 1, generation: 4 });
        assert.deepEqual(await repo.ids('c'), []);
      });
    });

    it('holds the limit under concurrent adds', async () => {
      await withStore(backend, async (store) => {
        const repo = biometricEncountersRepository(store.db, 'face-matching', UNSCOPED_CUSTOMER);
        const outcomes = await Promise.all(
          Array.from({ length: 12 }, (_, i) => repo.add('race', [encounter(`e${i}`)], 5)),
        );
        assert.equal(outcomes.filter((o) => o.kind === 'added').length, 5);
        assert.equal((await repo.ids('race')).length, 5);
      });
    });
  });
}
