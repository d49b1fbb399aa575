import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scoreBrowserSignals } from '../../../../src/engines/device/browser-anomaly.js';
import {
  acquiredAttributes,
  attributeValueKey,
  formatAttributeDate,
} from '../../../../src/engines/device/device-attributes.js';
import { ORDINARY, recordedSignals } from '../../../helpers/device-signals.js';

describe('attributeValueKey (Doc 1 value-key rule)', () => {
  it('lower-cases the first letter, with the exceptions Doc 1 names', () => {
    const expected: Record<string, string> = {
      TrueIPConnectionType: 'trueIPConnectionType',
      TrueIP: 'trueIP',
      TrueIPGeoCountry: 'trueIPGeoCountry',
      BiometricReasonCode: 'biometricReasonCode',
      FuzzyDeviceID: 'fuzzyDeviceID',
      OperatingSystemAnomaly: 'operatingSystemAnomaly',
      SmartIDBrowserstringPersonaAgeMonths: 'smartIDBrowserStringPersonaAge',
      ExactIDIPPersonaAgeMonths: 'exactIDIPPersonaAge',
      NEATPersonaAgeMonths: 'NEATPersonaAge',
      HTMLLocationLatitude: 'htmlLocationLatitude',
      HTMLLocationLongitude: 'htmlLocationLongitude',
      HTMLLocationAccuracy: 'htmlLocationAccuracy',
      VeriportScore: 'veriportscore',
    };
    for (const [type, key] of Object.entries(expected)) assert.equal(attributeValueKey(type), key, type);
  });
});

describe('formatAttributeDate', () => {
  it('writes MM/dd/yyyy HH:mm:ss in UTC', () => {
    assert.equal(formatAttributeDate(new Date(Date.UTC(2025, 0, 31, 3, 5, 9))), '01/31/2025 03:05:09');
    assert.equal(formatAttributeDate(new Date(Date.UTC(2025, 11, 1, 23, 59, 0))), '12/01/2025 23:59:00');
  });
});

describe('acquiredAttributes', () => {
  const at = new Date(Date.UTC(2026, 0, 15, 12));
  const valueOf = (items: ReturnType<typeof acquiredAttributes>, type: string) =>
    items.find((i) => i.attributeType === type)?.values[attributeValueKey(type)];

  it('states what the signals and the address give, as strings, and leaves out what they do not', () => {
    const signals = ORDINARY.iphoneSafari;
    const items = acquiredAttributes(
      signals,
      {
        ip: '81.2.69.142',
        routable: true,
        country: 'GB',
        network: { asn: 20712, organization: 'Andrews & Arnold Ltd' },
      },
      scoreBrowserSignals(signals),
      at,
    );
    assert.equal(valueOf(items, 'TrueIP'), '81.2.69.142');
    assert.equal(valueOf(items, 'TrueIPGeoCountry'), 'GB');
    assert.equal(valueOf(items, 'TrueIPASN'), '20712');
    assert.equal(valueOf(items, 'OperatingSystem'), 'iOS');
    assert.equal(valueOf(items, 'OperatingSystemVersion'), '18.6');
    assert.equal(valueOf(items, 'OperatingSystemAnomaly'), 'false');
    assert.equal(valueOf(items, 'ScreenResolution'), '393x852');
    assert.equal(valueOf(items, 'FuzzyDeviceID'), signals.fingerprint?.visitorId);
    assert.equal(valueOf(items, 'FuzzyDeviceIDConfidence'), '40');
    assert.equal(valueOf(items, 'HTMLLocationLatitude'), '48.8566');
    assert.equal(valueOf(items, 'VeriportScore'), '0');
    assert.equal(valueOf(items, 'TrueIPCity'), undefined, 'no city database');
    assert.equal(valueOf(items, 'BrowserSpoofReason'), undefined, 'nothing spoofed');
    for (const item of items) {
      assert.equal(item.provider, 'veriport');
      assert.equal(item.dateCreated, '01/15/2026 12:00:00');
      assert.equal(Object.keys(item.values).length, 1);
    }
  });

  it('names the spoofing reasons and the operating-system anomaly of an emulated phone', () => {
    const signals = recordedSignals('playwright-pixel7');
    const items = acquiredAttributes(signals, { ip: '10.0.0.2', routable: false }, scoreBrowserSignals(signals), at);
    assert.equal(valueOf(items, 'OperatingSystemAnomaly'), 'true');
    assert.equal(
      valueOf(items, 'BrowserSpoofReason'),
      'hints-version-mismatch,platform-mismatch,software-renderer,mobile-plugins',
    );
    assert.equal(valueOf(items, 'VeriportScore'), '95');
    assert.equal(valueOf(items, 'TrueIPGeoCountry'), undefined);
  });
});
