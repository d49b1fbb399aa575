import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatSessionData, parseSessionData, SessionDataError } from '../../../src/lib/session-data.js';

describe('the QR data plaintext: three &-separated items', () => {
  it('joins and splits host, API key and session token in that order', () => {
    const items = { host: 'https://id.example.com:8443/base', apiKey: 'qrsession.k', sessionToken: 't' };
    assert.equal(formatSessionData(items), 'https://id.example.com:8443/base&qrsession.k&t');
    assert.deepEqual(parseSessionData(formatSessionData(items)), items);
  });

  it('refuses items holding the separator, empty items, and other counts', () => {
    assert.throws(
      () => formatSessionData({ host: 'https://x/?a=1&b=2', apiKey: 'k', sessionToken: 't' }),
      SessionDataError,
    );
    assert.throws(() => formatSessionData({ host: '', apiKey: 'k', sessionToken: 't' }), SessionDataError);
    assert.throws(() => parseSessionData('https://x&k'), /three/);
    assert.throws(() => parseSessionData('https://x&k&t&extra'), /three/);
    assert.throws(() => parseSessionData('https://x&&t'), /empty/);
  });
});
