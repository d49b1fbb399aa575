import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { ipToBigInt } from './ip-address.js';

/** The network an address belongs to. */
export interface NetworkOwner {
  /** Autonomous system number. */
  readonly asn: number;
  /** Its holder's name, e.g. `Google LLC`. */
  readonly organization: string;
}

/** IP range → autonomous system, from range CSV files (`start,end,asn,organization`, addresses as integers). */
export interface AsnTable {
  lookup(ip: string): NetworkOwner | undefined;
  /** Ranges loaded (IPv4, IPv6). */
  readonly size: { readonly ipv4: number; readonly ipv6: number };
}

/**
 * Loads range tables such as those of `@ip-location-db/asn` (RouteViews, the RIRs' delegations and DB-IP's
 * IP-to-ASN Lite, CC BY 4.0): `asn-ipv4-num.csv` and `asn-ipv6-num.csv`, about 410,000 and 100,000 ranges,
 * kept in typed arrays (about 17 MB) and searched by bisection. Synchronous: for tools and tests; a server
 * uses {@link loadAsnTableInBackground}, which keeps its event loop free while it parses.
 *
 * @example
 * const table = loadAsnTable(ipv4Csv, ipv6Csv);
 * table.lookup('8.8.8.8'); // { asn: 15169, organization: 'Google LLC' }
 * @throws {Error} when a file cannot be read or holds a malformed line
 */
export function loadAsnTable(ipv4CsvPath: string, ipv6CsvPath: string): AsnTable {
  const organizations = organizationNames();
  const v4 = drain(rangeParser(readFileSync(ipv4CsvPath, 'utf8'), ipv4CsvPath, organizations.id));
  const v6 = drain(rangeParser(readFileSync(ipv6CsvPath, 'utf8'), ipv6CsvPath, organizations.id));
  return asnTable(v4, v6, organizations.names);
}

/**
 * {@link loadAsnTable} without blocking the event loop: the files are read asynchronously and parsed in
 * slices of {@link LINES_PER_SLICE} lines, each followed by a turn of the event loop (`setImmediate`), so that
 * the requests a server is serving meanwhile wait a slice (a few milliseconds), not the whole parse (1.5-2.7 s
 * on a 2-core machine for the shipped files).
 *
 * @example
 * const table = await loadAsnTableInBackground(ipv4Csv, ipv6Csv);
 * table.lookup('8.8.8.8'); // { asn: 15169, organization: 'Google LLC' }
 * @throws {Error} (rejects) when a file cannot be read or holds a malformed line
 */
export async function loadAsnTableInBackground(ipv4CsvPath: string, ipv6CsvPath: string): Promise<AsnTable> {
  const organizations = organizationNames();
  const [v4Text, v6Text] = await Promise.all([readFile(ipv4CsvPath, 'utf8'), readFile(ipv6CsvPath, 'utf8')]);
  const v4 = await drainInSlices(rangeParser(v4Text, ipv4CsvPath, organizations.id));
  const v6 = await drainInSlices(rangeParser(v6Text, ipv6CsvPath, organizations.id));
  return asnTable(v4, v6, organizations.names);
}

/** Lines parsed between two turns of the event loop by {@link loadAsnTableInBackground}. */
export const LINES_PER_SLICE = 10_000;

/** Organization names, each stored once and referred to by its index. */
function organizationNames(): { names: string[]; id: (name: string) => number } {
  const names: string[] = [];
  const index = new Map<string, number>();
  return {
    names,
    id(name) {
      let id = index.get(name);
      if (id === undefined) {
        id = names.length;
        names.push(name);
        index.set(name, id);
      }
      return id;
    },
  };
}

function asnTable(v4: Ranges, v6: Ranges, organizations: readonly string[]): AsnTable {
  const find = (table: Ranges, n: bigint): NetworkOwner | undefined => {
    const hi = n >> 64n;
    const lo = n & LOW_64;
    // The last range starting at or below n, then whether it reaches n.
    const i = lastAtOrBelow(table.count, (k) => {
      const startHi = table.startHi[k] ?? 0n;
      return startHi < hi || (startHi === hi && (table.startLo[k] ?? 0n) <= lo);
    });
    if (i < 0) return undefined;
    const endHi = table.endHi[i] ?? 0n;
    if (endHi < hi || (endHi === hi && (table.endLo[i] ?? 0n) < lo)) return undefined;
    const asn = table.asn[i] ?? 0;
    return asn === 0 ? undefined : { asn, organization: organizations[table.org[i] ?? 0] ?? '' };
  };
  return {
    size: { ipv4: v4.count, ipv6: v6.count },
    lookup(ip) {
      const family = isIP(ip);
      if (family === 0) return undefined;
      return find(family === 4 ? v4 : v6, ipToBigInt(ip));
    },
  };
}

