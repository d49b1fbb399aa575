import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../../../src/lib/json-depth.js';

const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

describe('jsonNestingExceeds', () => {
  it('measures objects and arrays alike, up to the limit inclusive', () => {
    assert.ok(!jsonNestingExceeds('1', 0));
    assert.ok(!jsonNestingExceeds('{"a":[{"b":1}]}', 3));
    assert.ok(jsonNestingExceeds('{"a":[{"b":1}]}', 2));
    assert.ok(!jsonNestingExceeds(nested(MAX_JSON_DEPTH)));
    assert.ok(jsonNestingExceeds(nested(MAX_JSON_DEPTH + 1)));
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    assert.ok(!jsonNestingExceeds('["[[[[", "\\"[[[[", "\\\\"]', 1));
    // An escaped backslash ends the string: the brackets after it count.
    assert.ok(jsonNestingExceeds('["\\\\", [[]]]', 2));
  });

  it('stops at the first level too deep (20 MB of brackets)', () => {
    assert.ok(jsonNestingExceeds(nested(10_000_000)));
  });
});
