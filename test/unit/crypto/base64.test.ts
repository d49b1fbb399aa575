import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isBase64 } from '../../../src/crypto/base64.js';

describe('isBase64', () => {
  it('accepts standard base64, padded or not', () => {
    for (const good of ['', 'aGk=', 'aGk', 'aA==', 'aA', 'aGVsbG8h', 'ab+/']) assert.ok(isBase64(good), good);
  });

  it('refuses other alphabets, junk, a lone character and padding that does not complete the group', () => {
    for (const bad of ['a', 'aGk=aGk=', '-_-_', 'aG k=', 'a$b=', '=', '==', 'aGk==', 'aA=', 'aGVs=', 'aA===', 'é']) {
      assert.ok(!isBase64(bad), bad);
    }
  });

  it('checks 20 M characters without overflowing the stack', () => {
    const long = Buffer.alloc(15_000_000, 7).toString('base64');
    assert.ok(isBase64(long));
    assert.ok(!isBase64(`${long}$`));
  });
});
