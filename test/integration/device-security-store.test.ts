/**
 * The device checks over the real store with a clock the test moves: velocity windows, the ageing of trust,
 * an enrollment's observation trusted once the enrollment completes, the apSessionId's lifetime, impossible
 * travel. IP facts come from a fake database placing documentation addresses (RFC 5737) in cities.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { randomSecret, sha256Hex } from '../../src/crypto/secret-hash.js';
import type { DeviceSignals } from '../../src/lib/device-signals.js';
import type { IpFacts } from '../../src/engines/device/ip-intelligence.js';
import { ApiError } from '../../src/server/errors/api-error.js';
import { checkAuthenticationDevice, checkEnrollmentDevice } from '../../src/services/onboarding/device-check.js';
import type { DeviceContext } from '../../src/services/onboarding/device-context.js';
import { collectSignals } from '../../src/services/onboarding/device-signals-collection.js';
import { customersRepository } from '../../src/store/customers.js';
import { openStore, type Store } from '../../src/store/database.js';
import { deviceObservationsRepository } from '../../src/store/device-observations.js';
import { devicePoliciesRepository } from '../../src/store/device-policies.js';
import { deviceProfilesRepository } from '../../src/store/device-profiles.js';
import { onboardingAuthenticationsRepository } from '../../src/store/onboarding-authentications.js';
import { onboardingEnrollmentsRepository } from '../../src/store/onboarding-enrollments.js';
import { onboardingEventsRepository } from '../../src/store/onboarding-events.js';
import { ORDINARY } from '../helpers/device-signals.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** Documentation addresses the fake database places in Berlin and New York. */
const BERLIN = '198.51.100.7';
const NEW_YORK = '203.0.113.9';
const FACTS: Readonly<Record<string, IpFacts>> = {
  [BERLIN]: { ip: BERLIN, routable: true, country: 'DE', city: 'Berlin', latitude: 52.52, longitude: 13.405 },
  [NEW_YORK]: { ip: NEW_YORK, routable: true, country: 'US', city: 'New York', latitude: 40.7128, longitude: -74.006 },
};

let store: Store;
let now = Date.UTC(2026, 0, 15, 9);
let ctx: DeviceContext;

/** A Windows PC in Berlin with its own device identifier. */
function pc(device: string): DeviceSignals {
  const { fingerprint } = ORDINARY.windowsChrome;
  assert.ok(fingerprint !== null);
  return { ...ORDINARY.windowsChrome, fingerprint: { ...fingerprint, visitorId: device } };
}

async function seedUser(username: string): Promise<void> {
  const enrollments = onboardingEnrollmentsRepository(store.db);
  const tokenHash = sha256Hex(`seed ${username}`);
  await enrollments.start({
    tokenHash,
    customer: 'acme',
    user: { username, email: 'u@example.com', phoneNumber: '+1', firstName: undefined, lastName: undefined },
    codePresented: false,
    expiresAt: new Date(now + HOUR),
  });
  const device = { deviceId: `phone-${username}`, keyKind: 'hmac' as const, key: Buffer.from('k') };
  await enrollments.bindDevice('acme', tokenHash, device);
  await enrollments.complete(
    'acme',
    tokenHash,
    { device, sealedFaceTemplate: Buffer.from('t'), registrationCodeHash: sha256Hex(`code ${username}`) },
    new Date(now),
  );
}

/** An authentication of the user after verifyDevice, final check deviceSecurity. */
async function verifiedAuthentication(username: string): Promise<string> {
  const authentications = onboardingAuthenticationsRepository(store.db);
  const authToken = randomSecret();
  await authentications.start({
    tokenHash: sha256Hex(authToken),
    customer: 'acme',
    username,
    deviceId: `phone-${username}`,
    finalCheck: 'deviceSecurity',
    expiresAt: new Date(now + HOUR),
  });
  assert.ok(await authentications.advance('acme', sha256Hex(authToken), 'started', 'device-verified'));
  return authToken;
}

