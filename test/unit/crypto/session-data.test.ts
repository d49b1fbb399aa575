import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { openSessionData } from '../../../src/client/session-data.js';
import { sealSessionData, sessionDataCapacity } from '../../../src/crypto/session-data.js';
import { SessionDataError } from '../../../src/lib/session-data.js';

const rsa = (modulusLength: number) => generateKeyPairSync('rsa', { modulusLength });
const pair2048 = rsa(2048);
const items = { host: 'https://id.example.com', apiKey: 'qrsession.abc', sessionToken: 'token-1' };

describe('QR session data (Doc 1: host&apikey&sessionToken under the private key)', () => {
  it('opens with the public key only: publicDecrypt of one PKCS#1 v1.5 block, base64url', () => {
    const data = sealSessionData(pair2048.privateKey, items);
    assert.match(data, /^[A-Za-z0-9_-]{342}$/, '256 bytes in base64url without padding');
    assert.deepEqual(openSessionData(data, pair2048.publicKey), items);
    assert.deepEqual(openSessionData(`https://id.example.com/capture?data=${data}`, pair2048.publicKey), items);
    // Deterministic padding (block type 1): the same items seal to the same data.
    assert.equal(sealSessionData(pair2048.privateKey, items), data);
  });

  it("refuses another server's key, an altered block, and a link without data", () => {
    const data = sealSessionData(pair2048.privateKey, items);
    assert.throws(() => openSessionData(data, rsa(2048).publicKey), SessionDataError);
    const altered = Buffer.from(data, 'base64url');
    altered[100] = (altered[100] ?? 0) ^ 1;
    assert.throws(() => openSessionData(altered.toString('base64url'), pair2048.publicKey), SessionDataError);
    assert.throws(() => openSessionData('https://id.example.com/capture', pair2048.publicKey), /no data parameter/);
    assert.throws(() => openSessionData('not base64!', pair2048.publicKey), /not base64url/);
  });

  it('holds modulus bytes - 11 in one block, and refuses more', () => {
    assert.equal(sessionDataCapacity(pair2048.privateKey), 245);
    assert.equal(sessionDataCapacity(rsa(3072).privateKey), 373);
    const fits = { ...items, host: `https://${'h'.repeat(245 - 8 - '&qrsession.abc&token-1'.length)}` };
    assert.doesNotThrow(() => sealSessionData(pair2048.privateKey, fits));
    assert.throws(
      () => sealSessionData(pair2048.privateKey, { ...fits, host: `${fits.host}x` }),
      /one RSA block holds 245/,
    );
  });
});
