/**
 * The device-security profile through HTTP (Doc 1 endpoints 6 and 13, issue 18): the collector post, the
 * enrollment and authentication checks under the customer's device policy, their effect on the flows, the
 * QR session's confinement, malformed input and the log.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generateDeviceKey, type DeviceKey } from '../../src/client/device-key.js';
import { openSessionData } from '../../src/client/session-data.js';
import type { DeviceSignals } from '../../src/lib/device-signals.js';
import { parseDevicePolicy } from '../../src/engines/device/device-policy.js';
import { sha256Hex } from '../../src/crypto/secret-hash.js';
import { onboardingService } from '../../src/services/onboarding/index.js';
import { openStore, type Store } from '../../src/store/database.js';
import { devicePoliciesRepository } from '../../src/store/device-policies.js';
import { onboardingEnrollmentsRepository } from '../../src/store/onboarding-enrollments.js';
import { onboardingEventsRepository } from '../../src/store/onboarding-events.js';
import { onboardingPoliciesRepository } from '../../src/store/onboarding-policies.js';
import { accessToken, testApp } from '../helpers/app.js';
import { ORDINARY, recordedSignals } from '../helpers/device-signals.js';
import { testCustomer } from '../helpers/stores.js';

/** A public address the shipped data places in Great Britain (AS20712): a phone on a British line. */
const UK_PHONE = '81.2.69.142';
/** An address on the Tor exit list the test configures. */
const TOR_EXIT = '185.220.101.1';
/**
 * What must never reach the log: the signals, the apSessionIds and the phone's address (the access log writes
 * its network, `remoteNetwork`: request-log-serializer.ts).
 */
const PRIVATE = /a1b2c3d4e5f6|android-|Adreno|Europe\/London|Pixel 8|Linux armv81|81\.2\.69\.142/;
/** Every apSessionId the tests were given. */
const issued: string[] = [];

const dir = mkdtempSync(join(tmpdir(), 'veriport-device-'));
const logLines: string[] = [];
let store: Store;
let app: FastifyInstance;
let acme: Record<string, string>;
let globex: Record<string, string>;

interface Enrolled {
  readonly registrationCode: string;
  readonly deviceId: string;
  readonly device: DeviceKey;
}

/** A user enrolled as a completed enrollment writes it (no face step: these tests never reach one). */
async function seedUser(customer: string, username: string): Promise<Enrolled> {
  const enrollments = onboardingEnrollmentsRepository(store.db);
  const tokenHash = sha256Hex(`seed ${customer} ${username}`);
  await enrollments.start({
    tokenHash,
    customer,
    user: {
      username,
      email: `${username}@example.com`,
      phoneNumber: '+15550100',
      firstName: undefined,
      lastName: undefined,
    },
    codePresented: false,
    expiresAt: new Date(Date.now() + 60_000),
  });
  const device = generateDeviceKey('p256');
  const binding = { deviceId: `phone-${username}`, keyKind: 'p256' as const, key: Buffer.from(device.publicKeyPem) };
  assert.ok(await enrollments.bindDevice(customer, tokenHash, binding));
  const registrationCode = `code-of-${customer}-${username}`;
  assert.ok(
    await enrollments.complete(
      customer,
      tokenHash,
      { device: binding, sealedFaceTemplate: Buffer.from('none'), registrationCodeHash: sha256Hex(registrationCode) },
      new Date(),
    ),
  );
  return { registrationCode, deviceId: binding.deviceId, device };
}

/** The ordinary Android phone of one user: a device identifier of its own (velocity counts per device). */
function phoneOf(username: string): DeviceSignals {
  const { fingerprint } = ORDINARY.androidChrome;
  assert.ok(fingerprint !== null);
  return { ...ORDINARY.androidChrome, fingerprint: { ...fingerprint, visitorId: `android-${username}` } };
}

function post(url: string, headers: Record<string, string>, payload: unknown, remoteAddress = UK_PHONE) {
  return app.inject({ method: 'POST', url, headers, payload: payload as object, remoteAddress });
}

