import { getTimezone } from 'countries-and-timezones';

/**
 * The countries that use an IANA time zone (`countries-and-timezones`, MIT, from the tz database's
 * zone1970.tab and its links), or undefined when the zone names none (UTC, Etc/*) or is unknown.
 *
 * @example
 * timeZoneCountries('Europe/Berlin'); // ['DE', 'DK', 'NO', 'SE', 'SJ']
 */
export function timeZoneCountries(timeZone: string): readonly string[] | undefined {
  let zone = getTimezone(timeZone);
  // A deprecated alias (Asia/Calcutta) carries its countries; an alias without any, its target.
  if (zone !== null && zone.countries.length === 0 && typeof zone.aliasOf === 'string')
    zone = getTimezone(zone.aliasOf);
  return zone === null || zone.countries.length === 0 ? undefined : zone.countries;
}
