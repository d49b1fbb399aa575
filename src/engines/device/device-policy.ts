import { isFiniteNumber, isRecord, isUnknownArray } from '../../lib/json-guards.js';
import { DERIVED_ASSERTIONS, type AssertionName, type Assertions } from './device-assertions.js';
import { parseIpRange } from './ip-address.js';

/** What a failed assertion does to the decision. */
export const POLICY_ACTIONS = ['reject', 'review', 'ignore'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

/** Doc 1 `policyDecision`. */
export type PolicyDecision = 'approve' | 'review' | 'reject';

/** A customer's device-security policy (docs/onboarding.md, "Device security"). */
export interface DevicePolicy {
  /** The action of each assertion when it fails; a passing or absent assertion does nothing. */
  readonly rules: Readonly<Record<AssertionName, PolicyAction>>;
  /** detect.browserAnomaly fails at this anomaly score or above (0-1). */
  readonly anomalyThreshold: number;
  /** blacklist.ip: addresses and CIDR ranges; empty: the assertion is not made. */
  readonly denyIps: readonly string[];
  /** blacklist.device: FuzzyDeviceID values (the fingerprint visitorId); empty: not made. */
  readonly denyDevices: readonly string[];
  /** Further autonomous systems counted as VPN services or hosting networks. */
  readonly vpnAsns: readonly number[];
  readonly hostingAsns: readonly number[];
}

/**
 * The policy of customers that set none: replays, deny lists and Tor refused; automation or a spoofed
 * browser, a known VPN service, a time zone of another country than the address, device or user
 * velocity and impossible travel sent to review (authentication then steps up to verifyFace); a device
 * new to the user, a hosting network and the wider velocity thresholds only reported.
 */
export const DEFAULT_DEVICE_POLICY: DevicePolicy = {
  rules: {
    'test.apSessionIDNotReplay': 'reject',
    'blacklist.ip': 'reject',
    'blacklist.device': 'reject',
    'detect.tor': 'reject',
    'detect.browserAnomaly': 'review',
    'detect.knownVPNISP': 'review',
    'detect.possibleVPNOrTunnel': 'ignore',
    'link.timeZone_TrueGeo': 'review',
    'test.trustedDevice': 'ignore',
    'test.trustedDevice28days': 'ignore',
    'test.trustedDevice6mo': 'ignore',
    'test.gte5Device1d': 'review',
    'test.gte2Credential1d': 'ignore',
    'test.gte3Credential1d': 'ignore',
    'test.gte5Credential1d': 'review',
    'test.gte10Credential1d': 'reject',
    'test.gte20Credential1d': 'reject',
    'test.gte5CredentialDevice1d': 'review',
    'test.lte3CredentialsDevice7d': 'review',
    'test.credentialLTE500mi1hr': 'review',
  },
  anomalyThreshold: 0.5,
  denyIps: [],
  denyDevices: [],
  vpnAsns: [],
  hostingAsns: [],
};

/** A device policy that cannot be applied; the message says which member and why. */
export class DevicePolicyError extends Error {
  override name = 'DevicePolicyError';
}

const KEYS = ['rules', 'anomalyThreshold', 'denyIps', 'denyDevices', 'vpnAsns', 'hostingAsns'];

/**
 * Reads a device policy from JSON data (the `veriport admin policy device` file, or the stored one): members
 * left out keep the default, and `rules` changes only the assertions it names.
 *
 * @example
 * parseDevicePolicy({ rules: { 'test.trustedDevice': 'review' }, denyIps: ['198.51.100.0/24'] });
 * @throws {DevicePolicyError} for an unknown member or assertion, a wrong action, range, number or address
 */
export function parseDevicePolicy(value: unknown, base: DevicePolicy = DEFAULT_DEVICE_POLICY): DevicePolicy {
  if (!isRecord(value)) throw new DevicePolicyError('a device policy is a JSON object');
  for (const key of Object.keys(value))
    if (!KEYS.includes(key)) throw new DevicePolicyError(`unknown member '${key}' (members: ${KEYS.join(', ')})`);
  const rules: Record<AssertionName, PolicyAction> = { ...base.rules };
  if (value.rules !== undefined) {
    if (!isRecord(value.rules)) throw new DevicePolicyError('rules: an object of assertion name -> action');
    for (const [name, action] of Object.entries(value.rules)) {
      if (!isAssertionName(name))
        throw new DevicePolicyError(
          `rules: '${name}' is not an assertion Veriport derives (${DERIVED_ASSERTIONS.join(', ')})`,
        );
      if (!isAction(action)) throw new DevicePolicyError(`rules.${name}: one of ${POLICY_ACTIONS.join(', ')}`);
      rules[name] = action;
    }
  }
  const threshold = value.anomalyThreshold ?? base.anomalyThreshold;
  if (!isFiniteNumber(threshold) || threshold <= 0 || threshold > 1)
    throw new DevicePolicyError('anomalyThreshold: a number above 0, at most 1');
  const texts = (key: string, fallback: readonly string[], check: (text: string) => boolean, what: string) => {
    const list = value[key] ?? fallback;
    if (!isUnknownArray(list) || list.length > 10_000) throw new DevicePolicyError(`${key}: a list of ${what}`);
    return list.map((item) => {
      if (typeof item !== 'string' || !check(item))
        throw new DevicePolicyError(`${key}: '${String(item)}' is not ${what}`);
      return item.trim();
    });
  };
  const asns = (key: string, fallback: readonly number[]) => {
    const list = value[key] ?? fallback;
    if (!isUnknownArray(list) || !list.every((n) => Number.isInteger(n) && Number(n) > 0 && Number(n) < 2 ** 32))
      throw new DevicePolicyError(`${key}: a list of AS numbers`);
    return list.map(Number);
  };
  return {
    rules,
    anomalyThreshold: threshold,
    denyIps: texts('denyIps', base.denyIps, (t) => parseIpRange(t) !== undefined, 'an IP address or CIDR range'),
    denyDevices: texts('denyDevices', base.denyDevices, (t) => /^[\w-]{1,128}$/.test(t), 'a FuzzyDeviceID'),
    vpnAsns: asns('vpnAsns', base.vpnAsns),
    hostingAsns: asns('hostingAsns', base.hostingAsns),
  };
}

/**
 * The decision over the derived assertions: the most severe action among the failed ones (reject, then
 * review), approve when none failed or all failed ones are ignored. `obligation` (Doc 1 `policyObligation`)
 * is true for review: the caller must do more before trusting the device (authentication steps up to
 * verifyFace).
 *
 * @example
 * decidePolicy({ 'detect.tor': 'fail' }, DEFAULT_DEVICE_POLICY);
 * // { decision: 'reject', obligation: false, reasons: ['detect.tor failed: reject'] }
 */
export function decidePolicy(
  assertions: Assertions,
  policy: DevicePolicy,
): { decision: PolicyDecision; obligation: boolean; reasons: string[] } {
  const reasons: string[] = [];
  let decision: PolicyDecision = 'approve';
  for (const name of DERIVED_ASSERTIONS) {
    const action = policy.rules[name];
    if (assertions[name] !== 'fail' || action === 'ignore') continue;
    reasons.push(`${name} failed: ${action}`);
    if (action === 'reject') decision = 'reject';
    else if (decision === 'approve') decision = 'review';
  }
  return { decision, obligation: decision === 'review', reasons };
}

function isAssertionName(name: string): name is AssertionName {
  return (DERIVED_ASSERTIONS as readonly string[]).includes(name);
}

function isAction(value: unknown): value is PolicyAction {
  return typeof value === 'string' && (POLICY_ACTIONS as readonly string[]).includes(value);
}
