import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import sharp from 'sharp';
import { encryptEnvelope } from '../../src/client/envelope.js';
import { generateDeviceKey, hmacDevice } from '../../src/client/device-key.js';
import {
  OnboardingApiError,
  OnboardingClient,
  sealFaceFrames,
  type FaceFrame,
} from '../../src/client/onboarding-client.js';
import { onboardingService } from '../../src/services/onboarding/index.js';
import { tokenSigner } from '../../src/services/onboarding/token-signer.js';
import { customersRepository } from '../../src/store/customers.js';
import { openStore, type Store } from '../../src/store/database.js';
import { onboardingEventsRepository } from '../../src/store/onboarding-events.js';
import { onboardingPoliciesRepository } from '../../src/store/onboarding-policies.js';
import { signingKeysRepository } from '../../src/store/signing-keys.js';
import { testApp } from '../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine, type Person } from '../helpers/faces.js';

/** A short sequence of hand-held selfie frames of one person (small motion between frames). */
async function liveFrames(
  person: Person,
  capture: { brightness?: number; margin?: number } = {},
): Promise<FaceFrame[]> {
  const motions = [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }];
  const t0 = Date.now();
  return Promise.all(
    motions.map(async (m, i) => ({ image: await selfieFrame(person, m, capture), timestamp: t0 + i * 100 })),
  );
}

/** Expects a refused call with this status; returns its description. */
async function refused(call: Promise<unknown>, status: number): Promise<string> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OnboardingApiError, String(error));
    assert.equal(error.status, status, error.description);
    return error.description;
  }
  assert.fail(`expected HTTP ${status}`);
}