/** A device check of an authentication of `username` from `signals` at `ip`; its assertions and decision. */
async function authenticateFrom(username: string, signals: DeviceSignals, ip = BERLIN) {
  const { apSessionId } = await collectSignals(ctx, 'acme', signals, ip);
  const result = await checkAuthenticationDevice(ctx, 'acme', {
    authToken: await verifiedAuthentication(username),
    apSessionId,
  });
  return {
    assertions: result.responseDetail.userAssertionList[0]?.assertions ?? {},
    decision: result.responseDetail.policyDecision,
  };
}

async function refusedWith(status: number, call: Promise<unknown>): Promise<void> {
  await assert.rejects(call, (error: unknown) => error instanceof ApiError && error.statusCode === status);
}

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  await customersRepository(store.db).create({ name: 'acme' });
  ctx = {
    profiles: deviceProfilesRepository(store.db),
    observations: deviceObservationsRepository(store.db),
    devicePolicies: devicePoliciesRepository(store.db),
    enrollments: onboardingEnrollmentsRepository(store.db),
    authentications: onboardingAuthenticationsRepository(store.db),
    events: onboardingEventsRepository(store.db),
    ipData: {
      lookup: (ip) => Promise.resolve(FACTS[ip] ?? { ip, routable: false }),
      sources: { geolocation: 'test', network: 'test' },
    },
    torList: undefined,
    profileTtlMs: 15 * 60_000,
    now: () => new Date(now),
  };
  for (const username of ['vic', 'ana', 'ben', 'cid', 'dan', 'tom', 'eve', 'tia']) await seedUser(username);
});

after(async () => {
  await store.close();
});

