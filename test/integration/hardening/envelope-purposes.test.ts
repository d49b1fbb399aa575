/**
 * Issue 14 item 5, no decryption oracle: `/face-liveness/decrypt` opened anything sealed with the one server
 * key, onboarding's `GET /getPublicKey` key included (`{"secret":1}` sealed with that PEM came back as 200
 * `{"secret":1}`). Now every purpose has its own key pair and is bound into the envelope as AES-GCM
 * additional data: an envelope opens only for the purpose it was sealed for, else 400 -6, never 500.
 */
import assert from 'node:assert/strict';
import { constants, createCipheriv, createPublicKey, publicEncrypt, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { encryptEnvelope, type Envelope } from '../../../src/client/envelope.js';
import { sealFaceFrames } from '../../../src/client/onboarding-client.js';
import { LEGACY_ENVELOPE_ROW } from '../../../src/crypto/server-key-pair.js';
import { serviceByName } from '../../../src/services/index.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { serverKeysRepository } from '../../../src/store/server-keys.js';
import { accessToken, testApp, testEnvelopeKeys, testSeal } from '../../helpers/app.js';
import { assertCodedError } from '../../helpers/http.js';
import { testCustomer } from '../../helpers/stores.js';

const SECRET = { secret: 1 };

/** An envelope as earlier releases sealed it: no additional data at all. */
function sealedWithoutPurpose(payload: string, publicKeyPem: string): Envelope {
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  const p = Buffer.concat([cipher.update(payload, 'utf8'), cipher.final(), cipher.getAuthTag()]);
  const key = publicEncrypt(
    { key: createPublicKey(publicKeyPem), padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    aesKey,
  );
  return { key: key.toString('base64'), iv: iv.toString('base64'), p: p.toString('base64') };
}

/** A refusal of an envelope: coded 400 -6, and nothing of the sealed payload in the answer. */
function assertRefusedEnvelope(response: LightMyRequestResponse, what: string): void {
  assert.equal(response.statusCode, 400, `${what}: ${response.body}`);
  assertCodedError(response, 400, -6, /encrypted package rejected|envelope|cannot be decrypted|authentication/);
  assert.doesNotMatch(response.body, /secret/, what);
}

describe('envelope purposes: no decryption oracle (issue 14 item 5)', () => {
  let store: Store;
  let app: FastifyInstance;
  let headers: Record<string, string>;
  let onboardingPem: string;
  const get = (url: string) => app.inject({ method: 'GET', url, headers });
  const post = (url: string, payload: object) => app.inject({ method: 'POST', url, headers, payload });

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const { client, apiKey } = await testCustomer(store, 'acme');
    app = await testApp({}, { store });
    headers = { authorization: `Bearer ${await accessToken(app, 'acme', client)}`, apikey: apiKey };
    const served = await get('/getPublicKey');
    assert.equal(served.statusCode, 200, served.body);
    onboardingPem = served.body;
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  it("the audit's reproduction: {secret:1} sealed with onboarding's /getPublicKey PEM does not open at /decrypt", async () => {
    assert.equal(onboardingPem, testEnvelopeKeys().key('onboarding').publicKeyPem);
    const attempts: Array<[string, Envelope]> = [
      ['as earlier releases sealed (no additional data)', sealedWithoutPurpose(JSON.stringify(SECRET), onboardingPem)],
      ['sealed for onboarding', encryptEnvelope(JSON.stringify(SECRET), onboardingPem, 'onboarding')],
      ['labelled face-liveness', encryptEnvelope(JSON.stringify(SECRET), onboardingPem, 'face-liveness')],
    ];
    for (const [what, envelope] of attempts) {
      assertRefusedEnvelope(await post('/face-liveness/decrypt', envelope), what);
    }
  });

  it('refuses an onboarding-key envelope on every face-liveness *Encrypted call and on face analysis', async () => {
    const envelope = encryptEnvelope(JSON.stringify(SECRET), onboardingPem, 'onboarding');
    for (const url of [
      '/face-liveness/checkLivenessEncrypted',
      '/face-liveness/analyzeEncrypted',
      '/face-liveness/checkActiveLivenessEncrypted',
      '/face-analysis/autocaptureVideoEncrypted',
    ]) {
      assertRefusedEnvelope(await post(url, envelope), url);
    }
    // Nor does a package sealed for face liveness open at face analysis, or the reverse.
    assertRefusedEnvelope(
      await post('/face-analysis/autocaptureVideoEncrypted', testSeal(JSON.stringify(SECRET), 'face-liveness')),
      'face-liveness package at face analysis',
    );
    assertRefusedEnvelope(
      await post('/face-liveness/decrypt', testSeal(JSON.stringify(SECRET), 'face-analysis')),
      'face-analysis package at face liveness',
    );
  });

  it('serves each service its own public key and opens what is sealed for it', async () => {
    const liveness = await get('/face-liveness/getPublicKey');
    assert.equal(liveness.statusCode, 200, liveness.body);
    assert.match(String(liveness.headers['content-type']), /^text\/plain/);
    assert.equal(liveness.body, testEnvelopeKeys().key('face-liveness').publicKeyPem);
    const analysis = await get('/face-analysis/getPublicKey');
    assert.equal(analysis.body, testEnvelopeKeys().key('face-analysis').publicKeyPem);
    assert.equal(new Set([onboardingPem, liveness.body, analysis.body]).size, 3);

    const opened = await post(
      '/face-liveness/decrypt',
      encryptEnvelope(JSON.stringify(SECRET), liveness.body, 'face-liveness'),
    );
    assert.equal(opened.statusCode, 200, opened.body);
    assert.deepEqual(opened.json(), SECRET);
  });

  it('documents the getPublicKey routes as extensions beyond the spec', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, { summary?: string; description?: string }>>;
    }>();
    for (const path of ['/face-liveness/getPublicKey', '/face-analysis/getPublicKey']) {
      const operation = doc.paths[path]?.get;
      assert.match(operation?.summary ?? '', /^Extension \(not in the spec\)/, path);
      assert.match(operation?.description ?? '', /veriport envelope v1 face-/, path);
    }
  });

  it('refuses onboarding frames sealed for face liveness; opens those sealed for onboarding', async () => {
    const enroll = await post('/onboarding/enrollment/enroll', {
      username: 'eve',
      email: 'eve@example.com',
      phoneNumber: '+15550101',
    });
    assert.equal(enroll.statusCode, 200, enroll.body);
    const { enrollmentToken } = enroll.json<{ enrollmentToken: string }>();
    const device = await post('/onboarding/enrollment/adddevice', { enrollmentToken, deviceId: 'phone-eve' });
    assert.equal(device.statusCode, 200, device.body);

    // Not an image: a frame that opens is refused for its content (-7), one that does not for its envelope (-6).
    const notAnImage = Buffer.from('not an image, but sealed');
    const addFace = (seal: (bytes: Buffer) => Envelope) => {
      const data = sealFaceFrames([{ image: notAnImage, timestamp: Date.now() }], onboardingPem, { username: 'eve' });
      for (const frame of data.video.workflow_data.frames) frame.data = JSON.stringify(seal(notAnImage));
      return post('/onboarding/enrollment/addFace', { enrollmentToken, faceLivenessData: data });
    };
    const livenessPem = testEnvelopeKeys().key('face-liveness').publicKeyPem;
    const wrong: Array<[string, (bytes: Buffer) => Envelope]> = [
      ["face liveness's key and label", (b) => encryptEnvelope(b, livenessPem, 'face-liveness')],
      ["onboarding's key, face liveness's label", (b) => encryptEnvelope(b, onboardingPem, 'face-liveness')],
      ["face liveness's key, onboarding's label", (b) => encryptEnvelope(b, livenessPem, 'onboarding')],
    ];
    for (const [what, seal] of wrong) {
      const response = await addFace(seal);
      assertCodedError(response, 400, -6);
      assert.match(response.json<{ error: { description: string } }>().error.description, /key|authentication/, what);
    }
    const right = await addFace((b) => encryptEnvelope(b, onboardingPem, 'onboarding'));
    assertCodedError(right, 400, -7, /not image data/);
  });
});

