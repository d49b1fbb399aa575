import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../../../src/crypto/secret-hash.js';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import { enrollmentFlow } from '../../../../src/services/onboarding/enrollment.js';
import { deviceSecretContext } from '../../../../src/services/onboarding/onboarding-context.js';
import {
  ENROLLMENT_TTL_MS,
  fakeOnboarding,
  faceVector,
  SAMPLE,
  type FakeOnboarding,
} from './fake-onboarding-context.js';

const ALICE = { username: 'alice', email: 'alice@example.com', phoneNumber: '+15550100' };
const devicePublicKey = (): string =>
  generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString();

/** Asserts that `call` is refused with `status` and a description matching `why`. */
async function refused(call: Promise<unknown>, status: number, why: RegExp): Promise<void> {
  await assert.rejects(
    call,
    (error: unknown) => error instanceof ApiError && error.statusCode === status && why.test(error.description),
  );
}

/** enroll, then adddevice with a public key: the enrollment waits for its face. */
async function pending(fake: FakeOnboarding, customer = 'acme', user = ALICE) {
  const flow = enrollmentFlow(fake.ctx);
  const { enrollmentToken } = await flow.enroll(customer, user);
  await flow.addDevice(customer, { enrollmentToken, deviceId: 'phone-1', devicePublicKey: devicePublicKey() });
  return { flow, enrollmentToken };
}

/** A user enrolled with the face along `axis`; returns the registration code. */
async function enrolled(fake: FakeOnboarding, axis = 0): Promise<string> {
  const { flow, enrollmentToken } = await pending(fake);
  fake.face = { decision: 'LIVE', template: faceVector(axis) };
  const { registrationCode } = await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
  assert.notEqual(registrationCode, '');
  return registrationCode;
}

const outcomes = (fake: FakeOnboarding) => fake.events.map((e) => `${e.event}:${e.outcome}`);