describe('device checks over the store, with a moving clock', () => {
  it('counts the devices of a user in the last 24 hours (test.gte5Device1d)', async () => {
    for (const [i, device] of ['v1', 'v2', 'v3', 'v4'].entries()) {
      const { assertions } = await authenticateFrom('vic', pc(device));
      assert.equal(assertions['test.gte5Device1d'], 'pass', `device ${i + 1}`);
      now += HOUR;
    }
    const fifth = await authenticateFrom('vic', pc('v5'));
    assert.equal(fifth.assertions['test.gte5Device1d'], 'fail');
    assert.equal(fifth.decision, 'review');
    const again = await authenticateFrom('vic', pc('v1'));
    assert.equal(again.assertions['test.gte5Device1d'], 'fail', 'a known device of the five still counts five');
    now += 25 * HOUR;
    const nextDay = await authenticateFrom('vic', pc('v6'));
    assert.equal(nextDay.assertions['test.gte5Device1d'], 'pass', 'the window moved on');
  });

  it('counts the users of a device over 1 and 7 days (credential tests)', async () => {
    const shared = pc('shared-pc');
    const seen = [];
    for (const username of ['ana', 'ben', 'cid', 'dan']) {
      seen.push((await authenticateFrom(username, shared)).assertions);
      now += 2 * HOUR;
    }
    assert.deepEqual(
      seen.map((a) => [a['test.gte2Credential1d'], a['test.gte3Credential1d'], a['test.lte3CredentialsDevice7d']]),
      [
        ['pass', 'pass', 'pass'],
        ['fail', 'pass', 'pass'],
        ['fail', 'fail', 'pass'],
        ['fail', 'fail', 'fail'],
      ],
    );
    now += 2 * DAY;
    const later = (await authenticateFrom('ana', shared)).assertions;
    assert.equal(later['test.gte2Credential1d'], 'pass', 'a day later, ana alone');
    assert.equal(later['test.lte3CredentialsDevice7d'], 'fail', 'four users within the week');
    now += 6 * DAY;
    assert.equal((await authenticateFrom('ana', shared)).assertions['test.lte3CredentialsDevice7d'], 'pass');
  });

  it('counts the checks of one user on one device in a day (test.gte5CredentialDevice1d)', async () => {
    const results = [];
    for (let i = 0; i < 5; i += 1) results.push((await authenticateFrom('tia', pc('tia-pc'))).assertions);
    assert.deepEqual(
      results.map((a) => a['test.gte5CredentialDevice1d']),
      ['pass', 'pass', 'pass', 'pass', 'fail'],
    );
  });

  it('ages trust from the first approved authentication: 28 days, 6 months', async () => {
    const device = pc('tom-pc');
    const first = await authenticateFrom('tom', device);
    assert.equal(first.assertions['test.trustedDevice'], 'fail');
    assert.equal(first.decision, 'approve');
    const at = async (days: number) => {
      now += days * DAY;
      const { assertions } = await authenticateFrom('tom', device);
      return [
        assertions['test.trustedDevice'],
        assertions['test.trustedDevice28days'],
        assertions['test.trustedDevice6mo'],
      ];
    };
    assert.deepEqual(await at(1), ['pass', 'fail', 'fail']);
    assert.deepEqual(await at(28), ['pass', 'pass', 'fail']);
    assert.deepEqual(await at(160), ['pass', 'pass', 'pass']);
    const other = await authenticateFrom('ana', device);
    assert.equal(other.assertions['test.trustedDevice'], 'fail', "trust is the user's, not the device's");
  });

  it("trusts an enrollment's device only once that enrollment completed", async () => {
    const enrollments = onboardingEnrollmentsRepository(store.db);
    const enrollmentToken = randomSecret();
    const tokenHash = sha256Hex(enrollmentToken);
    await enrollments.start({
      tokenHash,
      customer: 'acme',
      user: { username: 'eve', email: 'e@example.com', phoneNumber: '+1', firstName: undefined, lastName: undefined },
      codePresented: false,
      expiresAt: new Date(now + HOUR),
    });
    const device = { deviceId: 'phone-eve', keyKind: 'hmac' as const, key: Buffer.from('k') };
    await enrollments.bindDevice('acme', tokenHash, device);
    const { apSessionId } = await collectSignals(ctx, 'acme', pc('eve-pc'), BERLIN);
    const checked = await checkEnrollmentDevice(ctx, 'acme', { reEnrollmentToken: enrollmentToken, apSessionId });
    assert.equal(checked.enrollmentStatus, 1);
    now += HOUR;
    const before = await authenticateFrom('eve', pc('eve-pc'));
    assert.equal(before.assertions['test.trustedDevice'], 'fail', 'the enrollment is not complete');
    await enrollments.complete(
      'acme',
      tokenHash,
      { device, sealedFaceTemplate: Buffer.from('t'), registrationCodeHash: sha256Hex('eve new code') },
      new Date(now),
    );
    now += HOUR;
    const afterwards = await authenticateFrom('eve', pc('eve-pc'));
    assert.equal(afterwards.assertions['test.trustedDevice'], 'pass');
  });

  it('refuses an expired apSessionId (410), and one removed after a day as unknown (404)', async () => {
    const { apSessionId } = await collectSignals(ctx, 'acme', pc('late'), BERLIN);
    now += 16 * 60_000;
    await refusedWith(
      410,
      checkAuthenticationDevice(ctx, 'acme', { authToken: await verifiedAuthentication('dan'), apSessionId }),
    );
    now += DAY;
    await collectSignals(ctx, 'acme', pc('other'), BERLIN); // removes the customer's day-old profiles
    await refusedWith(
      404,
      checkAuthenticationDevice(ctx, 'acme', { authToken: await verifiedAuthentication('dan'), apSessionId }),
    );
  });

  it('reports impossible travel of a user within the hour (test.credentialLTE500mi1hr)', async () => {
    now += 2 * DAY;
    const berlin = await authenticateFrom('ben', pc('ben-pc'), BERLIN);
    assert.equal(berlin.assertions['test.credentialLTE500mi1hr'], 'pass');
    now += 30 * 60_000;
    const newYork = await authenticateFrom(
      'ben',
      { ...pc('ben-pc'), timeZone: 'America/New_York', timeZoneOffset: 300 },
      NEW_YORK,
    );
    assert.equal(newYork.assertions['test.credentialLTE500mi1hr'], 'fail');
    assert.equal(newYork.assertions['link.timeZone_TrueGeo'], 'pass');
    now += 2 * HOUR;
    const settled = await authenticateFrom(
      'ben',
      { ...pc('ben-pc'), timeZone: 'America/New_York', timeZoneOffset: 300 },
      NEW_YORK,
    );
    assert.equal(settled.assertions['test.credentialLTE500mi1hr'], 'pass');
  });
});
