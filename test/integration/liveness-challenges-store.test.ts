import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../src/crypto/secret-hash.js';
import {
  CHALLENGE_PURGE_AFTER_MS,
  livenessChallengesRepository,
  type ChallengeBinding,
  type StoredChallenge,
} from '../../src/store/liveness-challenges.js';
import { storeBackends, withStore } from '../helpers/stores.js';

const T0 = new Date(Date.UTC(2026, 0, 1, 12));
const at = (ms: number) => new Date(T0.getTime() + ms);
const LIVENESS: ChallengeBinding = { purpose: 'face-liveness', subject: '' };

function challenge(customer: string, changes: Partial<StoredChallenge> = {}): StoredChallenge {
  return {
    customer,
    ...LIVENESS,
    workflow: 'charlie4',
    screenColours: ['SCREEN_COLOR_FF0000', 'SCREEN_COLOR_00FF00', 'SCREEN_COLOR_0000FF'],
    activeWorkflows: [],
    issuedAt: T0,
    expiresAt: at(60_000),
    ...changes,
  };
}

for (const backend of storeBackends()) {
  describe(`liveness challenges on ${backend.name}`, () => {
    it('gives a nonce once: the terms back on first use, then used; expired after its lifetime', async () => {
      await withStore(backend, async (store) => {
        const challenges = livenessChallengesRepository(store.db);
        const nonce = await challenges.issue(challenge('acme'), 10);
        assert.ok(nonce !== undefined && /^[A-Za-z0-9_-]{43}$/.test(nonce), nonce);
        const stored = await store.db.selectFrom('liveness_challenges').select('nonce_hash').execute();
        assert.deepEqual(
          stored.map((r) => r.nonce_hash),
          [sha256Hex(nonce)],
          'only the hash is kept',
        );

        const first = await challenges.redeem('acme', nonce, LIVENESS, at(1_000));
        assert.ok(first.ok);
        assert.deepEqual(first.challenge.screenColours, challenge('acme').screenColours);
        assert.equal(first.challenge.workflow, 'charlie4');
        assert.equal(first.challenge.expiresAt.getTime(), at(60_000).getTime());
        assert.deepEqual(await challenges.redeem('acme', nonce, LIVENESS, at(2_000)), { ok: false, reason: 'used' });

        const late = await challenges.issue(challenge('acme'), 10);
        assert.ok(late !== undefined);
        assert.deepEqual(await challenges.redeem('acme', late, LIVENESS, at(60_000)), { ok: false, reason: 'expired' });
      });
    });

    it("refuses another customer's nonce and one bound elsewhere, without spending it", async () => {
      await withStore(backend, async (store) => {
        const challenges = livenessChallengesRepository(store.db);
        const nonce = await challenges.issue(challenge('acme'), 10);
        assert.ok(nonce !== undefined);
        assert.deepEqual(await challenges.redeem('globex', nonce, LIVENESS, at(1)), { ok: false, reason: 'unknown' });
        assert.deepEqual(await challenges.redeem('', nonce, LIVENESS, at(1)), { ok: false, reason: 'unknown' });
        const enrollment: ChallengeBinding = { purpose: 'onboarding-enrollment', subject: 'token-hash-1' };
        assert.deepEqual(await challenges.redeem('acme', nonce, enrollment, at(1)), { ok: false, reason: 'elsewhere' });
        assert.deepEqual(await challenges.redeem('acme', 'no-such-nonce', LIVENESS, at(1)), {
          ok: false,
          reason: 'unknown',
        });
        assert.ok((await challenges.redeem('acme', nonce, LIVENESS, at(1))).ok, 'still good for its owner');

        const bound = await challenges.issue(challenge('acme', enrollment), 10);
        assert.ok(bound !== undefined);
        const other: ChallengeBinding = { purpose: 'onboarding-enrollment', subject: 'token-hash-2' };
        assert.deepEqual(await challenges.redeem('acme', bound, other, at(1)), { ok: false, reason: 'elsewhere' });
        assert.deepEqual(await challenges.redeem('acme', bound, LIVENESS, at(1)), { ok: false, reason: 'elsewhere' });
        assert.ok((await challenges.redeem('acme', bound, enrollment, at(1))).ok);
      });
    });

    it('lets exactly one of many simultaneous uses of a nonce through', async () => {
      await withStore(backend, async (store) => {
        const challenges = livenessChallengesRepository(store.db);
        for (let round = 0; round < 5; round++) {
          const nonce = await challenges.issue(challenge('acme'), 100);
          assert.ok(nonce !== undefined);
          const outcomes = await Promise.all(
            Array.from({ length: 8 }, () => challenges.redeem('acme', nonce, LIVENESS, at(1_000))),
          );
          assert.equal(outcomes.filter((o) => o.ok).length, 1, JSON.stringify(outcomes));
          assert.ok(outcomes.every((o) => o.ok || o.reason === 'used'));
        }
      });
    });

    it('caps open challenges per customer, replaces an enrollment’s open one, purges old rows', async () => {
      await withStore(backend, async (store) => {
        const challenges = livenessChallengesRepository(store.db);
        const first = await challenges.issue(challenge('acme'), 2);
        assert.ok(first !== undefined);
        assert.ok((await challenges.issue(challenge('acme'), 2)) !== undefined);
        assert.equal(await challenges.issue(challenge('acme'), 2), undefined, 'the third open one is refused');
        assert.ok((await challenges.issue(challenge('globex'), 2)) !== undefined, 'other customers are not held');
        assert.ok((await challenges.redeem('acme', first, LIVENESS, at(1))).ok);
        assert.ok((await challenges.issue(challenge('acme'), 2)) !== undefined, 'a used one no longer counts');
        // Expired ones do not count either.
        assert.ok(
          (await challenges.issue(challenge('acme', { issuedAt: at(61_000), expiresAt: at(121_000) }), 2)) !==
            undefined,
        );

        const enrollment: ChallengeBinding = { purpose: 'onboarding-enrollment', subject: 'e1' };
        const old = await challenges.issue(
          challenge('acme', { ...enrollment, issuedAt: at(70_000), expiresAt: at(130_000) }),
          10,
        );
        const fresh = await challenges.issue(
          challenge('acme', { ...enrollment, issuedAt: at(71_000), expiresAt: at(131_000) }),
          10,
        );
        assert.ok(old !== undefined && fresh !== undefined);
        assert.deepEqual(await challenges.redeem('acme', old, enrollment, at(72_000)), {
          ok: false,
          reason: 'unknown',
        });
        assert.ok((await challenges.redeem('acme', fresh, enrollment, at(72_000))).ok);

        const purgeAt = at(131_000 + CHALLENGE_PURGE_AFTER_MS + 1);
        await challenges.issue(
          challenge('acme', { issuedAt: purgeAt, expiresAt: new Date(purgeAt.getTime() + 60_000) }),
          10,
        );
        const left = await store.db.selectFrom('liveness_challenges').select('customer').execute();
        assert.deepEqual(left.map((r) => r.customer).sort(), ['acme', 'globex'], 'acme keeps only the new one');
      });
    });
  });
}