describe('onboarding: enrollment and authentication through HTTP with the client SDK', () => {
  let store: Store;
  let app: FastifyInstance;
  let baseUrl: string;
  let acme: OnboardingClient;
  let globex: OnboardingClient;
  let acmeWithGlobexKey: OnboardingClient;
  let apiKey: string;
  const frames: Record<string, FaceFrame[]> = {};

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const customers = customersRepository(store.db);
    const clientOf = async (name: string) => {
      await customers.create({ name });
      return { client: await customers.createClient(name), key: await customers.createApiKey(name) };
    };
    const a = await clientOf('acme');
    const g = await clientOf('globex');
    app = await testApp(
      { VERIPORT_AUTH_TTL_SECONDS: '2' },
      { store, services: [onboardingService], faceEngine: testFaceEngine() },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    baseUrl = `http://127.0.0.1:${address.port}`;
    const sdk = (customer: string, c: typeof a, apiKey = c.key.apiKey) =>
      new OnboardingClient({
        baseUrl,
        customer,
        clientId: c.client.clientId,
        clientSecret: c.client.clientSecret,
        apiKey,
      });
    acme = sdk('acme', a);
    apiKey = a.key.apiKey;
    globex = sdk('globex', g);
    acmeWithGlobexKey = sdk('acme', a, g.key.apiKey);
    frames.anna = await liveFrames('anna');
    frames.annaLater = await liveFrames('anna', { brightness: 1.15, margin: 0.35 });
    frames.bella = await liveFrames('bella');
    const still = await selfieFrame('anna');
    frames.still = [0, 1, 2].map((i) => ({ image: still, timestamp: Date.now() + i * 100 }));
  });
  after(async () => {
    await app.close();
    await store.close();
    await closeTestFaceEngine();
  });

  /** Enrolls a person with a fresh P-256 device key; returns the registration code and the device. */
  const enrollPerson = async (client: OnboardingClient, username: string, sample: FaceFrame[], deviceId: string) => {
    const started = await client.enroll({ username, email: `${username}@example.com`, phoneNumber: '+15550100' });
    const device = generateDeviceKey('p256');
    const added = await client.addDevice(started.enrollmentToken, deviceId, device);
    assert.deepEqual(added, { enrollmentStatus: 1, registrationCode: '' });
    const face = await client.addFace(started.enrollmentToken, sample, username);
    return { started, face, device };
  };

  let alice: Awaited<ReturnType<typeof enrollPerson>>;

  it('serves the envelope public key as PEM to authenticated callers only', async () => {
    assert.match(await acme.getPublicKey(), /^-----BEGIN PUBLIC KEY-----/);
    const anonymous = await fetch(`${baseUrl}/getPublicKey`);
    assert.equal(anonymous.status, 401);
  });

  it('enrolls a live face: status 2 and a high-entropy registration code', async () => {
    alice = await enrollPerson(acme, 'alice', frames.anna!, 'phone-alice');
    assert.equal(alice.started.userExistsAlready, false);
    assert.deepEqual(alice.started.requiredChecks, ['addDevice', 'addFace']);
    assert.equal(alice.face.enrollmentStatus, 2, JSON.stringify(alice.face));
    assert.equal(alice.face.livenessResult, true);
    assert.match(alice.face.registrationCode, /^[A-Za-z0-9_-]{43}$/);
    // The enrollment token is single-purpose: the completed enrollment takes no further step.
    await refused(acme.addFace(alice.started.enrollmentToken, frames.anna!, 'alice'), 409);
  });

  it('authenticates the same person on the same device: verifyDevice then verifyFace, authStatus 2', async () => {
    const { authToken, requiredChecks } = await acme.authenticate(alice.face.registrationCode, 'phone-alice');
    assert.deepEqual(requiredChecks, ['verifyDevice', 'verifyFace']);
    assert.deepEqual(await acme.verifyDevice(authToken, 'phone-alice', alice.device), {
      message: 'device verified',
      authStatus: 1,
    });
    const result = await acme.verifyFace(authToken, frames.annaLater!, 'alice');
    assert.equal(result.livenessResult, true, JSON.stringify(result.faceLivenessResults));
    assert.equal(result.matchResult, true, JSON.stringify(result.faceMatchResults));
    assert.equal(result.authStatus, 2);
    assert.ok(result.matchScore > 50, `matchScore ${result.matchScore}`);
    const list = (
      result.faceMatchResults as { biometricMatchResultList: Array<{ modality: string; fmrScore: number }> }
    ).biometricMatchResultList;
    assert.equal(list[0]!.modality, 'FACE');
    assert.ok(list[0]!.fmrScore >= 3);
    // Replaying the used authToken fails at every step.
    await refused(acme.verifyFace(authToken, frames.annaLater!, 'alice'), 409);
    await refused(acme.verifyDevice(authToken, 'phone-alice', alice.device), 409);
  });

  it('refuses another person: live but no match, authStatus stays 1 until the attempts run out', async () => {
    const { authToken } = await acme.authenticate(alice.face.registrationCode, 'phone-alice');
    await acme.verifyDevice(authToken, 'phone-alice', alice.device);
    const result = await acme.verifyFace(authToken, frames.bella!, 'alice');
    assert.equal(result.livenessResult, true);
    assert.equal(result.matchResult, false);
    assert.equal(result.authStatus, 1);
    assert.ok(result.matchScore < 50, `matchScore ${result.matchScore}`);
  });

  it('fails a repeated still frame on liveness and runs no match for it', async () => {
    const { authToken } = await acme.authenticate(alice.face.registrationCode, 'phone-alice');
    await acme.verifyDevice(authToken, 'phone-alice', alice.device);
    const result = await acme.verifyFace(authToken, frames.still!, 'alice');
    assert.equal(result.livenessResult, false);
    assert.equal(result.matchResult, false);
    assert.equal(result.matchScore, 0);
    assert.equal(
      (result.faceLivenessResults as { video: { liveness_result: { decision: string } } }).video.liveness_result
        .decision,
      'SPOOF',
    );
  });

  it("refuses another deviceId, another device's signature, and verifyFace before verifyDevice", async () => {
    assert.match(
      await refused(acme.authenticate(alice.face.registrationCode, 'phone-mallory'), 403),
      /enrolled device/,
    );
    const { authToken } = await acme.authenticate(alice.face.registrationCode, 'phone-alice');
    assert.match(await refused(acme.verifyFace(authToken, frames.anna!, 'alice'), 409), /verifyDevice/);
    assert.match(
      await refused(acme.verifyDevice(authToken, 'phone-alice', generateDeviceKey('p256')), 403),
      /signature rejected/,
    );
    assert.match(await refused(acme.verifyDevice(authToken, 'phone-mallory', alice.device), 403), /enrolled device/);
    // The third failure uses up the attempts: even the right signature is now refused.
    assert.match(
      await refused(acme.verifyDevice(authToken, 'phone-alice', generateDeviceKey('ed25519')), 403),
      /no attempts left/,
    );
    await refused(acme.verifyDevice(authToken, 'phone-alice', alice.device), 409);
  });

  it('expires the authToken (VERIPORT_AUTH_TTL_SECONDS) and refuses an expired bearer token with 401', async () => {
    const { authToken } = await acme.authenticate(alice.face.registrationCode, 'phone-alice');
    await new Promise((resolve) => setTimeout(resolve, 2100));
    assert.match(await refused(acme.verifyDevice(authToken, 'phone-alice', alice.device), 410), /expired/);

    const current = decodeJwt(await acme.token());
    const past = tokenSigner(signingKeysRepository(store.db), 10, () => new Date(Date.now() - 3_600_000));
    const clientId = current.azp ?? current.sub;
    assert.ok(typeof clientId === 'string', 'the token names its client');
    const stale = await past.issue({ issuer: String(current.iss), customer: 'acme', clientId });
    const response = await fetch(`${baseUrl}/onboarding/authentication/authenticate`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stale.access_token}`, apikey: apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ registrationCode: alice.face.registrationCode, deviceId: 'phone-alice' }),
    });
    assert.equal(response.status, 401);
    assert.match(((await response.json()) as { error: { description: string } }).error.description, /EXPIRED/);
  });

  it('expires the enrollmentToken (VERIPORT_ENROLLMENT_TTL_SECONDS)', async () => {
    const shortLived = await testApp(
      { VERIPORT_ENROLLMENT_TTL_SECONDS: '1' },
      { store, services: [onboardingService] },
    );
    try {
      const token = await acme.token();
      const call = (url: string, body: unknown) =>
        shortLived.inject({
          method: 'POST',
          url,
          headers: { authorization: `Bearer ${token}`, apikey: apiKey, host: new URL(baseUrl).host },
          payload: body as object,
        });
      const started = await call('/onboarding/enrollment/enroll', {
        username: 'frank',
        email: 'frank@example.com',
        phoneNumber: '+15550105',
      });
      assert.equal(started.statusCode, 200, started.body);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const late = await call('/onboarding/enrollment/adddevice', {
        enrollmentToken: started.json<{ enrollmentToken: string }>().enrollmentToken,
        deviceId: 'phone-frank',
      });
      assert.equal(late.statusCode, 410, late.body);
      assert.match(late.json<{ error: { description: string } }>().error.description, /expired/);
    } finally {
      await shortLived.close();
    }
  });

  it("keeps tenants apart: another customer's API key is 401, its token cannot reach acme's users", async () => {
    await refused(acmeWithGlobexKey.authenticate(alice.face.registrationCode, 'phone-alice'), 401);
    assert.match(await refused(globex.authenticate(alice.face.registrationCode, 'phone-alice'), 403), /not recognised/);
    const { enrollmentToken } = await acme.enroll({
      username: 'bob',
      email: 'bob@example.com',
      phoneNumber: '+15550101',
    });
    await refused(globex.addDevice(enrollmentToken, 'phone-bob'), 404);
  });

  it('enrolls a device without a key pair by the HMAC fallback', async () => {
    const { enrollmentToken } = await acme.enroll({
      username: 'carol',
      email: 'carol@example.com',
      phoneNumber: '+15550102',
    });
    const added = await acme.addDevice(enrollmentToken, 'web-carol');
    assert.match(added.deviceSecret ?? '', /^[A-Za-z0-9_-]{43}$/);
    const face = await acme.addFace(enrollmentToken, frames.bella!, 'carol');
    assert.equal(face.enrollmentStatus, 2);
    const { authToken } = await acme.authenticate(face.registrationCode, 'web-carol');
    assert.match(
      await refused(
        acme.verifyDevice(authToken, 'web-carol', hmacDevice(Buffer.alloc(32, 7).toString('base64url'))),
        403,
      ),
      /signature/,
    );
    assert.equal((await acme.verifyDevice(authToken, 'web-carol', hmacDevice(added.deviceSecret!))).authStatus, 1);
  });

  it('keeps an enrollment pending on a spoof and fails it when the attempts run out', async () => {
    await onboardingPoliciesRepository(store.db).set('acme', { maxAttempts: 2 });
    try {
      const { enrollmentToken } = await acme.enroll({
        username: 'dave',
        email: 'dave@example.com',
        phoneNumber: '+15550103',
      });
      await acme.addDevice(enrollmentToken, 'phone-dave', generateDeviceKey());
      const first = await acme.addFace(enrollmentToken, frames.still!, 'dave');
      assert.deepEqual([first.livenessResult, first.enrollmentStatus, first.registrationCode], [false, 1, '']);
      assert.match(first.message ?? '', /1 attempt\(s\) left/);
      const second = await acme.addFace(enrollmentToken, frames.still!, 'dave');
      assert.equal(second.enrollmentStatus, 0);
      assert.match(await refused(acme.addFace(enrollmentToken, frames.anna!, 'dave'), 409), /failed/);
    } finally {
      await onboardingPoliciesRepository(store.db).set('acme', { maxAttempts: 3 });
    }
  });

  it('re-enrolls only a matching face, or with the registration code; the old code then stops working', async () => {
    const impostor = await acme.enroll({ username: 'alice', email: 'alice@example.com', phoneNumber: '+15550100' });
    assert.equal(impostor.userExistsAlready, true);
    await acme.addDevice(impostor.enrollmentToken, 'phone-mallory', generateDeviceKey());
    const taken = await acme.addFace(impostor.enrollmentToken, frames.bella!, 'alice');
    assert.deepEqual([taken.livenessResult, taken.enrollmentStatus], [true, 1]);
    assert.match(taken.message ?? '', /does not match/);
    // Alice still authenticates with her code and device.
    assert.ok((await acme.authenticate(alice.face.registrationCode, 'phone-alice')).authToken);

    await refused(
      acme.enroll({
        username: 'alice',
        email: 'alice@example.com',
        phoneNumber: '+1',
        registrationCode: 'not-her-code',
      }),
      403,
    );
    const renewed = await acme.enroll({
      username: 'alice',
      email: 'alice@example.com',
      phoneNumber: '+15550100',
      registrationCode: alice.face.registrationCode,
    });
    const newDevice = generateDeviceKey('ed25519');
    await acme.addDevice(renewed.enrollmentToken, 'phone-alice-2', newDevice);
    const done = await acme.addFace(renewed.enrollmentToken, frames.annaLater!, 'alice');
    assert.equal(done.enrollmentStatus, 2);
    assert.notEqual(done.registrationCode, alice.face.registrationCode);
    await refused(acme.authenticate(alice.face.registrationCode, 'phone-alice'), 403);
    const { authToken } = await acme.authenticate(done.registrationCode, 'phone-alice-2');
    assert.equal((await acme.verifyDevice(authToken, 'phone-alice-2', newDevice)).authStatus, 1);
  });

  it('answers 400 for frames that are not encrypted or not images', async () => {
    const { enrollmentToken } = await acme.enroll({
      username: 'erin',
      email: 'erin@example.com',
      phoneNumber: '+15550104',
    });
    await acme.addDevice(enrollmentToken, 'phone-erin', generateDeviceKey());
    const token = await acme.token();
    const post = (faceLivenessData: unknown) =>
      fetch(`${baseUrl}/onboarding/enrollment/addFace`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, apikey: apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({ enrollmentToken, faceLivenessData }),
      });
    const plain = sealFaceFrames(frames.anna!, await acme.getPublicKey(), { username: 'erin' });
    plain.video.workflow_data.frames[0]!.data = Buffer.from(frames.anna![0]!.image).toString('base64');
    const unencrypted = await post(plain);
    assert.equal(unencrypted.status, 400);
    assert.match(
      ((await unencrypted.json()) as { error: { description: string } }).error.description,
      /encrypted frame/,
    );
    const notImage = sealFaceFrames(frames.anna!, await acme.getPublicKey(), { username: 'erin' });
    notImage.video.workflow_data.frames[0]!.data = JSON.stringify(
      encryptEnvelope(
        await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
          .raw()
          .toBuffer(),
        await acme.getPublicKey(),
        'onboarding',
      ),
    );
    const refusedImage = await post(notImage);
    assert.equal(refusedImage.status, 400);
    assert.equal(((await refusedImage.json()) as { error: { code: number } }).error.code, -7);
    // Bad input costs no attempt: the enrollment is still pending and completes.
    assert.equal((await acme.addFace(enrollmentToken, frames.anna!, 'erin')).enrollmentStatus, 2);
  });

  it('audits every step without biometric data, tokens or codes', async () => {
    const events = await onboardingEventsRepository(store.db).list('acme', 'alice');
    const steps = new Set(events.map((e) => `${e.event}:${e.outcome}`));
    for (const step of [
      'enroll:success',
      'adddevice:success',
      'addFace:success',
      'addFace:failure',
      'authenticate:success',
      'authenticate:refused',
      'verifyDevice:success',
      'verifyDevice:failure',
      'verifyFace:success',
      'verifyFace:failure',
    ]) {
      assert.ok(steps.has(step), `missing ${step} in ${[...steps].join(', ')}`);
    }
    const text = JSON.stringify(events);
    assert.ok(!text.includes(alice.face.registrationCode));
    assert.ok(!text.includes(alice.started.enrollmentToken));
  });
});
