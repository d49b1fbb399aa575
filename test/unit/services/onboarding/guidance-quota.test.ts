import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { guidanceQuota } from '../../../../src/services/onboarding/guidance-quota.js';

describe('guidanceQuota: live-guidance frames per QR session', () => {
  it('grants max frames per session, then tells the first refusal from the later ones', () => {
    const quota = guidanceQuota(2);
    const until = new Date(Date.now() + 60_000);
    assert.deepEqual(
      [1, 2, 3, 4].map(() => quota.take('session-a', until)),
      ['granted', 'granted', 'exhausted', 'refused'],
    );
    // Another session counts on its own.
    assert.equal(quota.take('session-b', until), 'granted');
    assert.equal(quota.max, 2);
  });

  it('forgets the counts of ended sessions once it holds many', () => {
    let now = 0;
    const quota = guidanceQuota(1, () => now);
    for (let i = 0; i < 300; i++) quota.take(`old-${i}`, new Date(10));
    assert.equal(quota.take('old-0', new Date(10)), 'exhausted');
    now = 20;
    // The sweep runs on the next count once more than 256 sessions are held: old-0 is forgotten with the rest.
    quota.take('new', new Date(100));
    assert.equal(quota.take('old-0', new Date(10)), 'granted');
  });
});