describe('enrollment flow', () => {
  it('enroll, adddevice, addFace: pending, then complete with a registration code and the user written', async () => {
    const fake = fakeOnboarding();
    const flow = enrollmentFlow(fake.ctx);
    const started = await flow.enroll('acme', ALICE);
    assert.deepEqual([started.userExistsAlready, started.requiredChecks], [false, ['addDevice', 'addFace']]);
    const device = await flow.addDevice('acme', {
      enrollmentToken: started.enrollmentToken,
      deviceId: 'phone-1',
      devicePublicKey: devicePublicKey(),
    });
    assert.deepEqual(device, { enrollmentStatus: 1, registrationCode: '' });
    assert.equal(fake.users.size, 0);
    const face = await flow.addFace('acme', { enrollmentToken: started.enrollmentToken, faceLivenessData: SAMPLE });
    assert.deepEqual([face.livenessResult, face.enrollmentStatus, face.message], [true, 2, undefined]);
    assert.equal(face.livenessResults.video.liveness_result.decision, 'LIVE');
    const row = fake.users.get('acme\u0000alice');
    assert.ok(row !== undefined);
    assert.equal(row.registrationCodeHash, sha256Hex(face.registrationCode));
    assert.deepEqual([row.user.device.deviceId, row.user.device.keyKind], ['phone-1', 'ed25519']);
    assert.deepEqual(outcomes(fake), ['enroll:success', 'adddevice:success', 'addFace:success']);
  });

  it("runs the face check with the customer's workflow, not the one the package names", async () => {
    const fake = fakeOnboarding();
    fake.setPolicy('acme', { livenessWorkflow: 'foxtrot4' });
    const { flow, enrollmentToken } = await pending(fake);
    await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
    assert.deepEqual(fake.faceChecks, ['foxtrot4']);
  });

  it('without a device key returns an HMAC secret once and keeps it sealed to the device', async () => {
    const fake = fakeOnboarding();
    const flow = enrollmentFlow(fake.ctx);
    const { enrollmentToken } = await flow.enroll('acme', ALICE);
    const { deviceSecret } = await flow.addDevice('acme', { enrollmentToken, deviceId: 'phone-1' });
    assert.ok(deviceSecret !== undefined);
    const device = fake.enrollments.get(`acme\u0000${sha256Hex(enrollmentToken)}`)?.device;
    assert.equal(device?.keyKind, 'hmac');
    const opened = fake.ctx.sealer.open(device.key, deviceSecretContext('acme', 'alice', 'phone-1'));
    assert.equal(opened.toString('base64url'), deviceSecret);
  });

  it('refuses a device key that is not P-256 or Ed25519 with a 400', async () => {
    const fake = fakeOnboarding();
    const flow = enrollmentFlow(fake.ctx);
    const { enrollmentToken } = await flow.enroll('acme', ALICE);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' });
    await refused(
      flow.addDevice('acme', { enrollmentToken, deviceId: 'phone-1', devicePublicKey: rsa.toString() }),
      400,
      /P-256/,
    );
    await refused(
      flow.addDevice('acme', { enrollmentToken, deviceId: 'phone-1', devicePublicKey: 'not a key' }),
      400,
      /SPKI/,
    );
    assert.equal(fake.enrollments.get(`acme\u0000${sha256Hex(enrollmentToken)}`)?.state, 'started');
  });

  it('refuses steps out of order, and records each refusal', async () => {
    const fake = fakeOnboarding();
    const flow = enrollmentFlow(fake.ctx);
    const { enrollmentToken } = await flow.enroll('acme', ALICE);
    await refused(flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE }), 409, /device must be added/);
    await flow.addDevice('acme', { enrollmentToken, deviceId: 'phone-1' });
    await refused(flow.addDevice('acme', { enrollmentToken, deviceId: 'phone-2' }), 409, /added already/);
    await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
    // The token is spent: replaying either step is refused.
    await refused(flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE }), 409, /complete already/);
    await refused(flow.addDevice('acme', { enrollmentToken, deviceId: 'phone-1' }), 409, /complete already/);
    assert.deepEqual(outcomes(fake), [
      'enroll:success',
      'addFace:refused',
      'adddevice:success',
      'adddevice:refused',
      'addFace:success',
      'addFace:refused',
      'adddevice:refused',
    ]);
    assert.equal(fake.faceChecks.length, 1);
  });

  it("refuses an unknown token, and another customer's token as unknown", async () => {
    const fake = fakeOnboarding();
    const flow = enrollmentFlow(fake.ctx);
    const { enrollmentToken } = await flow.enroll('acme', ALICE);
    await refused(flow.addDevice('acme', { enrollmentToken: 'forged', deviceId: 'd' }), 404, /unknown/);
    await refused(flow.addDevice('globex', { enrollmentToken, deviceId: 'd' }), 404, /unknown/);
  });

  it('refuses an expired token with 410, at the TTL and not before', async () => {
    const fake = fakeOnboarding();
    const flow = enrollmentFlow(fake.ctx);
    const { enrollmentToken } = await flow.enroll('acme', ALICE);
    fake.advance(ENROLLMENT_TTL_MS - 1);
    await flow.addDevice('acme', { enrollmentToken, deviceId: 'phone-1' });
    fake.advance(1);
    await refused(flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE }), 410, /expired/);
    assert.deepEqual(fake.faceChecks, []);
    assert.equal(fake.events.at(-1)?.outcome, 'refused');
  });

  it('a sample that is not live, or has no usable face, counts an attempt and writes no user', async () => {
    const fake = fakeOnboarding();
    const { flow, enrollmentToken } = await pending(fake);
    fake.face = { decision: 'SPOOF', template: faceVector(0) };
    const spoof = await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
    assert.deepEqual([spoof.livenessResult, spoof.enrollmentStatus, spoof.registrationCode], [false, 1, '']);
    assert.equal(spoof.message, 'face sample not live (SPOOF); 2 attempt(s) left');
    fake.face = { decision: 'LIVE', template: undefined };
    const faceless = await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
    assert.deepEqual([faceless.livenessResult, faceless.enrollmentStatus], [true, 1]);
    assert.equal(faceless.message, 'no usable face in the sample; 1 attempt(s) left');
    assert.equal(fake.users.size, 0);
    assert.equal(fake.events.at(-1)?.detail, 'no usable face in the sample; attempt 2 of 3');
  });

  it("fails the enrollment at the policy's attempt limit; a live sample then is refused", async () => {
    const fake = fakeOnboarding();
    fake.setPolicy('acme', { maxAttempts: 2 });
    const { flow, enrollmentToken } = await pending(fake);
    fake.face = { decision: 'TOO_BLURRY', template: undefined };
    const statuses = [];
    for (let i = 0; i < 2; i++)
      statuses.push((await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE })).enrollmentStatus);
    assert.deepEqual(statuses, [1, 0]);
    fake.face = { decision: 'LIVE', template: faceVector(0) };
    await refused(flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE }), 409, /attempts used up/);
    assert.equal(fake.users.size, 0);
  });

  it('a newer enroll of the same user supersedes the open one', async () => {
    const fake = fakeOnboarding();
    const flow = enrollmentFlow(fake.ctx);
    const first = await flow.enroll('acme', ALICE);
    const second = await flow.enroll('acme', ALICE);
    await refused(flow.addDevice('acme', { enrollmentToken: first.enrollmentToken, deviceId: 'd' }), 409, /newer/);
    await flow.addDevice('acme', { enrollmentToken: second.enrollmentToken, deviceId: 'd' });
  });

  describe('re-enrollment', () => {
    it('without the registration code completes only when the new face matches the enrolled one', async () => {
      const fake = fakeOnboarding();
      const oldCode = await enrolled(fake, 0);
      const { flow, enrollmentToken } = await pending(fake);
      fake.face = { decision: 'LIVE', template: faceVector(1) };
      const other = await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
      assert.deepEqual([other.livenessResult, other.enrollmentStatus], [true, 1]);
      assert.match(other.message ?? '', /does not match the enrolled user/);
      assert.equal(fake.users.get('acme\u0000alice')?.registrationCodeHash, sha256Hex(oldCode));
      fake.face = { decision: 'LIVE', template: faceVector(0) };
      const same = await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
      assert.equal(same.enrollmentStatus, 2);
      // The code is replaced: the old one no longer finds the user.
      assert.equal(fake.users.get('acme\u0000alice')?.registrationCodeHash, sha256Hex(same.registrationCode));
      assert.equal(await fake.ctx.users.findByRegistrationCode('acme', sha256Hex(oldCode)), undefined);
    });

    it("with the user's registration code replaces the face without matching it", async () => {
      const fake = fakeOnboarding();
      const code = await enrolled(fake, 0);
      const flow = enrollmentFlow(fake.ctx);
      const started = await flow.enroll('acme', { ...ALICE, registrationCode: code });
      assert.equal(started.userExistsAlready, true);
      await flow.addDevice('acme', { enrollmentToken: started.enrollmentToken, deviceId: 'phone-2' });
      fake.face = { decision: 'LIVE', template: faceVector(1) };
      const face = await flow.addFace('acme', { enrollmentToken: started.enrollmentToken, faceLivenessData: SAMPLE });
      assert.equal(face.enrollmentStatus, 2);
      assert.equal(fake.users.get('acme\u0000alice')?.user.device.deviceId, 'phone-2');
    });

    it("refuses a registration code that is not the user's, or a code for a user who does not exist", async () => {
      const fake = fakeOnboarding();
      const code = await enrolled(fake, 0);
      const flow = enrollmentFlow(fake.ctx);
      const bob = { ...ALICE, username: 'bob' };
      await refused(flow.enroll('acme', { ...bob, registrationCode: code }), 403, /does not belong/);
      await refused(flow.enroll('acme', { ...ALICE, registrationCode: 'guessed' }), 403, /does not belong/);
      await refused(flow.enroll('globex', { ...ALICE, registrationCode: code }), 403, /does not belong/);
      assert.deepEqual(outcomes(fake).slice(-3), ['enroll:refused', 'enroll:refused', 'enroll:refused']);
      assert.equal([...fake.enrollments.values()].filter((e) => e.state === 'started').length, 0);
    });
  });
});
