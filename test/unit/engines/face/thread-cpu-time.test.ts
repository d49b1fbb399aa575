import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { threadCpuTime, threadCpuTimeSince } from '../../../../src/engines/face/thread-cpu-time.js';

const LINUX = existsSync('/proc/thread-self/schedstat');

describe('threadCpuTime', () => {
  it('reads this thread’s CPU time and run-queue wait, which never go back', { skip: !LINUX && 'not Linux' }, () => {
    const start = threadCpuTime();
    assert.ok(start !== undefined);
    let x = 0;
    for (let i = 0; i < 2_000_000; i++) x += Math.sqrt(i);
    assert.ok(x > 0);
    const spent = threadCpuTimeSince(start, threadCpuTime());
    assert.ok(spent !== undefined);
    assert.ok(spent.cpuMs > 0, 'the loop ran on this thread');
    assert.ok(spent.runQueueMs >= 0);
  });

  it('gives nothing for an interval with a missing reading', () => {
    assert.equal(threadCpuTimeSince(undefined, { cpuMs: 1, runQueueMs: 0 }), undefined);
    assert.equal(threadCpuTimeSince({ cpuMs: 1, runQueueMs: 0 }, undefined), undefined);
    assert.deepEqual(threadCpuTimeSince({ cpuMs: 1, runQueueMs: 0.5 }, { cpuMs: 4, runQueueMs: 2 }), {
      cpuMs: 3,
      runQueueMs: 1.5,
    });
  });
});
