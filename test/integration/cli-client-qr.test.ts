/**
 * `veriport client qr <link>`: the phone's side of a QR hand-over from the command line, run as a user runs
 * it (a `veriport` process from the sources) against a server listening in this test process.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { OnboardingClient } from '../../src/client/onboarding-client.js';
import { onboardingService } from '../../src/services/onboarding/index.js';
import { openStore, type Store } from '../../src/store/database.js';
import { onboardingPoliciesRepository } from '../../src/store/onboarding-policies.js';
import { testApp } from '../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine } from '../helpers/faces.js';
import { runCli } from '../helpers/process.js';
import { testCustomer } from '../helpers/stores.js';

const dir = mkdtempSync(path.join(tmpdir(), 'veriport-cli-qr-'));
const file = (name: string) => path.join(dir, name);

describe('veriport client qr (the phone side of the QR hand-over)', () => {
  let store: Store;
  let app: FastifyInstance;
  let portal: OnboardingClient;
  let strictPortal: OnboardingClient;
  const faces = [file('face-1.jpg'), file('face-2.jpg'), file('face-3.jpg')];
  const laterFaces = [file('later-1.jpg'), file('later-2.jpg'), file('later-3.jpg')];

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const acme = await testCustomer(store, 'acme');
    const initech = await testCustomer(store, 'initech');
    await onboardingPoliciesRepository(store.db).set('initech', { finalCheck: 'deviceSecurity' });
    app = await testApp(
      { VERIPORT_AUTH: 'required' },
      { store, services: [onboardingService], faceEngine: testFaceEngine() },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const sdk = (customer: string, c: typeof acme) =>
      new OnboardingClient({
        baseUrl,
        customer,
        clientId: c.client.clientId,
        clientSecret: c.client.clientSecret,
        apiKey: c.apiKey,
      });
    portal = sdk('acme', acme);
    strictPortal = sdk('initech', initech);
    // The phone app ships with the onboarding public key.
    writeFileSync(file('onboarding-key.pem'), await portal.getPublicKey());
    const motions = [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }];
    for (const [i, motion] of motions.entries()) {
      writeFileSync(faces[i] ?? '', await selfieFrame('anna', motion));
      writeFileSync(laterFaces[i] ?? '', await selfieFrame('anna', motion, { brightness: 1.15, margin: 0.35 }));
    }
  });
  after(async () => {
    await app.close();
    await store.close();
    await closeTestFaceEngine();
    rmSync(dir, { recursive: true, force: true });
  });

  const qr = (link: string, flags: string[], images = faces) =>
    runCli(['client', 'qr', link, '--public-key', file('onboarding-key.pem'), ...flags, ...images], {});

  let registrationCode = '';

  it('enrolls the session user from the link: validateSession (the portal sees the same match code), then enroll, adddevice, addFace', async () => {
    const trigger = await portal.triggerEnroll('cli-alice', 'alice@example.com');
    const run = await qr(trigger.sessionCallbackURL, [
      '--device-id',
      'cli-phone',
      '--device-key',
      file('device-key.pem'),
      '--phone',
      '+15550100',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const steps = JSON.parse(run.stdout) as {
      validateSession: Record<string, unknown>;
      enroll: { userExistsAlready: boolean };
      addFace: { enrollmentStatus: number; registrationCode: string };
    };
    assert.equal(steps.validateSession.methodType, 'enroll');
    assert.equal(steps.validateSession.userName, 'cli-alice');
    assert.equal('accessToken' in steps.validateSession, false, 'the session credential is not printed');
    const status = await portal.sessionStatus(trigger.sessionToken);
    assert.equal(status.state, 'complete');
    assert.equal(status.matchCode, steps.validateSession.matchCode);
    assert.equal(steps.addFace.enrollmentStatus, 2, run.stdout);
    registrationCode = steps.addFace.registrationCode;
    assert.equal(statSync(file('device-key.pem')).mode & 0o777, 0o600, 'the device key is kept private');

    // The link is spent: the same link again is refused (409) before anything is enrolled.
    const replay = await qr(trigger.sessionCallbackURL, [
      '--device-id',
      'cli-phone',
      '--device-key',
      file('device-key.pem'),
      '--phone',
      '+1',
    ]);
    assert.equal(replay.code, 2);
    assert.match(replay.stderr, /409|already/);
  });

  it('authenticates from an authentication link with the enrolled device key, on the QR-flow paths', async () => {
    const trigger = await portal.triggerAuthenticate('cli-alice');
    const run = await qr(
      trigger.sessionCallbackURL,
      ['--device-id', 'cli-phone', '--device-key', file('device-key.pem'), '--registration-code', registrationCode],
      laterFaces,
    );
    assert.equal(run.code, 0, run.stderr);
    const steps = JSON.parse(run.stdout) as {
      validateSession: { methodType: string };
      verifyDevice: { authStatus: number };
      verifyFace: { authStatus: number; matchResult: boolean };
    };
    assert.equal(steps.validateSession.methodType, 'authenticate');
    assert.equal(steps.verifyDevice.authStatus, 1);
    assert.equal(steps.verifyFace.matchResult, true);
    assert.equal(steps.verifyFace.authStatus, 2);
    assert.equal((await portal.sessionStatus(trigger.sessionToken)).state, 'complete');
  });

  it('refuses what it cannot do, with a message and exit status 2', async () => {
    const trigger = await portal.triggerAuthenticate('cli-alice');
    // Neither --phone nor --registration-code: nothing is spent.
    const usage = await qr(trigger.sessionCallbackURL, ['--device-id', 'cli-phone']);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /give --phone for an enrollment link or --registration-code/);
    // No device key on this device for an authentication.
    const keyless = await qr(trigger.sessionCallbackURL, [
      '--device-id',
      'cli-phone',
      '--device-key',
      file('missing.pem'),
      '--registration-code',
      registrationCode,
    ]);
    assert.equal(keyless.code, 2);
    assert.match(keyless.stderr, /no device key in .*missing\.pem: enroll on this device first/);
    // A link made by another server (or altered) does not decrypt with the shipped key.
    const forged = new URL(trigger.sessionCallbackURL);
    forged.searchParams.set('data', Buffer.alloc(256, 7).toString('base64url'));
    const notOurs = await qr(forged.toString(), [
      '--device-id',
      'cli-phone',
      '--device-key',
      file('device-key.pem'),
      '--registration-code',
      registrationCode,
    ]);
    assert.equal(notOurs.code, 2);
    assert.match(notOurs.stderr, /does not decrypt with this public key/);
    // The real link still works after both (nothing was spent).
    assert.equal((await portal.sessionStatus(trigger.sessionToken)).state, 'created');
    // The wrong flow for the link: an authentication link given --phone.
    const wrongFlow = await qr(trigger.sessionCallbackURL, [
      '--device-id',
      'cli-phone',
      '--device-key',
      file('device-key.pem'),
      '--phone',
      '+1',
    ]);
    assert.equal(wrongFlow.code, 2);
    assert.match(wrongFlow.stderr, /hands over 'authenticate', not 'enroll' \(give --registration-code\)/);
  });

  it("stops with a message when the customer's final check is the device-security profile (a browser's signals)", async () => {
    const enrolled = await strictPortal.triggerEnroll('cli-bob', 'bob@example.com');
    const enrollment = await qr(enrolled.sessionCallbackURL, [
      '--device-id',
      'cli-phone-bob',
      '--device-key',
      file('bob-key.pem'),
      '--phone',
      '+15550101',
    ]);
    assert.equal(enrollment.code, 0, enrollment.stderr);
    const code = (JSON.parse(enrollment.stdout) as { addFace: { registrationCode: string } }).addFace.registrationCode;
    const trigger = await strictPortal.triggerAuthenticate('cli-bob');
    const run = await qr(
      trigger.sessionCallbackURL,
      ['--device-id', 'cli-phone-bob', '--device-key', file('bob-key.pem'), '--registration-code', code],
      laterFaces,
    );
    assert.equal(run.code, 2);
    assert.match(run.stderr, /the final check is verifyDevice \+ deviceSecurity/);
    assert.match(run.stderr, /"authStatus": 1/, 'the steps so far are shown');
  });
});
