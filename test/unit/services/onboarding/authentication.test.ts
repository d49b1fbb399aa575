import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync, sign, type KeyObject } from 'node:crypto';
import { describe, it } from 'node:test';
import { sha256Hex } from '../../../../src/crypto/secret-hash.js';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import { authenticationFlow } from '../../../../src/services/onboarding/authentication.js';
import { enrollmentFlow } from '../../../../src/services/onboarding/enrollment.js';
import { AUTH_TTL_MS, fakeOnboarding, faceVector, SAMPLE, type FakeOnboarding } from './fake-onboarding-context.js';

const ALICE = { username: 'alice', email: 'alice@example.com', phoneNumber: '+15550100' };

/** Asserts that `call` is refused with `status` and a description matching `why`. */
async function refused(call: Promise<unknown>, status: number, why: RegExp): Promise<void> {
  await assert.rejects(
    call,
    (error: unknown) => error instanceof ApiError && error.statusCode === status && why.test(error.description),
  );
}

/** The device of an enrolled user: signs an authToken as the client would. */
type Signer = (authToken: string) => string;

/**
 * Alice enrolled through the enrollment flow on `phone-1` with the face along axis 0, with an Ed25519
 * key (or, with `hmac`, the returned device secret).
 */
async function enrolledAlice(fake: FakeOnboarding, hmac = false): Promise<{ code: string; signDevice: Signer }> {
  const enrollment = enrollmentFlow(fake.ctx);
  const { enrollmentToken } = await enrollment.enroll('acme', ALICE);
  let signDevice: Signer;
  if (hmac) {
    const { deviceSecret } = await enrollment.addDevice('acme', { enrollmentToken, deviceId: 'phone-1' });
    assert.ok(deviceSecret !== undefined);
    const secret = Buffer.from(deviceSecret, 'base64url');
    signDevice = (token) => createHmac('sha256', secret).update(token).digest('base64url');
  } else {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    const devicePublicKey = publicKey.export({ type: 'spki', format: 'pem' }).toString();
    await enrollment.addDevice('acme', { enrollmentToken, deviceId: 'phone-1', devicePublicKey });
    signDevice = signerOf(privateKey);
  }
  fake.face = { decision: 'LIVE', template: faceVector(0) };
  const { registrationCode } = await enrollment.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
  assert.notEqual(registrationCode, '');
  fake.events.length = 0;
  fake.faceChecks.length = 0;
  return { code: registrationCode, signDevice };
}

const signerOf =
  (privateKey: KeyObject): Signer =>
  (token) =>
    sign(null, Buffer.from(token, 'utf8'), privateKey).toString('base64url');

/** authenticate and verifyDevice: the authentication waits for its face. */
async function deviceVerified(fake: FakeOnboarding) {
  const { code, signDevice } = await enrolledAlice(fake);
  const flow = authenticationFlow(fake.ctx);
  const { authToken } = await flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-1' });
  await flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature: signDevice(authToken) });
  return { flow, authToken, code, signDevice };
}

const stateOf = (fake: FakeOnboarding, authToken: string) =>
  fake.authentications.get(`acme\u0000${sha256Hex(authToken)}`)?.state;
const outcomes = (fake: FakeOnboarding) => fake.events.map((e) => `${e.event}:${e.outcome}`);

