/**
 * Issue 14, item 2: a frame whose header reads as JPEG or PNG but whose data cannot be decoded (truncated,
 * corrupt PNG data) is a 400 with face liveness's code 139 on every path that analyses
 * liveness frames: checkLiveness, analyze, their encrypted variants, checkActiveLiveness (plain and
 * encrypted), and onboarding's addFace and verifyFace. Never a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { generateDeviceKey } from '../../../src/client/device-key.js';
import { encryptEnvelope } from '../../../src/client/envelope.js';
import { OnboardingApiError, OnboardingClient, type FaceFrame } from '../../../src/client/onboarding-client.js';
import { testCustomer } from '../../helpers/stores.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { testApp, testEnvelopeKeys } from '../../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine } from '../../helpers/faces.js';
import { assertCodedError, httpPost } from '../../helpers/http.js';

let store: Store;
let app: FastifyInstance;
/** A face frame (onboarding enrolls with it) and a plain grey 480×640 frame: quick to analyse. */
let good: Buffer;
let grey: Buffer;
/** Bad frames by name: each reads as a 480×640 JPEG or PNG (or not even that) but cannot be decoded. */
const bad: Record<string, Buffer> = {};
/** A JPEG whose entropy-coded data was overwritten: libjpeg warns but decodes it. */
let corruptJpeg: Buffer;

/** PNG chunks as [offset, type, length]: where a chunk's data lies in the file. */
function pngChunks(png: Buffer): Array<{ offset: number; type: string; length: number }> {
  const chunks = [];
  for (let at = 8; at + 8 <= png.length;) {
    const length = png.readUInt32BE(at);
    chunks.push({ offset: at + 8, type: png.toString('latin1', at + 4, at + 8), length });
    at += 12 + length;
  }
  return chunks;
}

