import assert from 'node:assert/strict';
import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, it } from 'node:test';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import { authenticationFlow } from '../../../../src/services/onboarding/authentication.js';
import { enrollmentFlow } from '../../../../src/services/onboarding/enrollment.js';
import type { FaceLivenessData } from '../../../../src/services/onboarding/schemas.js';
import { fakeOnboarding, faceVector, SAMPLE, type FakeOnboarding } from './fake-onboarding-context.js';

const ALICE = { username: 'alice', email: 'alice@example.com', phoneNumber: '+15550100' };

async function refused(call: Promise<unknown>, status: number, code: number, why: RegExp): Promise<void> {
  await assert.rejects(
    call,
    (error: unknown) =>
      error instanceof ApiError && error.statusCode === status && error.code === code && why.test(error.description),
  );
}

/** The face sample carrying `nonce` as its challenge. */
function carrying(nonce: string): FaceLivenessData {
  return { video: { workflow_data: { ...SAMPLE.video.workflow_data, challenge: nonce } } };
}

/** An enrollment of `username` with its device added: the face step is next. */
async function pendingEnrollment(fake: FakeOnboarding, username = 'alice', customer = 'acme') {
  const flow = enrollmentFlow(fake.ctx);
  const { enrollmentToken } = await flow.enroll(customer, { ...ALICE, username });
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const devicePublicKey = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  await flow.addDevice(customer, { enrollmentToken, deviceId: `${username}-phone`, devicePublicKey });
  return { flow, enrollmentToken, privateKey };
}

describe('onboarding challenges: enrollment', () => {
  it("binds a challenge to the enrollment: its addFace gets the challenge's terms, once", async () => {
    const fake = fakeOnboarding();
    fake.setPolicy('acme', { livenessWorkflow: 'charlie2' });
    const { flow, enrollmentToken } = await pendingEnrollment(fake);
    const issued = await flow.challenge('acme', { enrollmentToken });
    assert.equal(issued.workflow, 'charlie2');
    assert.equal(issued.screenColours.length, 5);
    assert.equal(issued.expiresAt - issued.issuedAt, 60_000);

    fake.face = { decision: 'SPOOF', template: faceVector(0) };
    const answer = await flow.addFace('acme', { enrollmentToken, faceLivenessData: carrying(issued.challenge) });
    assert.equal(answer.enrollmentStatus, 1);
    assert.deepEqual(fake.faceChallenges[0]?.screenColours, issued.screenColours, 'the face check follows it');
    assert.equal(fake.faceChallenges[0]?.workflow, 'charlie2');

    await refused(
      flow.addFace('acme', { enrollmentToken, faceLivenessData: carrying(issued.challenge) }),
      409,
      409,
      /challenge already used/,
    );
    assert.equal(fake.faceChecks.length, 1, 'a replay never reaches the face check');
    assert.ok(
      fake.events.some((e) => e.event === 'addFace' && e.outcome === 'refused' && /already used/.test(e.detail ?? '')),
    );

    // Without a challenge the sample is judged as before (the challenge is optional by default).
    fake.face = { decision: 'LIVE', template: faceVector(0) };
    const done = await flow.addFace('acme', { enrollmentToken, faceLivenessData: SAMPLE });
    assert.equal(done.enrollmentStatus, 2);
    assert.equal(fake.faceChallenges[1], undefined);
  });

  it('refuses an expired challenge, one of another enrollment or customer, an unknown one', async () => {
    const fake = fakeOnboarding();
    const alice = await pendingEnrollment(fake);
    const bob = await pendingEnrollment(fake, 'bob');
    const mallory = await pendingEnrollment(fake, 'mallory', 'globex');
    const forAlice = await alice.flow.challenge('acme', { enrollmentToken: alice.enrollmentToken });
    const face = (token: string, nonce: string, customer = 'acme') =>
      alice.flow.addFace(customer, { enrollmentToken: token, faceLivenessData: carrying(nonce) });

    await refused(face(bob.enrollmentToken, forAlice.challenge), 403, 403, /another enrollment or authentication/);
    await refused(face(mallory.enrollmentToken, forAlice.challenge, 'globex'), 404, 404, /unknown challenge/);
    await refused(face(alice.enrollmentToken, 'never-issued'), 404, 404, /unknown challenge/);

    fake.advance(60_001);
    await refused(face(alice.enrollmentToken, forAlice.challenge), 410, 410, /challenge expired/);
    assert.equal(fake.faceChecks.length, 0);

    // A new challenge replaces the open one of the same enrollment.
    const first = await alice.flow.challenge('acme', { enrollmentToken: alice.enrollmentToken });
    const second = await alice.flow.challenge('acme', { enrollmentToken: alice.enrollmentToken });
    await refused(face(alice.enrollmentToken, first.challenge), 404, 404, /unknown challenge/);
    await face(alice.enrollmentToken, second.challenge);
    assert.equal(fake.faceChecks.length, 1);
  });

  it('issues only when the face step is next, and requires a challenge when configured', async () => {
    const fake = fakeOnboarding();
    const flow = enrollmentFlow(fake.ctx);
    const { enrollmentToken } = await flow.enroll('acme', ALICE);
    await refused(flow.challenge('acme', { enrollmentToken }), 409, 409, /device must be added first/);
    await refused(flow.challenge('acme', { enrollmentToken: 'nope' }), 404, 404, /unknown enrollmentToken/);

    const pending = await pendingEnrollment(fake, 'carol');
    fake.challengeSettings.required = true;
    await refused(
      pending.flow.addFace('acme', { enrollmentToken: pending.enrollmentToken, faceLivenessData: SAMPLE }),
      400,
      -3,
      /workflow_data\.challenge/,
    );
    fake.challengeSettings.maxOpen = 1;
    await pending.flow.challenge('acme', { enrollmentToken: pending.enrollmentToken });
    const other = await pendingEnrollment(fake, 'dave');
    await refused(
      other.flow.challenge('acme', { enrollmentToken: other.enrollmentToken }),
      429,
      429,
      /too many open challenges/,
    );
  });
});

