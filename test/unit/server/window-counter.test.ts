import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { localThrottleStore } from '../../../src/server/throttle-store.js';
import { windowCounter } from '../../../src/server/window-counter.js';

describe('windowCounter in the process', () => {
  it('counts per key within a window that starts at the first count', async () => {
    let now = 1000;
    const counter = windowCounter(localThrottleStore(), 'test', { windowMs: 100, now: () => now });
    assert.equal(await counter.add('a', 1), 1);
    now = 1099;
    assert.equal(await counter.add('a', 1), 2);
    assert.equal(await counter.add('b', 1), 1);
    now = 1100;
    assert.equal(await counter.add('a', 1), 1, 'a new window');
    assert.equal(await counter.add('b', 1), 2, "b's window started later");
  });

  it('takes back a count within the window, but never opens one by taking back', async () => {
    let now = 0;
    const counter = windowCounter(localThrottleStore(), 'test', { windowMs: 100, now: () => now });
    assert.equal(await counter.add('a', -1), 0);
    assert.equal(await counter.add('a', 1), 1);
    assert.equal(await counter.add('a', -1), 0);
    assert.equal(await counter.add('a', 1), 1);
    now = 100;
    assert.equal(await counter.add('a', -1), 0);
    assert.equal(await counter.add('a', 1), 1);
  });
});
