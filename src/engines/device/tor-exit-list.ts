import { readFileSync, statSync } from 'node:fs';
import { normalizeIp } from './ip-address.js';

/** A Tor exit list read from a file, re-read when the file changes. */
export interface TorExitList {
  has(ip: string): boolean;
  /** Addresses in the list as last read. */
  readonly size: number;
}

/**
 * Parses a Tor exit list: the Tor Project's bulk list (one address a line) or its `exit-addresses` format
 * (`ExitAddress 185.220.101.1 2025-01-01 00:00:00` lines, other lines ignored); `#` starts a comment.
 *
 * @example
 * parseTorExitList('# exits\n185.220.101.1\nExitAddress 2001:db8::1 2025-01-01 00:00:00\n').size; // 2
 */
export function parseTorExitList(text: string): Set<string> {
  const addresses = new Set<string>();
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '').trim();
    if (line === '') continue;
    const [first = '', second = ''] = line.split(/\s+/);
    const ip = normalizeIp(first === 'ExitAddress' ? second : first);
    if (ip !== undefined) addresses.add(ip);
  }
  return addresses;
}

/**
 * Opens the list at `path` (VERIPORT_TOR_EXIT_LIST). No npm or Debian package ships one: the operator fetches
 * it (e.g. daily, from the Tor Project's bulk exit list) and the server re-reads the file when its
 * modification time changes, checked at most every `recheckMs`. A file that disappears or cannot be read
 * later keeps the last list.
 *
 * @example
 * const tor = torExitList('/var/lib/veriport/tor-exits.txt');
 * tor.has('185.220.101.1');
 * @throws {Error} when the file cannot be read at start
 */
export function torExitList(path: string, recheckMs = 60_000, now: () => number = Date.now): TorExitList {
  const read = () => {
    const { mtimeMs } = statSync(path);
    return { mtimeMs, addresses: parseTorExitList(readFileSync(path, 'utf8')) };
  };
  let current = read();
  let checkedAt = now();
  const fresh = () => {
    if (now() - checkedAt < recheckMs) return current.addresses;
    checkedAt = now();
    try {
      if (statSync(path).mtimeMs !== current.mtimeMs) current = read();
    } catch {
      // Keep the last list: a list being replaced or briefly missing must not let every exit through.
    }
    return current.addresses;
  };
  return {
    has: (ip) => fresh().has(normalizeIp(ip) ?? ip),
    get size() {
      return fresh().size;
    },
  };
}