describe('authentication flow', () => {
  it('authenticate, verifyDevice, verifyFace: authStatus 1, then 2 on a live matching face', async () => {
    const fake = fakeOnboarding();
    const { code, signDevice } = await enrolledAlice(fake);
    const flow = authenticationFlow(fake.ctx);
    const started = await flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-1' });
    assert.deepEqual(started.requiredChecks, ['verifyDevice', 'verifyFace']);
    const { authToken } = started;
    assert.equal(stateOf(fake, authToken), 'started');
    const device = await flow.verifyDevice('acme', {
      authToken,
      deviceId: 'phone-1',
      signature: signDevice(authToken),
    });
    assert.deepEqual(device, { message: 'device verified', authStatus: 1 });
    const face = await flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE });
    assert.deepEqual([face.livenessResult, face.matchResult, face.authStatus], [true, true, 2]);
    assert.ok(face.matchScore > 0 && face.faceMatchResults.biometricMatchResultList[0]?.fmrScore !== 0);
    assert.deepEqual(face.faceMatchResults.statusMessages, ['face matched']);
    assert.equal(stateOf(fake, authToken), 'complete');
    assert.deepEqual(outcomes(fake), ['authenticate:success', 'verifyDevice:success', 'verifyFace:success']);
  });

  it('verifies an HMAC device by the secret returned at adddevice', async () => {
    const fake = fakeOnboarding();
    const { code, signDevice } = await enrolledAlice(fake, true);
    const flow = authenticationFlow(fake.ctx);
    const { authToken } = await flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-1' });
    await flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature: signDevice(authToken) });
    assert.equal(stateOf(fake, authToken), 'device-verified');
  });

  it('refuses an unknown registration code and a device that is not the enrolled one', async () => {
    const fake = fakeOnboarding();
    const { code } = await enrolledAlice(fake);
    const flow = authenticationFlow(fake.ctx);
    await refused(flow.authenticate('acme', { registrationCode: 'guessed', deviceId: 'phone-1' }), 403, /not recog/);
    await refused(flow.authenticate('globex', { registrationCode: code, deviceId: 'phone-1' }), 403, /not recog/);
    await refused(flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-2' }), 403, /enrolled device/);
    assert.equal(fake.authentications.size, 0);
    assert.deepEqual(fake.events.at(-1), {
      customer: 'acme',
      username: 'alice',
      event: 'authenticate',
      outcome: 'refused',
      detail: 'not the enrolled device',
      deviceId: 'phone-2',
    });
  });

  it('refuses verifyFace before verifyDevice, and every step once the token is used', async () => {
    const fake = fakeOnboarding();
    const { code, signDevice } = await enrolledAlice(fake);
    const flow = authenticationFlow(fake.ctx);
    const { authToken } = await flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-1' });
    await refused(flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE }), 409, /verified first/);
    assert.deepEqual(fake.faceChecks, []);
    const signature = signDevice(authToken);
    await flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature });
    await refused(flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature }), 409, /verified already/);
    await flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE });
    await refused(flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE }), 409, /already used/);
    await refused(flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature }), 409, /already used/);
    assert.equal(fake.faceChecks.length, 1);
    assert.equal(fake.events.filter((e) => e.outcome === 'refused').length, 4);
  });

  it("refuses an unknown authToken, another customer's, and an expired one (410 at the TTL)", async () => {
    const fake = fakeOnboarding();
    const { code, signDevice } = await enrolledAlice(fake);
    const flow = authenticationFlow(fake.ctx);
    const { authToken } = await flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-1' });
    const signature = signDevice(authToken);
    await refused(flow.verifyDevice('acme', { authToken: 'forged', deviceId: 'phone-1', signature }), 404, /unknown/);
    await refused(flow.verifyDevice('globex', { authToken, deviceId: 'phone-1', signature }), 404, /unknown/);
    fake.advance(AUTH_TTL_MS);
    await refused(flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature }), 410, /expired/);
    assert.equal(stateOf(fake, authToken), 'started');
  });

  it('counts a rejected signature or another deviceId, and fails at the attempt limit', async () => {
    const fake = fakeOnboarding();
    const { code, signDevice } = await enrolledAlice(fake);
    const flow = authenticationFlow(fake.ctx);
    const { authToken } = await flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-1' });
    const other = signerOf(generateKeyPairSync('ed25519').privateKey);
    await refused(
      flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature: other(authToken) }),
      403,
      /^signature rejected$/,
    );
    // A signature over another message, and the right signature from another device, are no better.
    await refused(
      flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature: signDevice(`${authToken}x`) }),
      403,
      /^signature rejected$/,
    );
    await refused(
      flow.verifyDevice('acme', { authToken, deviceId: 'phone-2', signature: signDevice(authToken) }),
      403,
      /^deviceId is not the enrolled device; no attempts left/,
    );
    assert.equal(stateOf(fake, authToken), 'failed');
    await refused(
      flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature: signDevice(authToken) }),
      409,
      /attempts used up/,
    );
    assert.deepEqual(outcomes(fake).slice(1), [
      'verifyDevice:failure',
      'verifyDevice:failure',
      'verifyDevice:failure',
      'verifyDevice:refused',
    ]);
  });

  it('runs no match for a sample that is not live, and counts the attempt', async () => {
    const fake = fakeOnboarding();
    const { flow, authToken } = await deviceVerified(fake);
    fake.face = { decision: 'SPOOF', template: faceVector(0) };
    const face = await flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE });
    assert.deepEqual([face.livenessResult, face.matchResult, face.authStatus], [false, false, 1]);
    assert.deepEqual([face.matchScore, face.faceMatchResults.biometricMatchResultList[0]?.fmrScore], [0, 0]);
    assert.deepEqual(face.faceMatchResults.statusMessages, ['liveness: SPOOF; match not run']);
    assert.equal(face.faceLivenessResults.video.liveness_result.decision, 'SPOOF');
    assert.equal(fake.authentications.get(`acme\u0000${sha256Hex(authToken)}`)?.attempts, 1);
    assert.equal(stateOf(fake, authToken), 'device-verified');
  });

  it('a live face that does not match is a failed attempt; at the limit authStatus is 0', async () => {
    const fake = fakeOnboarding();
    fake.setPolicy('acme', { maxAttempts: 2 });
    const { flow, authToken } = await deviceVerified(fake);
    fake.face = { decision: 'LIVE', template: faceVector(1) };
    const first = await flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE });
    assert.deepEqual([first.livenessResult, first.matchResult, first.authStatus], [true, false, 1]);
    assert.deepEqual(first.faceMatchResults.statusMessages, ['face did not match']);
    fake.face = { decision: 'LIVE', template: undefined };
    const second = await flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE });
    assert.deepEqual([second.matchResult, second.authStatus], [false, 0]);
    assert.deepEqual(second.faceMatchResults.statusMessages, ['no usable face in the sample']);
    assert.equal(stateOf(fake, authToken), 'failed');
    assert.deepEqual(outcomes(fake).slice(-2), ['verifyFace:failure', 'verifyFace:failure']);
  });

  it("holds the match to the customer's least score and runs the customer's workflow", async () => {
    const fake = fakeOnboarding();
    const { flow, authToken } = await deviceVerified(fake);
    fake.setPolicy('acme', { matchFmrScore: 6, livenessWorkflow: 'charlie4' });
    // Cosine 0.95 with the enrolled face: -log10(FMR) about 4.6 on the F500 table.
    const probe = faceVector(0);
    probe[0] = 0.95;
    probe[1] = Math.sqrt(1 - 0.95 * 0.95);
    fake.face = { decision: 'LIVE', template: probe };
    const strict = await flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE });
    assert.deepEqual([strict.matchResult, strict.authStatus], [false, 1]);
    assert.ok(strict.matchScore > 0, 'the score of a live sample is reported even when below the policy');
    fake.setPolicy('acme', { matchFmrScore: 4 });
    const lenient = await flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE });
    assert.deepEqual([lenient.matchResult, lenient.authStatus], [true, 2]);
    assert.deepEqual(fake.faceChecks, ['charlie4', 'charlie4']);
  });

  it("refuses verifyFace when the customer's final check is deviceSecurity", async () => {
    const fake = fakeOnboarding();
    fake.setPolicy('acme', { finalCheck: 'deviceSecurity' });
    const { code, signDevice } = await enrolledAlice(fake);
    const flow = authenticationFlow(fake.ctx);
    const started = await flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-1' });
    assert.deepEqual(started.requiredChecks, ['verifyDevice', 'deviceSecurity']);
    const { authToken } = started;
    await flow.verifyDevice('acme', { authToken, deviceId: 'phone-1', signature: signDevice(authToken) });
    await refused(flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE }), 409, /final check is device/);
  });

  it('a re-enrollment ends the authentications in progress and retires the old registration code', async () => {
    const fake = fakeOnboarding();
    const { flow, authToken, code } = await deviceVerified(fake);
    const enrollment = enrollmentFlow(fake.ctx);
    const again = await enrollment.enroll('acme', { ...ALICE, registrationCode: code });
    await enrollment.addDevice('acme', { enrollmentToken: again.enrollmentToken, deviceId: 'phone-2' });
    await enrollment.addFace('acme', { enrollmentToken: again.enrollmentToken, faceLivenessData: SAMPLE });
    await refused(flow.verifyFace('acme', { authToken, faceLivenessData: SAMPLE }), 404, /re-enrolled/);
    await refused(flow.authenticate('acme', { registrationCode: code, deviceId: 'phone-2' }), 403, /not recog/);
  });
});
