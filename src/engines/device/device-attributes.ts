import type { AnomalyScore } from './browser-anomaly.js';
import type { DeviceSignals } from '../../lib/device-signals.js';
import type { IpFacts } from './ip-intelligence.js';

/** Who answers the attributes and assertions (Doc 1 `provider`, `serviceOffering`). */
export const DEVICE_PROVIDER = { provider: 'veriport', serviceOffering: 'device-intelligence' } as const;

/** The provider score attribute (Doc 1: a type ending in `Score`): the browser-anomaly score, 0-100. */
export const PROVIDER_SCORE_TYPE = 'VeriportScore';

/** One item of Doc 1's `acquiredAttributes`: a single string value under {@link attributeValueKey}. */
export interface AcquiredAttribute {
  readonly provider: string;
  readonly serviceOffering: string;
  readonly attributeType: string;
  readonly dateCreated: string;
  readonly values: Readonly<Record<string, string>>;
}

const VALUE_KEY_EXCEPTIONS: Readonly<Record<string, string>> = {
  SmartIDBrowserstringPersonaAgeMonths: 'smartIDBrowserStringPersonaAge',
  ExactIDIPPersonaAgeMonths: 'exactIDIPPersonaAge',
  NEATPersonaAgeMonths: 'NEATPersonaAge',
};

/**
 * Doc 1's value-key rule: the attribute type with its first letter lower-cased, except the three persona
 * ages, the `HTMLLocation...` types (`htmlLocation...`) and the provider score (all lower case).
 *
 * @example
 * attributeValueKey('TrueIPGeoCountry'); // 'trueIPGeoCountry'
 * attributeValueKey('HTMLLocationLatitude'); // 'htmlLocationLatitude'
 * attributeValueKey('VeriportScore'); // 'veriportscore'
 */
export function attributeValueKey(attributeType: string): string {
  const exception = VALUE_KEY_EXCEPTIONS[attributeType];
  if (exception !== undefined) return exception;
  if (attributeType.startsWith('HTMLLocation')) return `htmlLocation${attributeType.slice('HTMLLocation'.length)}`;
  if (attributeType === PROVIDER_SCORE_TYPE) return attributeType.toLowerCase();
  return `${attributeType.charAt(0).toLowerCase()}${attributeType.slice(1)}`;
}

/**
 * Doc 1's date format (slash-separated date, then 24-hour time; the order of day and month is not shown):
 * `MM/dd/yyyy HH:mm:ss`, in UTC.
 *
 * @example
 * formatAttributeDate(new Date(Date.UTC(2025, 0, 31, 13, 5, 9))); // '01/31/2025 13:05:09'
 */
export function formatAttributeDate(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return (
    `${two(date.getUTCMonth() + 1)}/${two(date.getUTCDate())}/${date.getUTCFullYear()} ` +
    `${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(date.getUTCSeconds())}`
  );
}

/**
 * The acquired attributes Veriport can state from the signals, the address and the anomaly score; an
 * attribute it has no value for is left out (no city without a city database, no HTML location without the
 * user's consent). `TrueIPASN` and `TrueIPOrganization` are extensions beyond Doc 1's list.
 *
 * @example
 * acquiredAttributes(signals, ipFacts, scoreBrowserSignals(signals), new Date());
 */
export function acquiredAttributes(
  signals: DeviceSignals,
  ip: IpFacts,
  anomaly: AnomalyScore,
  at: Date,
): AcquiredAttribute[] {
  const dateCreated = formatAttributeDate(at);
  const items: AcquiredAttribute[] = [];
  const add = (attributeType: string, value: string | number | undefined) => {
    if (value === undefined || value === '') return;
    items.push({
      ...DEVICE_PROVIDER,
      attributeType,
      dateCreated,
      values: { [attributeValueKey(attributeType)]: String(value) },
    });
  };
  const ua = anomaly.userAgent;
  add('TrueIP', ip.ip);
  add('TrueIPGeoCountry', ip.country);
  add('TrueIPCity', ip.city);
  add('TrueIPLatitude', ip.latitude);
  add('TrueIPLongitude', ip.longitude);
  add('TrueIPASN', ip.network?.asn);
  add('TrueIPOrganization', ip.network?.organization);
  add('Platform', signals.platform);
  add('OperatingSystem', ua.osName);
  add('OperatingSystemVersion', ua.osVersion);
  add('OperatingSystemAnomaly', String(anomaly.findings.some((f) => f.osRelated)));
  add('BrowserSpoofReason', anomaly.findings.map((f) => f.code).join(','));
  add('ScreenResolution', `${signals.screen.width}x${signals.screen.height}`);
  add('FuzzyDeviceID', signals.fingerprint?.visitorId);
  add(
    'FuzzyDeviceIDConfidence',
    signals.fingerprint === null ? undefined : Math.round(signals.fingerprint.confidence * 100),
  );
  if (signals.geolocation !== null) {
    add('HTMLLocationLatitude', signals.geolocation.latitude);
    add('HTMLLocationLongitude', signals.geolocation.longitude);
    add('HTMLLocationAccuracy', signals.geolocation.accuracy);
  }
  add(PROVIDER_SCORE_TYPE, Math.round(anomaly.score * 100));
  return items;
}
