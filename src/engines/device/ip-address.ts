import { BlockList, isIP } from 'node:net';

/** Ranges no geolocation or network owner applies to: private, loopback, link-local, documentation, ... */
const NOT_ROUTABLE = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NOT_ROUTABLE.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 127],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  NOT_ROUTABLE.addSubnet(network, prefix, 'ipv6');

/**
 * The canonical text of an address as the server saw it, or undefined when it is none: IPv4-mapped IPv6
 * (`::ffff:81.2.69.142`, what a dual-stack socket reports) becomes IPv4; IPv6 is lower-cased and a zone
 * (`%eth0`) dropped.
 *
 * @example
 * normalizeIp('::ffff:81.2.69.142'); // '81.2.69.142'
 */
export function normalizeIp(address: string): string | undefined {
  const text = address.trim().toLowerCase().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text)?.[1];
  if (mapped !== undefined) return isIP(mapped) === 4 ? mapped : undefined;
  return isIP(text) === 0 ? undefined : text;
}

/**
 * Whether an (normalized) address is on the public internet: not private, loopback, link-local, shared,
 * multicast, reserved or a documentation range (RFC 5737, RFC 3849). Lookups in geolocation data are made
 * only for these (the shipped data holds stray entries for some documentation ranges).
 *
 * @example
 * isRoutableIp('203.0.113.7'); // false (TEST-NET-3)
 */
export function isRoutableIp(ip: string): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  return !NOT_ROUTABLE.check(ip, family === 4 ? 'ipv4' : 'ipv6');
}

/** A set of addresses and CIDR ranges (a deny list). */
export interface IpRangeSet {
  has(ip: string): boolean;
}

/**
 * Builds a set from addresses and CIDR ranges (`203.0.113.7`, `198.51.100.0/24`, `2001:db8::/32`).
 *
 * @example
 * ipRangeSet(['198.51.100.0/24']).has('198.51.100.9'); // true
 * @throws {RangeError} naming an entry that is neither
 */
export function ipRangeSet(entries: readonly string[]): IpRangeSet {
  const list = new BlockList();
  for (const entry of entries) {
    const parsed = parseIpRange(entry);
    if (parsed === undefined) throw new RangeError(`'${entry}' is not an IP address or CIDR range`);
    list.addSubnet(parsed.network, parsed.prefix, parsed.family);
  }
  return {
    has(ip) {
      const family = isIP(ip);
      return family !== 0 && list.check(ip, family === 4 ? 'ipv4' : 'ipv6');
    },
  };
}

/**
 * An address or CIDR range, or undefined when the text is neither.
 *
 * @example
 * parseIpRange('2001:db8::/32'); // { network: '2001:db8::', prefix: 32, family: 'ipv6' }
 */
export function parseIpRange(entry: string): { network: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText, ...rest] = entry.trim().split('/');
  const network = normalizeIp(address);
  if (network === undefined || rest.length > 0) return undefined;
  const family = isIP(network) === 4 ? 'ipv4' : 'ipv6';
  const max = family === 'ipv4' ? 32 : 128;
  if (prefixText === undefined) return { network, prefix: max, family };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > max) return undefined;
  return { network, prefix: Number(prefixText), family };
}

/**
 * An IPv6 address (normalized text) as a 128-bit integer; IPv4 as the 32-bit one.
 *
 * @example
 * ipToBigInt('::1'); // 1n
 */
export function ipToBigInt(ip: string): bigint {
  if (isIP(ip) === 4) return ip.split('.').reduce((n, octet) => (n << 8n) | BigInt(Number(octet)), 0n);
  let text = ip;
  // An embedded IPv4 tail (::ffff:1.2.3.4 after normalization is IPv4 already; 64:ff9b::1.2.3.4 is not).
  const v4 = /(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text)?.[1];
  if (v4 !== undefined) {
    const n = Number(ipToBigInt(v4));
    text = `${text.slice(0, -v4.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.reduce((n, group) => (n << 16n) | BigInt(Number.parseInt(group || '0', 16)), 0n);
}
