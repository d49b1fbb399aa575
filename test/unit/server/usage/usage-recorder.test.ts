import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageRecorder } from '../../../../src/server/usage/usage-recorder.js';
import type { UsageCountersRepository, UsageIncrement } from '../../../../src/store/usage-counters.js';

function fakeRepository(failTimes = 0) {
  const writes: UsageIncrement[][] = [];
  let failures = failTimes;
  const repository: UsageCountersRepository = {
    addCounts(increments) {
      if (failures > 0) {
        failures -= 1;
        return Promise.reject(new Error('database down'));
      }
      writes.push([...increments]);
      return Promise.resolve();
    },
    list: () => Promise.resolve([]),
    reset: () => Promise.resolve(0),
  };
  return { repository, writes };
}
const log = { warn: () => undefined };

describe('UsageRecorder', () => {
  it('aggregates requests per server, month and endpoint into one batch', async () => {
    const { repository, writes } = fakeRepository();
    let now = new Date('2026-11-30T23:59:59.900Z');
    const usage = new UsageRecorder({ repository, flushIntervalMs: 1000, log, now: () => now });
    usage.record('face-matching', '/version', '');
    usage.record('face-matching', '/version', '');
    usage.record('face-matching', '/compare', '');
    now = new Date('2026-12-01T00:00:00.100Z');
    usage.record('face-matching', '/version', '');
    assert.equal(usage.pendingCount, 4);
    await usage.flush();
    assert.equal(usage.pendingCount, 0);
    assert.equal(writes.length, 1);
    const byKey = Object.fromEntries((writes[0] ?? []).map((c) => [`${c.year}-${c.month} ${c.endpoint}`, c.counter]));
    assert.deepEqual(byKey, { '2026-11 /version': 2, '2026-11 /compare': 1, '2026-12 /version': 1 });
  });

  it('counts each customer on its own row', async () => {
    const { repository, writes } = fakeRepository();
    const usage = new UsageRecorder({ repository, flushIntervalMs: 1000, log });
    usage.record('face-matching', '/compare', 'acme');
    usage.record('face-matching', '/compare', 'acme');
    usage.record('face-matching', '/compare', 'globex');
    usage.record('face-matching', '/compare', '');
    await usage.flush();
    const byCustomer = Object.fromEntries((writes[0] ?? []).map((c) => [c.customer ?? 'none', c.counter]));
    assert.deepEqual(byCustomer, { acme: 2, globex: 1, '': 1 });
  });

  it('keeps the counts of a failed write for the next flush', async () => {
    const { repository, writes } = fakeRepository(1);
    const usage = new UsageRecorder({ repository, flushIntervalMs: 1000, log });
    usage.record('a', '/x', '');
    usage.record('a', '/x', '');
    await assert.rejects(usage.flush(), /database down/);
    usage.record('a', '/x', '');
    assert.equal(usage.pendingCount, 3);
    await usage.flush();
    assert.equal(writes[0]?.[0]?.counter, 3);
  });

  it('writes nothing when nothing was counted, and flushes the rest on stop', async () => {
    const { repository, writes } = fakeRepository();
    const usage = new UsageRecorder({ repository, flushIntervalMs: 1000, log });
    await usage.flush();
    assert.equal(writes.length, 0);
    usage.start();
    usage.record('a', '/x', '');
    await usage.stop();
    assert.equal(writes.length, 1);
  });

  it('flushes on its timer', async () => {
    const { repository, writes } = fakeRepository();
    const usage = new UsageRecorder({ repository, flushIntervalMs: 20, log });
    usage.start();
    usage.record('a', '/x', '');
    await new Promise((resolve) => setTimeout(resolve, 120));
    await usage.stop();
    assert.equal(writes.length, 1);
  });
});
