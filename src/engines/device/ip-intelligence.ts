import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Reader, type Response } from 'mmdb-lib';
import { isFiniteNumber, isRecord } from '../../lib/json-guards.js';
import { loadAsnTableInBackground, type AsnTable, type NetworkOwner } from './asn-table.js';
import { isRoutableIp, normalizeIp } from './ip-address.js';

/** What the data says about one address; a member is absent when the data does not say. */
export interface IpFacts {
  /** The address (IPv4-mapped IPv6 as IPv4). */
  readonly ip: string;
  /** On the public internet (not private, loopback, documentation, ...): only such addresses are looked up. */
  readonly routable: boolean;
  /** ISO 3166-1 alpha-2. */
  readonly country?: string;
  /** Only with a city database (VERIPORT_GEOIP_MMDB). */
  readonly city?: string;
  readonly latitude?: number;
  readonly longitude?: number;
  readonly network?: NetworkOwner;
}

/** IP geolocation and network owner. */
export interface IpIntelligence {
  /** Asynchronous: the first lookup of a public address waits for the shipped ASN table to load. */
  lookup(address: string): Promise<IpFacts>;
  /** Where each kind of fact comes from, for the documentation and `veriport --version`-like listings. */
  readonly sources: { readonly geolocation: string; readonly network: string };
}

/** Configured database files replacing the shipped data. */
export interface IpDataFiles {
  /** A country or city MMDB (MaxMind GeoLite2/GeoIP2, DB-IP Lite, ip-location-db): VERIPORT_GEOIP_MMDB. */
  readonly geoMmdb?: string | undefined;
  /** An ASN MMDB (GeoLite2-ASN layout): VERIPORT_GEOIP_ASN_MMDB. */
  readonly asnMmdb?: string | undefined;
}

const require = createRequire(import.meta.url);
const packageFile = (name: string, file: string) => join(dirname(require.resolve(`${name}/package.json`)), file);

/** The shipped country data: `@ip-location-db/geo-whois-asn-country-mmdb` (CC0), IPv4 and IPv6 in one file. */
export const SHIPPED_COUNTRY_MMDB = packageFile(
  '@ip-location-db/geo-whois-asn-country-mmdb',
  'geo-whois-asn-country.mmdb',
);
/** The shipped network owners: `@ip-location-db/asn` (CC BY 4.0: RouteViews, NRO, DB-IP). */
export const SHIPPED_ASN_CSV = {
  ipv4: packageFile('@ip-location-db/asn', 'asn-ipv4-num.csv'),
  ipv6: packageFile('@ip-location-db/asn', 'asn-ipv6-num.csv'),
};

/** Opened databases, shared by every app of the process (tests build many). */
const readers = new Map<string, Reader<Response>>();
let shippedAsnTable: Promise<AsnTable> | undefined;

/**
 * Builds the lookup over the configured files, else the shipped ones. An MMDB file is read when this is
 * called (a missing or corrupt configured file stops the start); the shipped ASN table (~1.5-2.7 s to parse,
 * ~17 MB) on the first lookup of a public address, once per process, in slices that leave the event loop free
 * (`loadAsnTableInBackground`): the other requests go on meanwhile; lookups wait for it.
 *
 * @example
 * const facts = await ipIntelligence({}).lookup('81.2.69.142');
 * facts.country; // 'GB'
 * facts.network?.organization; // 'Andrews & Arnold Ltd'
 * @throws {Error} naming a configured file that cannot be read as an MMDB database
 */
export function ipIntelligence(files: IpDataFiles): IpIntelligence {
  const geo = openReader(files.geoMmdb ?? SHIPPED_COUNTRY_MMDB);
  const asn = files.asnMmdb === undefined ? undefined : openReader(files.asnMmdb);
  const network = async (ip: string): Promise<NetworkOwner | undefined> => {
    if (asn === undefined) {
      const loading = (shippedAsnTable ??= loadAsnTableInBackground(SHIPPED_ASN_CSV.ipv4, SHIPPED_ASN_CSV.ipv6));
      try {
        return (await loading).lookup(ip);
      } catch (error) {
        // A failed load (a broken install) is tried again by the next lookup rather than cached.
        if (shippedAsnTable === loading) shippedAsnTable = undefined;
        throw error;
      }
    }
    const record = asn.get(ip);
    if (!isRecord(record)) return undefined;
    const number = record.autonomous_system_number;
    const organization = record.autonomous_system_organization;
    return isFiniteNumber(number) && number > 0
      ? { asn: number, organization: typeof organization === 'string' ? organization : '' }
      : undefined;
  };
  return {
    sources: {
      geolocation: files.geoMmdb ?? '@ip-location-db/geo-whois-asn-country-mmdb (CC0)',
      network: files.asnMmdb ?? '@ip-location-db/asn (CC BY 4.0: RouteViews, NRO, DB-IP)',
    },
    async lookup(address) {
      const ip = normalizeIp(address) ?? address;
      if (!isRoutableIp(ip)) return { ip, routable: false };
      const owner = await network(ip);
      return { ip, routable: true, ...placeOf(geo.get(ip)), ...(owner === undefined ? {} : { network: owner }) };
    },
  };
}

function openReader(path: string): Reader<Response> {
  let reader = readers.get(path);
  if (reader === undefined) {
    try {
      reader = new Reader<Response>(readFileSync(path));
    } catch (error) {
      throw new Error(
        `${path}: not a readable MMDB database (${error instanceof Error ? error.message : String(error)})`,
        { cause: error },
      );
    }
    readers.set(path, reader);
  }
  return reader;
}

/**
 * Country, city and coordinates of a record in either layout: MaxMind's (`country.iso_code`,
 * `city.names.en`, `location.latitude`) or ip-location-db's flat one (`country_code`, `city`, `latitude`).
 */
function placeOf(record: unknown): Pick<IpFacts, 'country' | 'city' | 'latitude' | 'longitude'> {
  if (!isRecord(record)) return {};
  const nested = (outer: string, inner: string): unknown => {
    const value = record[outer];
    return isRecord(value) ? value[inner] : undefined;
  };
  const cityNames = nested('city', 'names');
  const country = record.country_code ?? nested('country', 'iso_code');
  const city = typeof record.city === 'string' ? record.city : isRecord(cityNames) ? cityNames.en : undefined;
  const latitude = record.latitude ?? nested('location', 'latitude');
  const longitude = record.longitude ?? nested('location', 'longitude');
  return {
    ...(typeof country === 'string' && /^[A-Z]{2}$/.test(country) ? { country } : {}),
    ...(typeof city === 'string' && city !== '' ? { city } : {}),
    ...(isFiniteNumber(latitude) && isFiniteNumber(longitude) ? { latitude, longitude } : {}),
  };
}