async function collect(signals: DeviceSignals, remoteAddress = UK_PHONE, headers = acme): Promise<string> {
  const response = await post('/onboarding/deviceProfile/signals', headers, signals, remoteAddress);
  assert.equal(response.statusCode, 200, response.body);
  const body = response.json<{ apSessionId: string; expiresIn: number }>();
  assert.match(body.apSessionId, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(body.expiresIn, 900);
  issued.push(body.apSessionId);
  return body.apSessionId;
}

/** authenticate + verifyDevice: an authToken waiting for its final check. */
async function verifiedAuthentication(user: Enrolled, headers = acme): Promise<string> {
  const started = await post('/onboarding/authentication/authenticate', headers, {
    registrationCode: user.registrationCode,
    deviceId: user.deviceId,
  });
  assert.equal(started.statusCode, 200, started.body);
  const { authToken, requiredChecks } = started.json<{ authToken: string; requiredChecks: string[] }>();
  assert.deepEqual(requiredChecks, ['verifyDevice', 'deviceSecurity']);
  const verified = await post('/onboarding/authentication/verifyDevice', headers, {
    authToken,
    signature: user.device.sign(authToken),
    deviceId: user.deviceId,
  });
  assert.equal(verified.statusCode, 200, verified.body);
  return authToken;
}

interface Result {
  errorCode: string | null;
  errorMsg: string | null;
  authStatus?: number;
  enrollmentStatus?: number;
  responseDetail: {
    errorCode: string;
    errorDescription: string;
    transaction_id: string;
    userAttributes: Array<{ attributeType: string; dateCreated: string; values: Record<string, string> }>;
    acquiredAttributes: Array<{ provider: string; attributeType: string; values: Record<string, string> }>;
    userAssertionList: Array<{ provider: string; dateAsserted: string; assertions: Record<string, string> }>;
    mbun: string;
    forwardApiKey: string;
    policyObligation: boolean;
    policyDecision: string;
  };
}

function checkAuthentication(authToken: string, apSessionId: string, headers = acme) {
  return post('/onboarding/authentication/deviceProfile/checkDevice', headers, { authToken, apSessionId });
}

function assertionsOf(response: LightMyRequestResponse): Record<string, string> {
  assert.equal(response.statusCode, 200, response.body);
  return response.json<Result>().responseDetail.userAssertionList[0]?.assertions ?? {};
}

function attribute(result: Result, type: string): string | undefined {
  return result.responseDetail.acquiredAttributes.find((a) => a.attributeType === type)?.values[
    `${type.charAt(0).toLowerCase()}${type.slice(1)}`
  ];
}

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const a = await testCustomer(store, 'acme');
  const g = await testCustomer(store, 'globex');
  const torList = join(dir, 'tor-exits.txt');
  writeFileSync(torList, `# test list\n${TOR_EXIT}\n`);
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  });
  app = await testApp(
    { VERIPORT_AUTH: 'required', VERIPORT_TOR_EXIT_LIST: torList, LOG_LEVEL: 'info' },
    { store, services: [onboardingService], logger: { level: 'info', stream } },
  );
  acme = { authorization: `Bearer ${await accessToken(app, 'acme', a.client)}`, apikey: a.apiKey };
  globex = { authorization: `Bearer ${await accessToken(app, 'globex', g.client)}`, apikey: g.apiKey };
  const policies = onboardingPoliciesRepository(store.db);
  await policies.set('acme', { finalCheck: 'deviceSecurity' });
  await policies.set('globex', { finalCheck: 'deviceSecurity' });
});

