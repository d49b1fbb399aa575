import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { encryptEnvelope } from '../../../src/client/envelope.js';
import { envelopeKeyRing, loadEnvelopeKeyRing } from '../../../src/crypto/envelope-key-ring.js';
import { decryptEnvelope } from '../../../src/crypto/envelope.js';
import { LEGACY_ENVELOPE_ROW } from '../../../src/crypto/server-key-pair.js';
import type { ServerKeysRepository, StoredKeyPair } from '../../../src/store/server-keys.js';
import { testEnvelopeKeys } from '../../helpers/app.js';

/** The server_keys table in a map, with the same insert-if-absent rule. */
function memoryRepository(rows: StoredKeyPair[] = []): ServerKeysRepository & { rows: Map<string, StoredKeyPair> } {
  const map = new Map(rows.map((row) => [row.purpose, row]));
  return {
    rows: map,
    find: (purpose) => Promise.resolve(map.get(purpose)),
    insertIfAbsent(pair) {
      if (!map.has(pair.purpose)) map.set(pair.purpose, pair);
      const stored = map.get(pair.purpose);
      return stored === undefined ? Promise.reject(new Error('vanished')) : Promise.resolve(stored);
    },
  };
}

const pem = () =>
  generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });

const dir = mkdtempSync(path.join(tmpdir(), 'veriport-keys-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('envelope key ring', () => {
  it('holds one pair per purpose and refuses a purpose it was not loaded with', () => {
    const ring = envelopeKeyRing([testEnvelopeKeys().key('face-liveness'), testEnvelopeKeys().key('onboarding')]);
    assert.deepEqual(ring.purposes, ['onboarding', 'face-liveness']);
    assert.equal(ring.key('face-liveness').purpose, 'face-liveness');
    assert.throws(() => ring.key('voice-liveness'), /no envelope key pair was loaded for 'voice-liveness'/);
  });

  it('refuses two purposes sharing one key pair, and a purpose given twice', () => {
    const onboarding = testEnvelopeKeys().key('onboarding');
    assert.throws(
      () => envelopeKeyRing([onboarding, { ...onboarding, purpose: 'face-liveness' }]),
      /'onboarding' and 'face-liveness' share one key pair/,
    );
    assert.throws(() => envelopeKeyRing([onboarding, onboarding]), /two key pairs for the envelope purpose/);
  });

  it("adopts the earlier releases' single 'envelope' row as the onboarding pair, keeping the row", async () => {
    const legacy = pem();
    const legacyRow = {
      purpose: LEGACY_ENVELOPE_ROW,
      keyId: 'legacy',
      publicKeyPem: legacy.publicKey,
      privateKeyPem: legacy.privateKey,
    };
    const repository = memoryRepository([legacyRow]);
    const ring = await loadEnvelopeKeyRing(['onboarding'], { repository });
    assert.equal(ring.key('onboarding').publicKeyPem, legacy.publicKey);
    assert.equal(repository.rows.get('onboarding')?.privateKeyPem, legacy.privateKey);
    // Still there for a replica of an earlier release running beside this one.
    assert.deepEqual(repository.rows.get(LEGACY_ENVELOPE_ROW), legacyRow);
    // An envelope sealed the new way with the pinned public key opens as onboarding.
    const envelope = encryptEnvelope('frame', legacy.publicKey, 'onboarding');
    assert.equal(decryptEnvelope(envelope, ring.key('onboarding')).toString(), 'frame');
  });

  it('reads <purpose>.pem from the key directory, the onboarding pair from its own files first', async () => {
    const liveness = pem();
    const onboarding = pem();
    const keyDirectory = path.join(dir, 'keys');
    mkdirSync(keyDirectory);
    writeFileSync(path.join(keyDirectory, 'face-liveness.pem'), liveness.privateKey);
    writeFileSync(path.join(dir, 'onboarding.key'), onboarding.privateKey);
    writeFileSync(path.join(dir, 'onboarding.pub'), onboarding.publicKey);
    const repository = memoryRepository();
    const ring = await loadEnvelopeKeyRing(['onboarding', 'face-liveness'], {
      onboardingFiles: {
        privateKeyFile: path.join(dir, 'onboarding.key'),
        publicKeyFile: path.join(dir, 'onboarding.pub'),
      },
      keyDirectory,
      repository,
    });
    assert.equal(ring.key('face-liveness').publicKeyPem, liveness.publicKey);
    assert.equal(ring.key('onboarding').publicKeyPem, onboarding.publicKey);
    assert.equal(repository.rows.size, 0, 'nothing generated into the store');
    await assert.rejects(
      loadEnvelopeKeyRing(['face-analysis'], { keyDirectory, repository }),
      /no private key for the envelope purpose 'face-analysis': .*face-analysis\.pem does not exist/,
    );
    writeFileSync(path.join(keyDirectory, 'face-analysis.pem'), liveness.privateKey);
    await assert.rejects(
      loadEnvelopeKeyRing(['face-liveness', 'face-analysis'], { keyDirectory, repository }),
      /share one key pair/,
    );
  });
});
