import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScratchBuffer } from '../../../../src/engines/face/scratch-buffer.js';

describe('scratch buffer', () => {
  it('lends the kept buffer to one caller at a time, and a new one for another size', () => {
    const scratch = new ScratchBuffer();
    const first = scratch.take(12);
    // Out on loan: a second caller gets its own.
    const second = scratch.take(12);
    assert.notEqual(second, first);
    scratch.give(first);
    assert.equal(scratch.take(12), first);
    assert.notEqual(scratch.take(12), first, 'taken again before it came back');
    scratch.give(first);
    const other = scratch.take(6);
    assert.equal(other.length, 6);
    assert.equal(scratch.take(12), first);
  });
});
