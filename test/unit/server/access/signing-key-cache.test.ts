import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { signingKeyCache } from '../../../../src/server/access/signing-key-cache.js';
import type { SigningKey, SigningKeysRepository } from '../../../../src/store/signing-keys.js';

/** A store with no key yet, counting the keys it is asked to make. */
function emptyStore(): SigningKeysRepository & { made: number } {
  const store = {
    made: 0,
    keys: [] as SigningKey[],
    active() {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      const key = {
        kid: `k${++store.made}`,
        publicKeyPem: publicKey,
        privateKeyPem: privateKey,
        createdAt: new Date(),
        retiredAt: undefined,
      };
      store.keys.push(key);
      return Promise.resolve(key);
    },
    rotate: () => Promise.reject(new Error('not used')),
    published: () => Promise.resolve([...store.keys]),
  };
  return store;
}

describe('signing key cache', () => {
  it('makes the first key only for the signer; a verifier reads and refuses', async () => {
    const store = emptyStore();
    const verifier = signingKeyCache(store, 300);
    await assert.rejects(verifier.signingKey(), /no active token signing key/);
    assert.deepEqual((await verifier.keyResolver()).jwks(), { keys: [] });
    assert.equal(store.made, 0);

    const signer = signingKeyCache(store, 300, { createFirstKey: true });
    assert.equal((await signer.signingKey()).kid, 'k1');
    assert.equal((await signer.signingKey()).kid, 'k1', 'from the copy');
    assert.equal(store.made, 1);
    assert.deepEqual(
      (await signer.jwks()).keys.map((key) => key.kid),
      ['k1'],
    );
  });
});
