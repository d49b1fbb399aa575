import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../../../src/crypto/secret-hash.js';
import { matchCode } from '../../../../src/services/onboarding/match-code.js';

describe('the match code of a QR session', () => {
  const session = sha256Hex('session token');
  const phone = sha256Hex('203.0.113.7\nphone A');

  it('is 6 digits, the same for the same session and phone', () => {
    assert.match(matchCode(session, phone), /^\d{6}$/);
    assert.equal(matchCode(session, phone), matchCode(session, phone));
  });

  it('differs with another phone or another session', () => {
    const codes = new Set<string>();
    for (let i = 0; i < 200; i++) codes.add(matchCode(session, sha256Hex(`phone ${i}`)));
    // 200 draws from a million: a collision or two at most, never a constant.
    assert.ok(codes.size >= 198, `${codes.size} distinct codes of 200`);
    assert.notEqual(matchCode(sha256Hex('another session'), phone), matchCode(session, phone));
  });

  it('spreads over the digits (no fixed leading zeros or bias to small numbers)', () => {
    const values = Array.from({ length: 2000 }, (_, i) => Number(matchCode(sha256Hex(`s${i}`), phone)));
    const mean = values.reduce((a, b) => a + b, 0) / values.length;
    // Uniform on [0, 1e6): mean 500000, standard error ~6450 for 2000 draws.
    assert.ok(Math.abs(mean - 500_000) < 30_000, `mean ${mean}`);
  });
});
