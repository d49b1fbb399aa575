import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  deriveAssertions,
  distanceMiles,
  type AssertionInputs,
  type DeviceHistory,
} from '../../../../src/engines/device/device-assertions.js';

const NOW = new Date(Date.UTC(2026, 0, 15, 12));
const DAY = 86_400_000;
/** A device seen for the first time, by this user only. */
const NEW_DEVICE: DeviceHistory = {
  trustedSince: undefined,
  devicesOfUser1d: 1,
  usersOnDevice1d: 1,
  usersOnDevice7d: 1,
  userDeviceChecks1d: 1,
};

/** Inputs with nothing but the always-derived assertions available. */
const BARE: AssertionInputs = {
  now: NOW,
  replayed: false,
  anomalyScore: 0,
  anomalyThreshold: 0.5,
  ip: { ip: '10.1.2.3', routable: false },
  networkKind: undefined,
  onTorList: undefined,
  onIpDenyList: undefined,
  onDeviceDenyList: undefined,
  timeZone: 'Europe/Paris',
  history: undefined,
  travelMiles: undefined,
};

describe('deriveAssertions', () => {
  it('answers only what its inputs support: no Tor list, no country, no device: those are absent', () => {
    assert.deepEqual(deriveAssertions(BARE), {
      'test.apSessionIDNotReplay': 'pass',
      'detect.browserAnomaly': 'pass',
    });
  });

  it('fails test.apSessionIDNotReplay for a replayed apSessionId', () => {
    assert.equal(deriveAssertions({ ...BARE, replayed: true })['test.apSessionIDNotReplay'], 'fail');
  });

  it('fails detect.browserAnomaly at the threshold', () => {
    assert.equal(deriveAssertions({ ...BARE, anomalyScore: 0.49 })['detect.browserAnomaly'], 'pass');
    assert.equal(deriveAssertions({ ...BARE, anomalyScore: 0.5 })['detect.browserAnomaly'], 'fail');
  });

  it('asserts detect.tor only with a list and a public address', () => {
    const exit = { ip: '185.220.101.1', routable: true };
    assert.equal(deriveAssertions({ ...BARE, ip: exit, onTorList: true })['detect.tor'], 'fail');
    assert.equal(deriveAssertions({ ...BARE, ip: exit, onTorList: false })['detect.tor'], 'pass');
    assert.equal(deriveAssertions({ ...BARE, ip: exit })['detect.tor'], undefined, 'no list');
    assert.equal(deriveAssertions({ ...BARE, onTorList: false })['detect.tor'], undefined, 'private address');
  });

  it('links the time zone to the country of the address (a documentation address given a country)', () => {
    // 198.51.100.7 (TEST-NET-2) located by a fake database in Germany.
    const berlin = { ip: '198.51.100.7', routable: true, country: 'DE' };
    assert.equal(deriveAssertions({ ...BARE, ip: berlin })['link.timeZone_TrueGeo'], 'fail', 'Paris time in DE');
    assert.equal(deriveAssertions({ ...BARE, ip: berlin, timeZone: 'Europe/Berlin' })['link.timeZone_TrueGeo'], 'pass');
    assert.equal(deriveAssertions({ ...BARE, ip: berlin, timeZone: 'Etc/UTC' })['link.timeZone_TrueGeo'], undefined);
    assert.equal(deriveAssertions({ ...BARE, ip: berlin, timeZone: null })['link.timeZone_TrueGeo'], undefined);
  });

  it('derives the deny lists and the network kind only when there is something to compare', () => {
    const listed = deriveAssertions({ ...BARE, onIpDenyList: true, onDeviceDenyList: false });
    assert.equal(listed['blacklist.ip'], 'fail');
    assert.equal(listed['blacklist.device'], 'pass');
    const vpn = deriveAssertions({ ...BARE, networkKind: 'vpn' });
    assert.equal(vpn['detect.knownVPNISP'], 'fail');
    assert.equal(vpn['detect.possibleVPNOrTunnel'], 'fail');
    const hosting = deriveAssertions({ ...BARE, networkKind: 'hosting' });
    assert.equal(hosting['detect.knownVPNISP'], 'pass');
    assert.equal(hosting['detect.possibleVPNOrTunnel'], 'fail');
    const home = deriveAssertions({ ...BARE, networkKind: 'other' });
    assert.equal(home['detect.possibleVPNOrTunnel'], 'pass');
  });

  it('trusts a device by the age of its first confirmed check for the user', () => {
    const at = (days: number) =>
      deriveAssertions({ ...BARE, history: { ...NEW_DEVICE, trustedSince: new Date(NOW.getTime() - days * DAY) } });
    assert.deepEqual(
      [at(0), at(28), at(183)].map((a) => [
        a['test.trustedDevice'],
        a['test.trustedDevice28days'],
        a['test.trustedDevice6mo'],
      ]),
      [
        ['pass', 'fail', 'fail'],
        ['pass', 'pass', 'fail'],
        ['pass', 'pass', 'pass'],
      ],
    );
    const fresh = deriveAssertions({ ...BARE, history: NEW_DEVICE });
    assert.equal(fresh['test.trustedDevice'], 'fail');
  });

  it('applies the velocity thresholds as named (gte: fail at N, lte: pass up to N)', () => {
    const busy = deriveAssertions({
      ...BARE,
      history: { ...NEW_DEVICE, devicesOfUser1d: 5, usersOnDevice1d: 3, usersOnDevice7d: 4, userDeviceChecks1d: 5 },
    });
    assert.equal(busy['test.gte5Device1d'], 'fail');
    assert.equal(busy['test.gte2Credential1d'], 'fail');
    assert.equal(busy['test.gte3Credential1d'], 'fail');
    assert.equal(busy['test.gte5Credential1d'], 'pass');
    assert.equal(busy['test.gte5CredentialDevice1d'], 'fail');
    assert.equal(busy['test.lte3CredentialsDevice7d'], 'fail');
    const calm = deriveAssertions({ ...BARE, history: { ...NEW_DEVICE, devicesOfUser1d: 4, usersOnDevice7d: 3 } });
    assert.equal(calm['test.gte5Device1d'], 'pass');
    assert.equal(calm['test.lte3CredentialsDevice7d'], 'pass');
  });

  it('fails test.credentialLTE500mi1hr beyond 500 miles within the hour', () => {
    assert.equal(deriveAssertions({ ...BARE, travelMiles: 213 })['test.credentialLTE500mi1hr'], 'pass');
    assert.equal(deriveAssertions({ ...BARE, travelMiles: 3460 })['test.credentialLTE500mi1hr'], 'fail');
  });
});

describe('distanceMiles', () => {
  it('measures great-circle distances', () => {
    const london = { latitude: 51.5074, longitude: -0.1278 };
    const paris = { latitude: 48.8566, longitude: 2.3522 };
    const newYork = { latitude: 40.7128, longitude: -74.006 };
    assert.equal(Math.round(distanceMiles(london, paris)), 213);
    assert.equal(Math.round(distanceMiles(london, newYork)), 3461);
    assert.equal(distanceMiles(paris, paris), 0);
  });
});
