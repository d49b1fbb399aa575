/**
 * Issue 14, items 1 and 8: a real phone photo (a base64 field over ~4.47 M characters overflowed the stack
 * in schema validation: 500) and JSON nested 100,000 deep (parsed, then impossible to serialise: 500) are
 * answered, or refused with a coded 400, never a 5xx.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { encryptEnvelope } from '../../../src/client/envelope.js';
import { generateDeviceKey } from '../../../src/client/device-key.js';
import { OnboardingClient, sealFaceFrames } from '../../../src/client/onboarding-client.js';
import { seededRandom } from '../../../src/lib/seeded-random.js';
import { onboardingService } from '../../../src/services/onboarding/index.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { testCustomer } from '../../helpers/stores.js';
import { testApp, testEnvelopeKeys } from '../../helpers/app.js';
import { closeTestFaceEngine, portrait, selfieFrame, testFaceEngine } from '../../helpers/faces.js';
import { assertCodedError, codedError, httpPost } from '../../helpers/http.js';

/** Above the ~4.47 M characters where the old base64 pattern overflowed the stack. */
const LONG = 4_600_000;

/**
 * A JPEG of `width`×`height` holding anna's face on seeded noise: the noise keeps the file as large as a
 * phone photo of that size (JPEG cannot compress it away).
 */