describe("envelope keys in the store: the earlier releases' 'envelope' row is the onboarding pair", () => {
  it('keeps serving the pinned key at GET /getPublicKey, and generates a separate face-liveness pair', async () => {
    const store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    try {
      const repository = serverKeysRepository(store.db);
      // What an earlier release stored (a test-sized key, to skip generating one).
      const earlier = testEnvelopeKeys().key('voice-liveness');
      await repository.insertIfAbsent({
        purpose: LEGACY_ENVELOPE_ROW,
        keyId: 'earlier',
        publicKeyPem: earlier.publicKeyPem,
        privateKeyPem: earlier.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      });
      const { client, apiKey } = await testCustomer(store, 'acme');
      const services = [serviceByName('onboarding'), serviceByName('face-liveness')];
      const servedKeys = async (): Promise<{ onboarding: string; liveness: string }> => {
        const app = await testApp({}, { store, services, envelopeKeys: undefined });
        try {
          const headers = { authorization: `Bearer ${await accessToken(app, 'acme', client)}`, apikey: apiKey };
          const onboarding = await app.inject({ method: 'GET', url: '/getPublicKey', headers });
          const liveness = await app.inject({ method: 'GET', url: '/face-liveness/getPublicKey', headers });
          assert.equal(onboarding.statusCode, 200, onboarding.body);
          assert.equal(liveness.statusCode, 200, liveness.body);
          const unopened = encryptEnvelope(JSON.stringify(SECRET), onboarding.body, 'onboarding');
          assertRefusedEnvelope(
            await app.inject({ method: 'POST', url: '/face-liveness/decrypt', headers, payload: unopened }),
            'onboarding envelope at /decrypt',
          );
          return { onboarding: onboarding.body, liveness: liveness.body };
        } finally {
          await app.close();
        }
      };
      const first = await servedKeys();
      assert.equal(first.onboarding, earlier.publicKeyPem);
      assert.notEqual(first.liveness, earlier.publicKeyPem);
      assert.equal((await repository.find('onboarding'))?.publicKeyPem, earlier.publicKeyPem);
      assert.equal((await repository.find(LEGACY_ENVELOPE_ROW))?.publicKeyPem, earlier.publicKeyPem);
      assert.equal((await repository.find('face-liveness'))?.publicKeyPem, first.liveness);
      // A restart (or another replica) loads the same pairs.
      assert.deepEqual(await servedKeys(), first);
    } finally {
      await store.close();
    }
  });
});