describe('onboarding challenges: authentication', () => {
  it("binds a challenge to the authentication after verifyDevice; the enrollment's face call refuses it", async () => {
    const fake = fakeOnboarding();
    const enrollment = await pendingEnrollment(fake);
    fake.face = { decision: 'LIVE', template: faceVector(0) };
    const { registrationCode } = await enrollment.flow.addFace('acme', {
      enrollmentToken: enrollment.enrollmentToken,
      faceLivenessData: SAMPLE,
    });
    const auth = authenticationFlow(fake.ctx);
    const { authToken } = await auth.authenticate('acme', { registrationCode, deviceId: 'alice-phone' });
    await refused(auth.challenge('acme', { authToken }), 409, 409, /device must be verified first/);
    const signature = sign(null, Buffer.from(authToken, 'utf8'), enrollment.privateKey).toString('base64url');
    await auth.verifyDevice('acme', { authToken, deviceId: 'alice-phone', signature });

    const issued = await auth.challenge('acme', { authToken });
    assert.deepEqual(issued.screenColours, [], 'hotel2: a nonce without colours');
    const result = await auth.verifyFace('acme', { authToken, faceLivenessData: carrying(issued.challenge) });
    assert.equal(result.authStatus, 2);
    assert.equal(fake.faceChallenges.at(-1)?.workflow, 'hotel2');

    // A fresh enrollment of the same user cannot use an authentication's challenge.
    const { authToken: second } = await auth.authenticate('acme', { registrationCode, deviceId: 'alice-phone' });
    await auth.verifyDevice('acme', {
      authToken: second,
      deviceId: 'alice-phone',
      signature: sign(null, Buffer.from(second, 'utf8'), enrollment.privateKey).toString('base64url'),
    });
    const forAuth = await auth.challenge('acme', { authToken: second });
    const again = await pendingEnrollment(fake);
    await refused(
      again.flow.addFace('acme', {
        enrollmentToken: again.enrollmentToken,
        faceLivenessData: carrying(forAuth.challenge),
      }),
      403,
      403,
      /another enrollment or authentication/,
    );
  });
});