after(async () => {
  await app.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('device-security profile through HTTP (Doc 1 endpoints 6, 13)', () => {
  it('authentication: approves an ordinary phone, completes with authStatus 2, and answers the Doc 1 result', async () => {
    const user = await seedUser('acme', 'dora');
    const authToken = await verifiedAuthentication(user);
    const apSessionId = await collect(phoneOf('dora'));
    const response = await checkAuthentication(authToken, apSessionId);
    assert.equal(response.statusCode, 200, response.body);
    const result = response.json<Result>();
    assert.equal(result.authStatus, 2);
    assert.equal(result.errorCode, null);
    assert.equal(result.errorMsg, null);
    const detail = result.responseDetail;
    assert.equal(detail.policyDecision, 'approve');
    assert.equal(detail.policyObligation, false);
    assert.equal(detail.errorCode, '');
    assert.equal(detail.errorDescription, '');
    assert.equal(detail.mbun, 'dora');
    assert.equal(detail.forwardApiKey, '');
    assert.match(detail.transaction_id, /^[0-9a-f-]{36}$/);
    assert.deepEqual(
      detail.userAttributes.map((u) => [u.attributeType, u.values]),
      [['APSessionID', { apSessionId }]],
    );
    assert.match(detail.userAttributes[0]?.dateCreated ?? '', /^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d$/);
    assert.equal(attribute(result, 'TrueIP'), UK_PHONE);
    assert.equal(attribute(result, 'TrueIPGeoCountry'), 'GB');
    assert.equal(attribute(result, 'OperatingSystem'), 'Android');
    assert.equal(attribute(result, 'FuzzyDeviceID'), phoneOf('dora').fingerprint?.visitorId);
    assert.deepEqual(assertionsOf(response), {
      'test.apSessionIDNotReplay': 'pass',
      'detect.tor': 'pass',
      'detect.browserAnomaly': 'pass',
      'detect.knownVPNISP': 'pass',
      'detect.possibleVPNOrTunnel': 'pass',
      'link.timeZone_TrueGeo': 'pass',
      'test.trustedDevice': 'fail',
      'test.trustedDevice28days': 'fail',
      'test.trustedDevice6mo': 'fail',
      'test.gte5Device1d': 'pass',
      'test.gte2Credential1d': 'pass',
      'test.gte3Credential1d': 'pass',
      'test.gte5Credential1d': 'pass',
      'test.gte10Credential1d': 'pass',
      'test.gte20Credential1d': 'pass',
      'test.gte5CredentialDevice1d': 'pass',
      'test.lte3CredentialsDevice7d': 'pass',
    });
    // The authentication is complete: its token is spent, and verifyFace is no final check of it.
    const again = await checkAuthentication(authToken, await collect(phoneOf('dora')));
    assert.equal(again.statusCode, 409);

    // The next authentication from the same phone finds it trusted.
    const next = await checkAuthentication(await verifiedAuthentication(user), await collect(phoneOf('dora')));
    assert.equal(assertionsOf(next)['test.trustedDevice'], 'pass');
    assert.equal(next.json<Result>().authStatus, 2);
  });

  it('rejects a replayed apSessionId: the authentication fails (authStatus 0)', async () => {
    const user = await seedUser('acme', 'rita');
    const apSessionId = await collect(phoneOf('rita'));
    assert.equal(
      (await checkAuthentication(await verifiedAuthentication(user), apSessionId)).json<Result>().authStatus,
      2,
    );
    const authToken = await verifiedAuthentication(user);
    const replay = await checkAuthentication(authToken, apSessionId);
    const result = replay.json<Result>();
    assert.equal(assertionsOf(replay)['test.apSessionIDNotReplay'], 'fail');
    assert.equal(result.responseDetail.policyDecision, 'reject');
    assert.equal(result.errorCode, 'POLICY_REJECT');
    assert.match(result.errorMsg ?? '', /test\.apSessionIDNotReplay failed: reject/);
    assert.equal(result.authStatus, 0);
    const verifyFace = await post('/onboarding/authentication/verifyFace', acme, {
      authToken,
      faceLivenessData: { video: { workflow_data: { frames: [{ data: 'x', timestamp: 1 }] } } },
    });
    assert.equal(verifyFace.statusCode, 409, 'the authentication failed');
  });

  it('reviews a Playwright-driven browser BotD passes, and steps the authentication up to verifyFace', async () => {
    const user = await seedUser('acme', 'paul');
    const authToken = await verifiedAuthentication(user);
    const response = await checkAuthentication(authToken, await collect(recordedSignals('playwright-headed-like')));
    const result = response.json<Result>();
    assert.equal(assertionsOf(response)['detect.browserAnomaly'], 'fail');
    assert.equal(result.responseDetail.policyDecision, 'review');
    assert.equal(result.responseDetail.policyObligation, true);
    assert.equal(result.authStatus, 1);
    assert.match(attribute(result, 'BrowserSpoofReason') ?? '', /software-renderer/);
    // The same authToken now takes a face check (and no second device check).
    const again = await checkAuthentication(authToken, await collect(phoneOf('paul')));
    assert.equal(again.statusCode, 409);
    assert.match(again.json<{ error: { description: string } }>().error.description, /final check is verifyFace/);
    const challenge = await post('/onboarding/authentication/challenge', acme, { authToken });
    assert.equal(challenge.statusCode, 200, 'the face step is open');
  });

  it('links the time zone to the address: New York time on a British line is reviewed', async () => {
    const user = await seedUser('acme', 'tina');
    const signals = { ...phoneOf('tina'), timeZone: 'America/New_York', timeZoneOffset: 300 };
    const response = await checkAuthentication(await verifiedAuthentication(user), await collect(signals));
    assert.equal(assertionsOf(response)['link.timeZone_TrueGeo'], 'fail');
    assert.equal(response.json<Result>().responseDetail.policyDecision, 'review');
  });

  it('rejects a Tor exit (the configured list) and leaves the geography of a private address unasserted', async () => {
    const user = await seedUser('acme', 'otto');
    const tor = await checkAuthentication(await verifiedAuthentication(user), await collect(phoneOf('otto'), TOR_EXIT));
    assert.equal(assertionsOf(tor)['detect.tor'], 'fail');
    assert.equal(tor.json<Result>().authStatus, 0);
    const local = await checkAuthentication(
      await verifiedAuthentication(user),
      await collect(phoneOf('otto'), '10.20.30.40'),
    );
    const assertions = assertionsOf(local);
    for (const name of ['detect.tor', 'link.timeZone_TrueGeo', 'detect.knownVPNISP'])
      assert.equal(assertions[name], undefined, `${name} is absent, not a made-up pass`);
  });

  it("applies the customer's deny lists, and only the customer's", async () => {
    await devicePoliciesRepository(store.db).set(
      'globex',
      parseDevicePolicy({ denyIps: ['81.2.69.0/24'], denyDevices: [ORDINARY.iphoneSafari.fingerprint?.visitorId] }),
    );
    const user = await seedUser('globex', 'gina');
    const byIp = await checkAuthentication(
      await verifiedAuthentication(user, globex),
      await collect(phoneOf('gina'), UK_PHONE, globex),
      globex,
    );
    assert.equal(assertionsOf(byIp)['blacklist.ip'], 'fail');
    assert.equal(byIp.json<Result>().authStatus, 0);
    const byDevice = await checkAuthentication(
      await verifiedAuthentication(user, globex),
      await collect(ORDINARY.iphoneSafari, '2.58.56.1', globex),
      globex,
    );
    assert.equal(assertionsOf(byDevice)['blacklist.device'], 'fail');
    assert.equal(assertionsOf(byDevice)['blacklist.ip'], 'pass');
    // acme keeps no lists: nothing to assert.
    const acmeUser = await seedUser('acme', 'gina');
    const plain = await checkAuthentication(
      await verifiedAuthentication(acmeUser),
      await collect(ORDINARY.iphoneSafari),
    );
    assert.equal(assertionsOf(plain)['blacklist.device'], undefined);
  });

  it('refuses out of order, unknown, foreign and cross-customer calls with the onboarding codes', async () => {
    const user = await seedUser('acme', 'olga');
    const started = await post('/onboarding/authentication/authenticate', acme, {
      registrationCode: user.registrationCode,
      deviceId: user.deviceId,
    });
    const { authToken } = started.json<{ authToken: string }>();
    const apSessionId = await collect(phoneOf('olga'));
    assert.equal((await checkAuthentication(authToken, apSessionId)).statusCode, 409, 'before verifyDevice');
    assert.equal((await checkAuthentication('no-such-token', apSessionId)).statusCode, 404);
    const verified = await verifiedAuthentication(user);
    assert.equal((await checkAuthentication(verified, 'no-such-session')).statusCode, 404);
    // globex's apSessionId is unknown to acme.
    const foreign = await collect(phoneOf('olga'), UK_PHONE, globex);
    assert.equal((await checkAuthentication(verified, foreign)).statusCode, 404);
    // An authentication whose final check is verifyFace takes no device check.
    await onboardingPoliciesRepository(store.db).set('acme', { finalCheck: 'verifyFace' });
    try {
      const faceUser = await seedUser('acme', 'fiona');
      const faceAuth = await post('/onboarding/authentication/authenticate', acme, {
        registrationCode: faceUser.registrationCode,
        deviceId: faceUser.deviceId,
      });
      const body = faceAuth.json<{ authToken: string; requiredChecks: string[] }>();
      assert.deepEqual(body.requiredChecks, ['verifyDevice', 'verifyFace']);
      await post('/onboarding/authentication/verifyDevice', acme, {
        authToken: body.authToken,
        signature: faceUser.device.sign(body.authToken),
        deviceId: faceUser.deviceId,
      });
      const refused = await checkAuthentication(body.authToken, await collect(phoneOf('olga')));
      assert.equal(refused.statusCode, 409);
    } finally {
      await onboardingPoliciesRepository(store.db).set('acme', { finalCheck: 'deviceSecurity' });
    }
    const noAuth = await app.inject({
      method: 'POST',
      url: '/onboarding/deviceProfile/signals',
      payload: phoneOf('olga') as unknown as object,
    });
    assert.equal(noAuth.statusCode, 401);
  });

  it('enrollment (endpoint 6): reEnrollmentToken is the enrollmentToken; reject fails the enrollment', async () => {
    const enroll = async (username: string) => {
      const response = await post('/onboarding/enrollment/enroll', acme, {
        username,
        email: `${username}@example.com`,
        phoneNumber: '+15550101',
      });
      assert.equal(response.statusCode, 200, response.body);
      return response.json<{ enrollmentToken: string }>().enrollmentToken;
    };
    const check = (reEnrollmentToken: string, apSessionId: string) =>
      post('/onboarding/enrollment/deviceProfile/checkDevice', acme, { reEnrollmentToken, apSessionId });

    const token = await enroll('erin');
    const approved = await check(token, await collect(phoneOf('erin')));
    assert.equal(approved.statusCode, 200, approved.body);
    const result = approved.json<Result>();
    assert.equal(result.enrollmentStatus, 1);
    assert.equal(result.responseDetail.policyDecision, 'approve');
    assert.equal(result.responseDetail.mbun, 'erin');
    assert.equal(attribute(result, 'OperatingSystem'), 'Android');
    assert.equal(result.authStatus, undefined);
    const added = await post('/onboarding/enrollment/adddevice', acme, {
      enrollmentToken: token,
      deviceId: 'phone-erin',
      devicePublicKey: generateDeviceKey('p256').publicKeyPem,
    });
    assert.equal(added.statusCode, 200, 'the enrollment goes on');

    const rejected = await check(await enroll('ezra'), await collect(ORDINARY.iphoneSafari, TOR_EXIT));
    const rejectedResult = rejected.json<Result>();
    assert.equal(rejectedResult.responseDetail.policyDecision, 'reject');
    assert.equal(rejectedResult.enrollmentStatus, 0);
    const late = await check(await enroll('ezra'), await collect(ORDINARY.iphoneSafari));
    assert.equal(late.statusCode, 200, 'a new enrollment starts afresh');

    const failed = await enroll('enzo');
    await check(failed, await collect(ORDINARY.iphoneSafari, TOR_EXIT));
    const afterReject = await post('/onboarding/enrollment/adddevice', acme, {
      enrollmentToken: failed,
      deviceId: 'p',
    });
    assert.equal(afterReject.statusCode, 409, 'the rejected enrollment is failed');
    assert.equal((await check(failed, await collect(ORDINARY.iphoneSafari))).statusCode, 409);
    assert.equal((await check('unknown-token', await collect(ORDINARY.iphoneSafari))).statusCode, 404);

    const events = await onboardingEventsRepository(store.db).list('acme', 'enzo');
    const checks = events.filter((e) => e.event === 'checkDevice');
    assert.deepEqual(
      checks.map((e) => e.outcome),
      ['failure', 'refused'],
    );
    assert.match(checks[0]?.detail ?? '', /^reject; detect\.tor failed: reject/);
    assert.doesNotMatch(JSON.stringify(events), /185\.220|apSessionId/, 'no address or id in the audit log');
  });

  it('answers malformed input with 400 and never 5xx', async () => {
    const bad: unknown[] = [
      {},
      { ...ORDINARY.androidChrome, version: 2 },
      { ...ORDINARY.androidChrome, extra: 1 },
      { ...ORDINARY.androidChrome, userAgent: 'x'.repeat(5000) },
      { ...ORDINARY.androidChrome, languages: Array(100).fill('en') },
      { ...ORDINARY.androidChrome, screen: { ...ORDINARY.androidChrome.screen, width: -1 } },
      { ...ORDINARY.androidChrome, timeZone: 'Europe/Paris\u0000' },
      { ...ORDINARY.androidChrome, fingerprint: { visitorId: '../../etc', confidence: 0.5, version: '5' } },
      { ...ORDINARY.androidChrome, collectedAt: Number.MAX_VALUE },
      [],
      'text',
    ];
    for (const payload of bad) {
      const response = await post('/onboarding/deviceProfile/signals', acme, payload);
      const status = typeof payload === 'string' ? 415 : 400;
      assert.equal(response.statusCode, status, `${JSON.stringify(payload).slice(0, 80)}: ${response.body}`);
    }
    for (const body of [
      {},
      { authToken: 1, apSessionId: 'x' },
      { authToken: 'x', apSessionId: '' },
      { authToken: 'x\u0001', apSessionId: 'y' },
    ]) {
      const response = await post('/onboarding/authentication/deviceProfile/checkDevice', acme, body);
      assert.equal(response.statusCode, 400, response.body);
    }
    const enrollment = await post('/onboarding/enrollment/deviceProfile/checkDevice', acme, { apSessionId: 'x' });
    assert.equal(enrollment.statusCode, 400);
  });

  it('writes neither the signals nor an apSessionId to the log', () => {
    const log = logLines.join('');
    assert.ok(log.includes('deviceProfile'), 'requests were logged');
    assert.ok(issued.length > 10);
    const leaks = logLines.filter((line) => PRIVATE.test(line) || issued.some((id) => line.includes(id)));
    assert.deepEqual(leaks, []);
  });
});

describe('device-security checks with a QR session (session-confinement.ts)', () => {
  interface Session {
    readonly headers: Record<string, string>;
    readonly sessionToken: string;
  }
  const takeOver = async (method: 'Enroll' | 'Authenticate', username: string): Promise<Session> => {
    const trigger = await post(`/b2c/proxy/trigger${method}`, acme, {
      username,
      ...(method === 'Enroll' ? { email: `${username}@example.com` } : {}),
    });
    assert.equal(trigger.statusCode, 200, trigger.body);
    const { sessionCallbackURL, sessionToken } = trigger.json<{ sessionCallbackURL: string; sessionToken: string }>();
    const key = await app.inject({ method: 'GET', url: '/getPublicKey', headers: acme });
    const data = openSessionData(sessionCallbackURL, key.body);
    const validated = await post('/tokenVerify/validateSession', { apikey: data.apiKey }, { sessionToken });
    assert.equal(validated.statusCode, 200, validated.body);
    const { accessToken: bearer } = validated.json<{ accessToken: string }>();
    return { headers: { authorization: `Bearer ${bearer}`, apikey: data.apiKey }, sessionToken };
  };
  const state = async (sessionToken: string) =>
    (await post('/b2c/proxy/sessionStatus', acme, { sessionToken })).json<{ state: string }>().state;

  it('lets the phone post signals and check its own authentication, which completes the session', async () => {
    const user = await seedUser('acme', 'quinn');
    const session = await takeOver('Authenticate', 'quinn');
    const authToken = await verifiedAuthentication(user, session.headers);
    const apSessionId = await collect(phoneOf('quinn'), UK_PHONE, session.headers);
    const response = await checkAuthentication(authToken, apSessionId, session.headers);
    assert.equal(response.json<Result>().authStatus, 2, response.body);
    assert.equal(await state(session.sessionToken), 'complete');
  });

  it("refuses another flow's token (403) and the other method's check (403)", async () => {
    const other = await seedUser('acme', 'ursula');
    const elsewhere = await verifiedAuthentication(other); // the customer's own authentication
    await seedUser('acme', 'vera');
    const session = await takeOver('Authenticate', 'vera');
    const apSessionId = await collect(phoneOf('ursula'), UK_PHONE, session.headers);
    const foreign = await checkAuthentication(elsewhere, apSessionId, session.headers);
    assert.equal(foreign.statusCode, 403, foreign.body);
    const enrollmentCheck = await post('/onboarding/enrollment/deviceProfile/checkDevice', session.headers, {
      reEnrollmentToken: 'x',
      apSessionId,
    });
    assert.equal(enrollmentCheck.statusCode, 403);
  });

  it('checks the enrollment the session started, and a rejection fails the session', async () => {
    const session = await takeOver('Enroll', 'wanda');
    const enroll = await post('/onboarding/enrollment/enroll', session.headers, {
      username: 'wanda',
      email: 'wanda@example.com',
      phoneNumber: '+15550102',
    });
    const { enrollmentToken } = enroll.json<{ enrollmentToken: string }>();
    const rejected = await post('/onboarding/enrollment/deviceProfile/checkDevice', session.headers, {
      reEnrollmentToken: enrollmentToken,
      apSessionId: await collect(ORDINARY.iphoneSafari, TOR_EXIT, session.headers),
    });
    assert.equal(rejected.json<Result>().enrollmentStatus, 0, rejected.body);
    assert.equal(await state(session.sessionToken), 'failed');
  });
});
