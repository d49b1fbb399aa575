import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  decidePolicy,
  DEFAULT_DEVICE_POLICY,
  DevicePolicyError,
  parseDevicePolicy,
} from '../../../../src/engines/device/device-policy.js';

describe('parseDevicePolicy', () => {
  it('keeps the defaults for members left out and changes only the rules named', () => {
    const policy = parseDevicePolicy({ rules: { 'test.trustedDevice': 'review' }, denyIps: [' 198.51.100.0/24 '] });
    assert.equal(policy.rules['test.trustedDevice'], 'review');
    assert.equal(policy.rules['detect.tor'], 'reject', 'default kept');
    assert.deepEqual(policy.denyIps, ['198.51.100.0/24']);
    assert.equal(policy.anomalyThreshold, DEFAULT_DEVICE_POLICY.anomalyThreshold);
    assert.deepEqual(parseDevicePolicy(JSON.parse(JSON.stringify(policy))), policy, 'what is stored reads back');
  });

  it('refuses what it cannot apply, naming the member', () => {
    const refused = (value: unknown, pattern: RegExp) =>
      assert.throws(
        () => parseDevicePolicy(value),
        (e: unknown) => e instanceof DevicePolicyError && pattern.test(e.message),
      );
    refused([], /JSON object/);
    refused({ colour: 'red' }, /unknown member 'colour'/);
    refused({ rules: { 'detect.jailbreak': 'reject' } }, /not an assertion Veriport derives/);
    refused({ rules: { 'detect.tor': 'block' } }, /rules\.detect\.tor: one of reject, review, ignore/);
    refused({ anomalyThreshold: 0 }, /anomalyThreshold/);
    refused({ denyIps: ['300.1.1.1'] }, /not an IP address or CIDR range/);
    refused({ denyIps: ['10.0.0.0/33'] }, /not an IP address or CIDR range/);
    refused({ denyDevices: ['a b'] }, /not a FuzzyDeviceID/);
    refused({ vpnAsns: [-1] }, /AS numbers/);
  });
});

describe('decidePolicy', () => {
  it('takes the most severe action among the failed assertions', () => {
    assert.deepEqual(
      decidePolicy({ 'test.apSessionIDNotReplay': 'pass', 'detect.browserAnomaly': 'pass' }, DEFAULT_DEVICE_POLICY),
      {
        decision: 'approve',
        obligation: false,
        reasons: [],
      },
    );
    const review = decidePolicy(
      { 'detect.browserAnomaly': 'fail', 'test.trustedDevice': 'fail' },
      DEFAULT_DEVICE_POLICY,
    );
    assert.deepEqual(review, {
      decision: 'review',
      obligation: true,
      reasons: ['detect.browserAnomaly failed: review'],
    });
    const reject = decidePolicy({ 'detect.browserAnomaly': 'fail', 'detect.tor': 'fail' }, DEFAULT_DEVICE_POLICY);
    assert.equal(reject.decision, 'reject');
    assert.equal(reject.obligation, false);
    assert.deepEqual(reject.reasons, ['detect.tor failed: reject', 'detect.browserAnomaly failed: review']);
  });

  it('lets a customer ignore, or raise, a rule', () => {
    const strict = parseDevicePolicy({ rules: { 'test.trustedDevice': 'reject', 'detect.browserAnomaly': 'ignore' } });
    assert.equal(decidePolicy({ 'detect.browserAnomaly': 'fail' }, strict).decision, 'approve');
    assert.equal(decidePolicy({ 'test.trustedDevice': 'fail' }, strict).decision, 'reject');
  });
});
