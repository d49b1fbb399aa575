import type { IpFacts } from './ip-intelligence.js';
import type { NetworkKind } from './network-owners.js';
import { timeZoneCountries } from './time-zone-country.js';

/**
 * The Doc 1 assertions Veriport derives (the others of Doc 1's list it cannot: they are never answered).
 * For every name, `pass` is the safe outcome: not listed, not detected, consistent, below the threshold,
 * trusted, first use.
 */
export const DERIVED_ASSERTIONS = [
  'test.apSessionIDNotReplay',
  'blacklist.ip',
  'blacklist.device',
  'detect.tor',
  'detect.browserAnomaly',
  'detect.knownVPNISP',
  'detect.possibleVPNOrTunnel',
  'link.timeZone_TrueGeo',
  'test.trustedDevice',
  'test.trustedDevice28days',
  'test.trustedDevice6mo',
  'test.gte5Device1d',
  'test.gte2Credential1d',
  'test.gte3Credential1d',
  'test.gte5Credential1d',
  'test.gte10Credential1d',
  'test.gte20Credential1d',
  'test.gte5CredentialDevice1d',
  'test.lte3CredentialsDevice7d',
  'test.credentialLTE500mi1hr',
] as const;
export type AssertionName = (typeof DERIVED_ASSERTIONS)[number];
export type AssertionResult = 'pass' | 'fail';
/** Only the assertions that could be derived for this check: an absent name was not evaluated. */
export type Assertions = Partial<Record<AssertionName, AssertionResult>>;

/** What the store knows of this device and this user, the current check included in every count. */
export interface DeviceHistory {
  /** The first confirmed, not rejected check of this device for this user before this one; undefined: none. */
  readonly trustedSince: Date | undefined;
  /** Distinct devices this user was checked on in the last 24 h. */
  readonly devicesOfUser1d: number;
  /** Distinct users checked on this device in the last 24 h and 7 days. */
  readonly usersOnDevice1d: number;
  readonly usersOnDevice7d: number;
  /** Checks of this user on this device in the last 24 h. */
  readonly userDeviceChecks1d: number;
}

/** Everything the assertions are derived from; undefined where that input is not available. */
export interface AssertionInputs {
  readonly now: Date;
  /** The apSessionId was already used by an earlier check. */
  readonly replayed: boolean;
  readonly anomalyScore: number;
  /** detect.browserAnomaly fails at or above it (the customer's policy). */
  readonly anomalyThreshold: number;
  readonly ip: IpFacts;
  /** By the IP's network owner; undefined when no owner is known. */
  readonly networkKind: NetworkKind | undefined;
  /** undefined when no Tor exit list is configured. */
  readonly onTorList: boolean | undefined;
  /** undefined when the customer keeps no such list. */
  readonly onIpDenyList: boolean | undefined;
  readonly onDeviceDenyList: boolean | undefined;
  /** The browser's IANA time zone. */
  readonly timeZone: string | null;
  /** undefined without a device identifier (no fingerprint). */
  readonly history: DeviceHistory | undefined;
  /** Farthest distance in miles to this user's located checks of the last hour (0: none); undefined: not located. */
  readonly travelMiles: number | undefined;
}

const DAY_MS = 86_400_000;

/**
 * Derives the assertions that the inputs support; an assertion whose input is missing is left out, never
 * answered `pass` by default (a Tor check without a Tor list, a geography link without a located address, a
 * device test without a device identifier).
 *
 * @example
 * deriveAssertions({ ...inputs, replayed: true })['test.apSessionIDNotReplay']; // 'fail'
 */
export function deriveAssertions(inputs: AssertionInputs): Assertions {
  const out: Assertions = {};
  const set = (name: AssertionName, passes: boolean) => {
    out[name] = passes ? 'pass' : 'fail';
  };
  set('test.apSessionIDNotReplay', !inputs.replayed);
  if (inputs.onIpDenyList !== undefined) set('blacklist.ip', !inputs.onIpDenyList);
  if (inputs.onDeviceDenyList !== undefined) set('blacklist.device', !inputs.onDeviceDenyList);
  // Only a public address is the device's own (a private one is a proxy's or the local network's).
  if (inputs.onTorList !== undefined && inputs.ip.routable) set('detect.tor', !inputs.onTorList);
  set('detect.browserAnomaly', inputs.anomalyScore < inputs.anomalyThreshold);
  if (inputs.networkKind !== undefined) {
    set('detect.knownVPNISP', inputs.networkKind !== 'vpn');
    set('detect.possibleVPNOrTunnel', inputs.networkKind === 'other' && inputs.onTorList !== true);
  }
  const zoneCountries = inputs.timeZone === null ? undefined : timeZoneCountries(inputs.timeZone);
  if (zoneCountries !== undefined && inputs.ip.country !== undefined)
    set('link.timeZone_TrueGeo', zoneCountries.includes(inputs.ip.country));
  const history = inputs.history;
  if (history !== undefined) {
    const age = history.trustedSince === undefined ? -1 : inputs.now.getTime() - history.trustedSince.getTime();
    set('test.trustedDevice', age >= 0);
    set('test.trustedDevice28days', age >= 28 * DAY_MS);
    set('test.trustedDevice6mo', age >= 183 * DAY_MS);
    set('test.gte5Device1d', history.devicesOfUser1d < 5);
    set('test.gte2Credential1d', history.usersOnDevice1d < 2);
    set('test.gte3Credential1d', history.usersOnDevice1d < 3);
    set('test.gte5Credential1d', history.usersOnDevice1d < 5);
    set('test.gte10Credential1d', history.usersOnDevice1d < 10);
    set('test.gte20Credential1d', history.usersOnDevice1d < 20);
    set('test.gte5CredentialDevice1d', history.userDeviceChecks1d < 5);
    set('test.lte3CredentialsDevice7d', history.usersOnDevice7d <= 3);
  }
  if (inputs.travelMiles !== undefined) set('test.credentialLTE500mi1hr', inputs.travelMiles <= 500);
  return out;
}

/**
 * Great-circle distance in statute miles (haversine, mean Earth radius 3958.8 mi).
 *
 * @example
 * Math.round(distanceMiles({ latitude: 51.5, longitude: -0.13 }, { latitude: 48.86, longitude: 2.35 })); // 213
 */
export function distanceMiles(
  a: { readonly latitude: number; readonly longitude: number },
  b: { readonly latitude: number; readonly longitude: number },
): number {
  const radians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h =
    Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * 3958.8 * Math.asin(Math.min(1, Math.sqrt(h)));
}