/** Runs a parser to its end at once. */
function drain(parser: Generator<void, Ranges>): Ranges {
  for (;;) {
    const step = parser.next();
    if (step.done === true) return step.value;
  }
}

/** Runs a parser to its end, giving the event loop a turn at each of its pauses. */
async function drainInSlices(parser: Generator<void, Ranges>): Promise<Ranges> {
  for (;;) {
    const step = parser.next();
    if (step.done === true) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

const LOW_64 = 0xffffffffffffffffn;

/** Ranges ordered by start; a 128-bit bound is kept as its high and low 64 bits. */
interface Ranges {
  readonly count: number;
  readonly startHi: BigUint64Array;
  readonly startLo: BigUint64Array;
  readonly endHi: BigUint64Array;
  readonly endLo: BigUint64Array;
  readonly asn: Uint32Array;
  readonly org: Uint32Array;
}

/**
 * Parses `start,end,asn,organization` lines (the organization may be quoted: "a, b", with "" for a quote),
 * pausing (a `yield`) every {@link LINES_PER_SLICE} lines; `path` names the file in errors.
 */
function* rangeParser(text: string, path: string, orgId: (name: string) => number): Generator<void, Ranges> {
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines += 1;
  const r = {
    count: 0,
    startHi: new BigUint64Array(lines),
    startLo: new BigUint64Array(lines),
    endHi: new BigUint64Array(lines),
    endLo: new BigUint64Array(lines),
    asn: new Uint32Array(lines),
    org: new Uint32Array(lines),
  };
  let sorted = true;
  let lineNumber = 0;
  for (let from = 0; from < text.length;) {
    let to = text.indexOf('\n', from);
    if (to < 0) to = text.length;
    const line = text.slice(from, text[to - 1] === '\r' ? to - 1 : to);
    from = to + 1;
    lineNumber += 1;
    if (lineNumber % LINES_PER_SLICE === 0) yield;
    if (line === '') continue;
    const first = line.indexOf(',');
    const second = line.indexOf(',', first + 1);
    const third = line.indexOf(',', second + 1);
    const start = line.slice(0, first);
    const end = line.slice(first + 1, second);
    const asn = line.slice(second + 1, third);
    if (first < 0 || second < 0 || third < 0 || !DIGITS.test(start) || !DIGITS.test(end) || !/^\d{1,10}$/.test(asn))
      throw new Error(`${path}:${lineNumber}: not a 'start,end,asn,organization' range line`);
    let organization = line.slice(third + 1);
    if (organization.startsWith('"') && organization.endsWith('"'))
      organization = organization.slice(1, -1).replaceAll('""', '"');
    const i = r.count;
    // IPv4 bounds fit a number; only IPv6 ones need BigInt.
    if (start.length < 16 && end.length < 16) {
      r.startLo[i] = BigInt(Number(start));
      r.endLo[i] = BigInt(Number(end));
    } else {
      const s = BigInt(start);
      const e = BigInt(end);
      r.startHi[i] = s >> 64n;
      r.startLo[i] = s & LOW_64;
      r.endHi[i] = e >> 64n;
      r.endLo[i] = e & LOW_64;
    }
    r.asn[i] = Number(asn);
    r.org[i] = orgId(organization);
    if (i > 0 && compare(r, i - 1, i) > 0) sorted = false;
    r.count += 1;
  }
  return sorted ? r : sortRanges(r);
}

const DIGITS = /^\d{1,39}$/;

function compare(r: Ranges, a: number, b: number): number {
  const ha = r.startHi[a] ?? 0n;
  const hb = r.startHi[b] ?? 0n;
  if (ha !== hb) return ha < hb ? -1 : 1;
  const la = r.startLo[a] ?? 0n;
  const lb = r.startLo[b] ?? 0n;
  return la < lb ? -1 : la > lb ? 1 : 0;
}

/** The same ranges ordered by start (the shipped files are ordered; a configured one need not be). */
function sortRanges(r: Ranges): Ranges {
  const order = Array.from({ length: r.count }, (_, i) => i).sort((a, b) => compare(r, a, b));
  const bigs = (source: BigUint64Array) => BigUint64Array.from(order, (i) => source[i] ?? 0n);
  const ints = (source: Uint32Array) => Uint32Array.from(order, (i) => source[i] ?? 0);
  return {
    count: r.count,
    startHi: bigs(r.startHi),
    startLo: bigs(r.startLo),
    endHi: bigs(r.endHi),
    endLo: bigs(r.endLo),
    asn: ints(r.asn),
    org: ints(r.org),
  };
}

/** The last index k < n for which `atOrBelow(k)` holds (it holds for a prefix of the indices), or -1. */
function lastAtOrBelow(n: number, atOrBelow: (k: number) => boolean): number {
  let lo = 0;
  let hi = n - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (atOrBelow(mid)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}
