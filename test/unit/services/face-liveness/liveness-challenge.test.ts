import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import {
  enforceLivenessChallenge,
  issueLivenessChallenge,
} from '../../../../src/services/face-liveness/liveness-challenge.js';
import type { FaceLivenessContext } from '../../../../src/services/face-liveness/liveness-context.js';
import { openStore, type Store } from '../../../../src/store/database.js';
import { livenessChallengesRepository } from '../../../../src/store/liveness-challenges.js';
import { testEnvelopeKeys } from '../../../helpers/app.js';
import { context as decisionContext, livenessRequest } from '../../../helpers/liveness-inputs.js';

let store: Store;
before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
});
after(() => store.close());

/** A face-liveness context on a real (in-memory) store with a clock the test sets; no face engine. */
function context(clock: { now: number }): FaceLivenessContext {
  return {
    faceEngine: () => {
      throw new Error('the challenge functions analyse no frame');
    },
    decisionContext: (now) => ({ ...decisionContext(), now, maxSkewMs: 30_000 }),
    envelopeKey: testEnvelopeKeys().key('face-liveness'),
    version: 'test',
    now: () => clock.now,
    challenges: livenessChallengesRepository(store.db),
    challengeSettings: { ttlMs: 60_000, maxOpen: 100, required: false },
  };
}

const rejectsWith = (status: number, code: number, why: RegExp) => (error: unknown) =>
  error instanceof ApiError && error.statusCode === status && error.code === code && why.test(error.description);

describe('face liveness challenges on an injected clock', () => {
  it('accepts a challenge within its lifetime and refuses it from its expiry on', async () => {
    const clock = { now: Date.UTC(2026, 5, 1) };
    const liveness = context(clock);
    const hotel = livenessRequest('hotel4', 1);
    const timely = await issueLivenessChallenge(liveness, 'acme', { workflow: 'hotel4' });
    assert.equal(timely.issuedAt, clock.now);
    assert.equal(timely.expiresAt, clock.now + 60_000);
    clock.now += 59_999;
    await enforceLivenessChallenge(liveness, 'acme', timely.challenge, hotel, [], clock.now);

    const late = await issueLivenessChallenge(liveness, 'acme', { workflow: 'hotel4' });
    clock.now += 60_000;
    await assert.rejects(
      enforceLivenessChallenge(liveness, 'acme', late.challenge, hotel, [], clock.now),
      rejectsWith(400, -6, /challenge expired/),
    );
  });

  it('refuses a request dated before the challenge was issued', async () => {
    const clock = { now: Date.UTC(2026, 5, 2) };
    const liveness = context(clock);
    const issued = await issueLivenessChallenge(liveness, 'acme', { workflow: 'hotel4' });
    // Recorded a minute before the challenge existed (beyond the 30 s clock-skew allowance).
    const recorded = { ...livenessRequest('hotel4', 1), packageTimestamp: issued.issuedAt - 60_000 };
    await assert.rejects(
      enforceLivenessChallenge(liveness, 'acme', issued.challenge, recorded, [], clock.now + 1_000),
      (error: unknown) => error instanceof Error && /before the challenge was issued/.test(error.message),
    );
  });

  it('passes a request without a challenge unless one is required', async () => {
    const liveness = context({ now: Date.UTC(2026, 5, 3) });
    await enforceLivenessChallenge(liveness, 'acme', undefined, livenessRequest('hotel4', 1), [], 0);
    const strict = { ...liveness, challengeSettings: { ...liveness.challengeSettings, required: true } };
    await assert.rejects(
      enforceLivenessChallenge(strict, 'acme', undefined, livenessRequest('hotel4', 1), [], 0),
      rejectsWith(400, -3, /mandatory field missing: 'workflow_data\.challenge'/),
    );
  });
});