async function noisyPhoto(width: number, height: number, faceWidth: number, quality: number): Promise<Buffer> {
  const random = seededRandom(14);
  const side = 512;
  const noise = Buffer.alloc(side * side * 3);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.floor(random() * 256);
  const tile = await sharp(noise, { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .composite([
      { input: tile, tile: true, blend: 'soft-light' },
      { input: await portrait('anna', { width: faceWidth }), gravity: 'centre' },
    ])
    .jpeg({ quality })
    .toBuffer();
}

/** `[[[...]]]` nested `depth` deep around `inner`. */
const nested = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

/** Not a 5xx, and a coded error body when it is an error. */
function assertAnswered(response: LightMyRequestResponse, what: string): void {
  assert.ok(response.statusCode < 500, `${what}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  if (response.statusCode !== 200) codedError(response);
}

describe('large base64 fields (issue 14 item 1)', () => {
  let app: FastifyInstance;
  let photo: string;
  let frame: string;
  let anna: string;
  const livenessRequest = (data: string) => ({
    video: { workflow_data: { workflow: 'hotel4', frames: [{ data, timestamp: 0 }] } },
  });

  before(async () => {
    app = await testApp({}, { faceEngine: testFaceEngine() });
    // A 12-megapixel phone photo as the audit sent it (5200×3656, about 5 MB).
    photo = (await noisyPhoto(5200, 3656, 2400, 90)).toString('base64');
    // The largest frame the liveness checks take (4096 a side), as large a file.
    frame = (await noisyPhoto(3072, 4096, 1800, 95)).toString('base64');
    anna = (await portrait('anna')).toString('base64');
    assert.ok(photo.length > LONG && frame.length > LONG, `${photo.length} and ${frame.length} characters`);
  });
  after(async () => {
    await app.close();
    await closeTestFaceEngine();
  });

  it('compares a 5200×3656 JPEG of about 5 MB as the probe', async () => {
    const response = await httpPost(app, '/face-matching/compare', {
      probe: { VISIBLE_FRONTAL: photo },
      gallery: { VISIBLE_FRONTAL: anna },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.ok(response.json<{ scorePercent: number }>().scorePercent >= 50, response.body);
  });

  it('still answers -5 for a long field that is not base64, with the same description', async () => {
    for (const bad of [`${'A'.repeat(LONG)}$`, `${'A'.repeat(LONG + 1)}`, `${'A'.repeat(LONG)}===`]) {
      const response = await httpPost(app, '/face-matching/compare', {
        probe: { VISIBLE_FRONTAL: bad },
        gallery: { VISIBLE_FRONTAL: anna },
      });
      assertCodedError(response, 400, -5, /^field 'probe\.VISIBLE_FRONTAL' is not a valid base64 string$/);
    }
  });

  it('answers a liveness frame of more than 4.5 M characters', async () => {
    assertAnswered(await httpPost(app, '/face-liveness/checkLiveness', livenessRequest(frame)), 'checkLiveness');
  });

  it('answers *Encrypted packages with a field of more than 4.5 M characters', async () => {
    const { publicKey } = testEnvelopeKeys().key('face-liveness');
    const sealed = encryptEnvelope(JSON.stringify(livenessRequest(frame)), publicKey, 'face-liveness');
    assert.ok(sealed.p.length > LONG);
    assertAnswered(await httpPost(app, '/face-liveness/checkLivenessEncrypted', sealed), 'sealed frame');
    // Well-formed base64 that opens to nothing: the envelope is refused, as a short one is.
    const junk = { ...sealed, p: 'A'.repeat(LONG) };
    for (const url of ['/face-liveness/checkLivenessEncrypted', '/face-liveness/analyzeEncrypted']) {
      assertCodedError(await httpPost(app, url, junk), 400, -6, /encrypted package rejected/);
    }
    const decrypted = await httpPost(app, '/face-liveness/decrypt', sealed);
    assert.equal(decrypted.statusCode, 200);
    assert.deepEqual(decrypted.json(), livenessRequest(frame));
  });
});

describe('deeply nested JSON (issue 14 item 8)', () => {
  let app: FastifyInstance;
  const seal = (json: string) =>
    encryptEnvelope(json, testEnvelopeKeys().key('face-liveness').publicKey, 'face-liveness');

  before(async () => {
    app = await testApp();
  });
  after(async () => {
    await app.close();
  });

  it('refuses a sealed package nested 100,000 deep with 400 -2, on /decrypt and the *Encrypted calls', async () => {
    const deep = seal(`{"video":${nested(100_000)}}`);
    for (const url of ['/decrypt', '/checkLivenessEncrypted', '/analyzeEncrypted', '/checkActiveLivenessEncrypted']) {
      assertCodedError(await httpPost(app, `/face-liveness${url}`, deep), 400, -2, /nested deeper than 64 levels/);
    }
  });

  it('opens a package nested 64 deep, the limit', async () => {
    const response = await httpPost(app, '/face-liveness/decrypt', seal(nested(64)));
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.body, nested(64));
    const over = await httpPost(app, '/face-liveness/decrypt', seal(`[${nested(64)}]`));
    assertCodedError(over, 400, -2, /nested deeper than 64/);
  });

  it('refuses request bodies nested deeper than 64 with 400 -2, as JSON and as text/plain', async () => {
    const body = `{"probe":${nested(100_000)}}`;
    for (const contentType of ['application/json', 'application/json; charset=utf-8', 'text/plain']) {
      const response = await httpPost(app, '/face-matching/compare', body, contentType);
      assertCodedError(response, 400, -2, /nested deeper than 64 levels/);
    }
    assertCodedError(await httpPost(app, '/face-liveness/checkLiveness', body, 'application/json'), 400, -2);
    assertCodedError(await httpPost(app, '/face-analysis/analyzeImage', body, 'application/json'), 400, -2);
  });

  it('refuses a 10 M-deep body (20 MB) without building it', async () => {
    const response = await httpPost(app, '/face-matching/compare', nested(10_000_000), 'application/json');
    assertCodedError(response, 400, -2, /nested deeper/);
  });

  it('counts only structure: brackets inside strings and escaped quotes do not nest', async () => {
    const inString = `{"probe":{"VISIBLE_FRONTAL":"${'['.repeat(1000)}\\"${'{'.repeat(1000)}"},"gallery":{}}`;
    assertCodedError(await httpPost(app, '/face-matching/compare', inString, 'application/json'), 400, -5);
    // 64 levels pass the parser and reach the schema (wrong type), 65 do not.
    const atLimit = `{"probe":${nested(63)},"gallery":{}}`;
    assertCodedError(await httpPost(app, '/face-matching/compare', atLimit, 'application/json'), 400, -4);
    const overLimit = `{"probe":${nested(64)},"gallery":{}}`;
    assertCodedError(await httpPost(app, '/face-matching/compare', overLimit, 'application/json'), 400, -2);
  });
});

describe('deeply nested onboarding frame envelope (issue 14 item 8)', () => {
  let store: Store;
  let app: FastifyInstance;

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    app = await testApp({}, { store, services: [onboardingService] });
    await app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  it('refuses a frame whose envelope JSON is nested deeper than 64 with a 400, before parsing it', async () => {
    const { client, apiKey } = await testCustomer(store, 'acme');
    const address = app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const acme = new OnboardingClient({
      baseUrl,
      customer: 'acme',
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      apiKey,
    });
    const { enrollmentToken } = await acme.enroll({
      username: 'erin',
      email: 'erin@example.com',
      phoneNumber: '+1555',
    });
    await acme.addDevice(enrollmentToken, 'phone-erin', generateDeviceKey());
    const image = await selfieFrame('anna');
    const faceLivenessData = sealFaceFrames([{ image, timestamp: Date.now() }], await acme.getPublicKey(), {
      username: 'erin',
    });
    const first = faceLivenessData.video.workflow_data.frames[0];
    assert.ok(first !== undefined);
    first.data = `{"key":${nested(100_000, '""')}}`;
    const response = await fetch(`${baseUrl}/onboarding/enrollment/addFace`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await acme.token()}`, apikey: apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ enrollmentToken, faceLivenessData }),
    });
    const body = (await response.json()) as { error: { code: number; description: string } };
    assert.equal(response.status, 400, JSON.stringify(body));
    assert.equal(body.error.code, -6);
    assert.match(body.error.description, /nested deeper than 64 levels/);
  });
});
