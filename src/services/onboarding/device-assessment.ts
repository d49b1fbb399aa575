import { randomUUID } from 'node:crypto';
import { Value } from '@sinclair/typebox/value';
import { sha256Hex } from '../../crypto/secret-hash.js';
import { scoreBrowserSignals } from '../../engines/device/browser-anomaly.js';
import { deriveAssertions, distanceMiles, type Assertions } from '../../engines/device/device-assertions.js';
import {
  acquiredAttributes,
  DEVICE_PROVIDER,
  formatAttributeDate,
  type AcquiredAttribute,
} from '../../engines/device/device-attributes.js';
import { decidePolicy, type PolicyDecision } from '../../engines/device/device-policy.js';
import { ipRangeSet } from '../../engines/device/ip-address.js';
import { networkKind } from '../../engines/device/network-owners.js';
import { clientError } from '../../server/errors/api-error.js';
import type { DeviceObservation } from '../../store/device-observations.js';
import type { DeviceContext } from './device-context.js';
import { DeviceSignalsBody } from './device-schemas.js';

/** Doc 1's device-security result, less the flow's status (authStatus or enrollmentStatus). */
export interface DeviceSecurityResult {
  errorCode: string | null;
  errorMsg: string | null;
  responseDetail: {
    errorCode: string;
    errorDescription: string;
    transaction_id: string;
    userAttributes: Array<{ attributeType: string; dateCreated: string; values: Record<string, string> }>;
    acquiredAttributes: AcquiredAttribute[];
    userAssertionList: Array<{
      provider: string;
      serviceOffering: string;
      dateAsserted: string;
      assertions: Assertions;
    }>;
    mbun: string;
    forwardApiKey: string;
    policyObligation: boolean;
    policyDecision: PolicyDecision;
  };
}

/** An assessment, and the observation to record once the flow has taken its decision into account. */
export interface DeviceAssessment {
  readonly decision: PolicyDecision;
  readonly reasons: readonly string[];
  readonly result: DeviceSecurityResult;
  /** undefined without a device identifier (no fingerprint in the signals). */
  readonly observation: DeviceObservation | undefined;
}

const HOUR_MS = 3_600_000;

/**
 * Evaluates the signals of an `apSessionId` for one user's flow under the customer's device policy: spends
 * the id (a second use is `test.apSessionIDNotReplay` fail, still answered), scores the browser, looks the
 * source address up (country, network owner, Tor list, deny lists), reads the device's history with this user
 * (trust, velocity, travel), derives the assertions the inputs support and decides. Nothing is recorded: the
 * caller records `observation` after it has moved its flow.
 *
 * @example
 * const assessment = await assessDevice(devices, 'acme', {
 *   username: 'alice', flow: 'authenticate', flowTokenHash, apSessionId, provesUser: true,
 * });
 * assessment.result.responseDetail.policyDecision; // 'approve'
 * @throws {ApiError} 404 unknown apSessionId (or another customer's, or removed after a day), 410 expired
 */
export async function assessDevice(
  ctx: DeviceContext,
  customer: string,
  flow: {
    readonly username: string;
    readonly flow: 'enroll' | 'authenticate';
    readonly flowTokenHash: string;
    readonly apSessionId: string;
    /** An approved check of this flow proves the user (authentication after verifyDevice). */
    readonly provesUser: boolean;
  },
): Promise<DeviceAssessment> {
  const now = ctx.now();
  const sessionHash = sha256Hex(flow.apSessionId);
  const profile = await ctx.profiles.find(customer, sessionHash);
  if (profile === undefined) throw clientError(404, 'unknown apSessionId: post the device signals first');
  if (profile.usedAt === undefined && profile.expiresAt <= now)
    throw clientError(410, 'apSessionId expired: collect the device signals again');
  const replayed = !(await ctx.profiles.markUsed(customer, sessionHash, now));
  const stored: unknown = JSON.parse(profile.signals);
  // Checked as the route checked it: the row is data, never trusted as typed.
  if (!Value.Check(DeviceSignalsBody, stored)) throw new Error('device_profiles.signals does not hold device signals');
  const signals = stored;

  const policy = await ctx.devicePolicies.get(customer);
  const anomaly = scoreBrowserSignals(signals);
  const ip = await ctx.ipData.lookup(profile.ip);
  const visitorId = signals.fingerprint?.visitorId;
  const deviceHash = visitorId === undefined ? undefined : sha256Hex(`device-fingerprint:${visitorId}`);
  const history =
    deviceHash === undefined ? undefined : await ctx.observations.history(customer, flow.username, deviceHash, now);
  let travelMiles: number | undefined;
  if (ip.latitude !== undefined && ip.longitude !== undefined) {
    const here = { latitude: ip.latitude, longitude: ip.longitude };
    const earlier = await ctx.observations.locationsSince(customer, flow.username, new Date(now.getTime() - HOUR_MS));
    travelMiles = earlier.reduce((far, there) => Math.max(far, distanceMiles(here, there)), 0);
  }
  const assertions = deriveAssertions({
    now,
    replayed,
    anomalyScore: anomaly.score,
    anomalyThreshold: policy.anomalyThreshold,
    ip,
    networkKind: ip.network === undefined ? undefined : networkKind(ip.network, policy),
    onTorList: ctx.torList === undefined ? undefined : ctx.torList.has(ip.ip),
    onIpDenyList: policy.denyIps.length === 0 ? undefined : ipRangeSet(policy.denyIps).has(ip.ip),
    onDeviceDenyList:
      policy.denyDevices.length === 0 || visitorId === undefined ? undefined : policy.denyDevices.includes(visitorId),
    timeZone: signals.timeZone,
    history,
    travelMiles,
  });
  const { decision, obligation, reasons } = decidePolicy(assertions, policy);

  const date = formatAttributeDate(now);
  const description = reasons.join('; ');
  const code = decision === 'approve' ? '' : decision === 'review' ? 'POLICY_REVIEW' : 'POLICY_REJECT';
  const result: DeviceSecurityResult = {
    errorCode: code === '' ? null : code,
    errorMsg: code === '' ? null : description,
    responseDetail: {
      errorCode: code,
      errorDescription: code === '' ? '' : description,
      transaction_id: randomUUID(),
      userAttributes: [{ attributeType: 'APSessionID', dateCreated: date, values: { apSessionId: flow.apSessionId } }],
      acquiredAttributes: acquiredAttributes(signals, ip, anomaly, now),
      userAssertionList: [{ ...DEVICE_PROVIDER, dateAsserted: date, assertions }],
      mbun: flow.username,
      forwardApiKey: '',
      policyObligation: obligation,
      policyDecision: decision,
    },
  };
  const observation: DeviceObservation | undefined =
    deviceHash === undefined
      ? undefined
      : {
          customer,
          username: flow.username,
          deviceHash,
          flow: flow.flow,
          flowTokenHash: flow.flowTokenHash,
          decision,
          confirmed: flow.provesUser && decision === 'approve',
          // Coarse: a city database's point, rounded to about 10 km.
          latitude: ip.latitude === undefined ? undefined : Math.round(ip.latitude * 10) / 10,
          longitude: ip.longitude === undefined ? undefined : Math.round(ip.longitude * 10) / 10,
          at: now,
        };
  return { decision, reasons, result, observation };
}
