/**
 * Issue 16: onboarding challenges through a listening server with the client SDK, as a phone app would run
 * them: a challenge bound to the enrollment (or authentication) in progress, a sample captured after it that
 * follows it, and the refusals of a replay, a sample that does not follow, and a use elsewhere.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { generateDeviceKey } from '../../src/client/device-key.js';
import { challengeColourSchedule, type LivenessChallenge } from '../../src/client/liveness-challenge.js';
import { OnboardingApiError, OnboardingClient, type FaceFrame } from '../../src/client/onboarding-client.js';
import { screenColourOf } from '../../src/engines/liveness/light-trace.js';
import { customersRepository } from '../../src/store/customers.js';
import { openStore, type Store } from '../../src/store/database.js';
import { onboardingPoliciesRepository } from '../../src/store/onboarding-policies.js';
import { testApp } from '../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine } from '../helpers/faces.js';

let store: Store;
let app: FastifyInstance;
let client: OnboardingClient;
let apiKey: string;
let baseUrl: string;
/** Five hand-held selfie frames of one person. */
let moving: Buffer[] = [];

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const customers = customersRepository(store.db);
  await customers.create({ name: 'acme' });
  const { clientId, clientSecret } = await customers.createClient('acme');
  apiKey = (await customers.createApiKey('acme')).apiKey;
  // The decision under test is the challenge's, not PAD's: the hand-made classifier, for which the synthetic
  // selfies are live (the fixtures test/integration/onboarding-flow.test.ts enrolls with), keeps the flow going.
  app = await testApp(
    { VERIPORT_AUTH: 'required', VERIPORT_PAD_MODEL: 'handmade' },
    { store, faceEngine: testFaceEngine() },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  assert.ok(address !== null && typeof address === 'object');
  baseUrl = `http://127.0.0.1:${address.port}`;
  client = new OnboardingClient({ baseUrl, customer: 'acme', clientId, clientSecret, apiKey });
  const motions = [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }, { dx: 3, dy: 4 }, { dx: -5 }];
  moving = await Promise.all(motions.map((m) => selfieFrame('anna', m)));
});
after(async () => {
  await app.close();
  await store.close();
  await closeTestFaceEngine();
});

/** Frames taken now, each lit by (and tagged with) the colour its tags name: 12% of it over the frame. */
async function capture(tags: ReadonlyArray<readonly string[]>): Promise<FaceFrame[]> {
  const t0 = Date.now();
  return Promise.all(
    tags.map(async (frameTags, i) => {
      const frame = moving[i % moving.length]!;
      const rgb = screenColourOf(frameTags);
      const image =
        rgb === undefined
          ? frame
          : await sharp(frame)
              .composite([
                {
                  input: {
                    create: {
                      width: 480,
                      height: 640,
                      channels: 4,
                      background: { r: rgb[0], g: rgb[1], b: rgb[2], alpha: 0.12 },
                    },
                  },
                },
              ])
              .jpeg({ quality: 90 })
              .toBuffer();
      return { image, timestamp: t0 + i * 100, tags: [...frameTags] };
    }),
  );
}

async function refused(call: Promise<unknown>, status: number, why: RegExp): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof OnboardingApiError, String(error));
    assert.equal(error.status, status, error.description);
    assert.match(error.description, why);
    return true;
  });
}

/** An enrollment of `username` with a fresh device key added: the face step is next. */
async function pendingEnrollment(username: string) {
  const { enrollmentToken } = await client.enroll({ username, email: `${username}@example.com`, phoneNumber: '+1' });
  const device = generateDeviceKey('p256');
  await client.addDevice(enrollmentToken, `${username}-phone`, device);
  return { enrollmentToken, device };
}

describe('onboarding challenges through HTTP with the SDK', () => {
  it('enrolls and authenticates with challenges bound to each flow, refused in another flow', async () => {
    const alice = await pendingEnrollment('alice');
    const challenge = await client.enrollmentChallenge(alice.enrollmentToken);
    assert.equal(challenge.workflow, 'hotel2');
    assert.deepEqual(challenge.screenColours, []);
    assert.equal(challenge.expiresIn, 60);
    const sample = await capture([[]]);
    const enrolled = await client.addFace(alice.enrollmentToken, sample, 'alice', challenge);
    assert.equal(enrolled.enrollmentStatus, 2, JSON.stringify(enrolled));

    const { authToken } = await client.authenticate(enrolled.registrationCode, 'alice-phone');
    await refused(client.authenticationChallenge(authToken), 409, /device must be verified first/);
    await client.verifyDevice(authToken, 'alice-phone', alice.device);
    const forAuth = await client.authenticationChallenge(authToken);
    const verified = await client.verifyFace(authToken, await capture([[]]), 'alice', forAuth);
    assert.equal(verified.authStatus, 2, JSON.stringify(verified));

    // The same nonce again, in a new authentication: spent.
    const { authToken: next } = await client.authenticate(enrolled.registrationCode, 'alice-phone');
    await client.verifyDevice(next, 'alice-phone', alice.device);
    await refused(
      client.verifyFace(next, await capture([[]]), 'alice', forAuth),
      403,
      /another enrollment or authentication/,
    );
    await refused(client.verifyFace(authToken, await capture([[]]), 'alice', forAuth), 409, /authToken already used/);
  });

  it('under a charlie policy: colours drawn by the server, a sample out of order refused and the nonce burnt', async () => {
    await onboardingPoliciesRepository(store.db).set('acme', { livenessWorkflow: 'charlie2' });
    try {
      const bob = await pendingEnrollment('bob');
      const challenge: LivenessChallenge = await client.enrollmentChallenge(bob.enrollmentToken);
      assert.equal(challenge.workflow, 'charlie2');
      assert.equal(challenge.screenColours.length, 5);
      const schedule = challengeColourSchedule(challenge, 5);

      // The first two colours swapped: never the drawn order (no colour follows itself).
      const swapped = [schedule[1]!, schedule[0]!, ...schedule.slice(2)];
      await refused(
        client.addFace(bob.enrollmentToken, await capture(swapped), 'bob', challenge),
        400,
        /challenge not followed: .*in that order/,
      );
      await refused(
        client.addFace(bob.enrollmentToken, await capture(schedule), 'bob', challenge),
        409,
        /challenge already used/,
      );
      const fresh = await client.enrollmentChallenge(bob.enrollmentToken);
      const judged = await client.addFace(
        bob.enrollmentToken,
        await capture(challengeColourSchedule(fresh, 5)),
        'bob',
        fresh,
      );
      assert.equal(typeof judged.livenessResult, 'boolean', 'the sample that follows is judged');

      // An enrollment's challenge is no face-liveness challenge, even for the same customer.
      const other = await client.enrollmentChallenge((await pendingEnrollment('carol')).enrollmentToken);
      const response = await fetch(`${baseUrl}/face-liveness/checkLiveness`, {
        method: 'POST',
        headers: { apikey: apiKey, 'content-type': 'application/json' },
        body: JSON.stringify({
          video: {
            workflow_data: {
              workflow: 'charlie2',
              challenge: other.challenge,
              frames: (await capture(challengeColourSchedule(other, 5))).map((f) => ({
                data: Buffer.from(f.image).toString('base64'),
                timestamp: f.timestamp,
                tags: f.tags,
              })),
            },
          },
        }),
      });
      assert.equal(response.status, 400);
      assert.match(await response.text(), /issued for an onboarding enrollment or authentication/);
    } finally {
      await onboardingPoliciesRepository(store.db).set('acme', { livenessWorkflow: 'hotel2' });
    }
  });
});