before(async () => {
  good = await selfieFrame('anna');
  grey = await sharp({ create: { width: 480, height: 640, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .jpeg()
    .toBuffer();
  const png = await sharp(good).png().toBuffer();
  const scanStart = good.indexOf(Buffer.from([0xff, 0xda]));
  assert.ok(scanStart > 0);
  // The audit's case: the first 2,000 bytes of a 480×640 JPEG (header complete, scan cut short).
  bad.truncatedJpeg = good.subarray(0, 2000);
  // A complete file whose entropy-coded data was overwritten: the header and the end marker are intact.
  corruptJpeg = Buffer.from(good);
  for (let i = scanStart + 20; i < good.length - 2; i++) corruptJpeg[i] = (i * 7919) & 0xff;
  // PNG: signature and IHDR only, then the header and the start of IDAT, then garbage in IDAT.
  const idat = pngChunks(png).find((c) => c.type === 'IDAT');
  assert.ok(idat !== undefined);
  bad.pngHeaderOnly = png.subarray(0, 33);
  bad.truncatedPng = png.subarray(0, idat.offset + 64);
  bad.corruptPng = Buffer.from(png);
  bad.corruptPng.fill(0x55, idat.offset + 2, idat.offset + idat.length);

  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  app = await testApp({}, { store, faceEngine: testFaceEngine() });
});
after(async () => {
  await app.close();
  await store.close();
  await closeTestFaceEngine();
});

const b64 = (bytes: Buffer) => bytes.toString('base64');

/** A face-liveness request: a grey frame, then `frame` (its description must name frames[1]). */
function livenessRequest(workflow: string, frame: Buffer) {
  return {
    video: {
      meta_data: {},
      workflow_data: {
        workflow,
        frames: [b64(grey), b64(frame)].map((data, i) => ({ data, timestamp: 1000 + i * 100 })),
      },
    },
  };
}

const sealed = (body: unknown) =>
  encryptEnvelope(JSON.stringify(body), testEnvelopeKeys().key('face-liveness').publicKeyPem, 'face-liveness');

describe('hardening: undecodable liveness frames are 400 139', () => {
  it('on checkLiveness, analyze and their encrypted variants', async () => {
    for (const [name, frame] of Object.entries(bad)) {
      const body = livenessRequest('hotel4', frame);
      for (const [url, payload] of [
        ['/checkLiveness', body],
        ['/analyze', body],
        ['/checkLivenessEncrypted', sealed(body)],
        ['/analyzeEncrypted', sealed(body)],
      ] as const) {
        const response = await httpPost(app, `/face-liveness${url}`, payload);
        assert.equal(response.statusCode, 400, `${name} ${url}: ${response.body}`);
        assertCodedError(response, 400, 139, /^frames\[1\]/);
      }
    }
  });

  it('on checkActiveLiveness, plain and encrypted, whichever of the three requests holds the frame', async () => {
    const ok = (workflow: string) => livenessRequest(workflow, grey);
    const inPassive = (frame: Buffer) => [livenessRequest('hotel4', frame), ok('active_left'), ok('active_right')];
    const inActive = (frame: Buffer) => [ok('hotel4'), ok('active_left'), livenessRequest('active_right', frame)];
    const cases: Array<[string, string, object]> = Object.entries(bad).map(([name, frame]) => [
      name,
      '/checkActiveLiveness',
      inPassive(frame),
    ]);
    const [[name, frame] = ['', grey]] = Object.entries(bad);
    cases.push(
      [`${name} in an active request`, '/checkActiveLiveness', inActive(frame)],
      [`${name} in an active request`, '/checkActiveLivenessEncrypted', sealed(inActive(frame))],
      [name, '/checkActiveLivenessEncrypted', sealed(inPassive(frame))],
    );
    for (const [what, url, payload] of cases) {
      const response = await httpPost(app, `/face-liveness${url}`, payload);
      assert.equal(response.statusCode, 400, `${what} ${url}: ${response.body}`);
      assertCodedError(response, 400, 139, /^frames\[1\]/);
    }
  });

  it("assesses a JPEG with corrupt data as far as it decodes: libjpeg's warnings are not refusals", async () => {
    // Some phones' files carry such warnings (extraneous bytes, premature end of a segment); refusing them
    // would refuse real captures. The garbage picture is judged like any other frame.
    const response = await httpPost(app, '/face-liveness/checkLiveness', livenessRequest('hotel4', corruptJpeg));
    assert.equal(response.statusCode, 200, response.body);
  });

  it('still decides a request whose frames all decode', async () => {
    const response = await httpPost(app, '/face-liveness/checkLiveness', livenessRequest('hotel4', grey));
    assert.equal(response.statusCode, 200, response.body);
  });
});

describe('hardening: undecodable onboarding frames are 400 139', () => {
  /** Expects a refused SDK call; returns the error. */
  async function refused(call: Promise<unknown>): Promise<OnboardingApiError> {
    try {
      await call;
    } catch (error) {
      assert.ok(error instanceof OnboardingApiError, String(error));
      return error;
    }
    assert.fail('expected a refusal');
  }
  const sample = (frame: Buffer): FaceFrame[] => {
    const t0 = Date.now();
    return [good, frame].map((image, i) => ({ image, timestamp: t0 + i * 100 }));
  };

  it('on addFace and verifyFace, and the 400 costs no attempt', async () => {
    const { client: credentials, apiKey } = await testCustomer(store, 'acme');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    const client = new OnboardingClient({
      baseUrl: `http://127.0.0.1:${address.port}`,
      customer: 'acme',
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      apiKey,
    });

    const { enrollmentToken } = await client.enroll({
      username: 'ada',
      email: 'ada@example.com',
      phoneNumber: '+15550100',
    });
    const device = generateDeviceKey('p256');
    await client.addDevice(enrollmentToken, 'phone-ada', device);
    for (const [name, frame] of Object.entries(bad)) {
      const error = await refused(client.addFace(enrollmentToken, sample(frame), 'ada'));
      assert.deepEqual([error.status, error.code], [400, 139], `${name}: ${error.description}`);
      assert.match(error.description, /^frames\[1\]/);
    }
    const t0 = Date.now();
    const live = await Promise.all(
      [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }].map(async (m, i) => ({
        image: await selfieFrame('anna', m),
        timestamp: t0 + i * 100,
      })),
    );
    const enrolled = await client.addFace(enrollmentToken, live, 'ada');
    assert.equal(enrolled.enrollmentStatus, 2, JSON.stringify(enrolled));

    const { authToken } = await client.authenticate(enrolled.registrationCode, 'phone-ada');
    await client.verifyDevice(authToken, 'phone-ada', device);
    for (const [name, frame] of Object.entries(bad)) {
      const error = await refused(client.verifyFace(authToken, sample(frame), 'ada'));
      assert.deepEqual([error.status, error.code], [400, 139], `${name}: ${error.description}`);
    }
  });
});
