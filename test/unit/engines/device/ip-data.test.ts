import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { LINES_PER_SLICE, loadAsnTable, loadAsnTableInBackground } from '../../../../src/engines/device/asn-table.js';
import {
  ipRangeSet,
  ipToBigInt,
  isRoutableIp,
  normalizeIp,
  parseIpRange,
} from '../../../../src/engines/device/ip-address.js';
import { ipIntelligence } from '../../../../src/engines/device/ip-intelligence.js';
import { networkKind } from '../../../../src/engines/device/network-owners.js';
import { timeZoneCountries } from '../../../../src/engines/device/time-zone-country.js';
import { parseTorExitList, torExitList } from '../../../../src/engines/device/tor-exit-list.js';

const dir = mkdtempSync(join(tmpdir(), 'veriport-ip-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('IP addresses', () => {
  it('normalizes what a socket reports', () => {
    assert.equal(normalizeIp('::ffff:81.2.69.142'), '81.2.69.142');
    assert.equal(normalizeIp('2001:DB8::1'), '2001:db8::1');
    assert.equal(normalizeIp('fe80::1%eth0'), 'fe80::1');
    assert.equal(normalizeIp('not an address'), undefined);
    assert.equal(normalizeIp('::ffff:999.1.1.1'), undefined);
  });

  it('tells public addresses from private, loopback and documentation ones', () => {
    for (const ip of ['81.2.69.142', '8.8.8.8', '2001:4860:4860::8888']) assert.ok(isRoutableIp(ip), ip);
    for (const ip of [
      '10.1.1.1',
      '127.0.0.1',
      '192.168.0.1',
      '100.64.0.1',
      '192.0.2.1',
      '198.51.100.1',
      '203.0.113.9',
      '::1',
      'fd00::1',
      '2001:db8::5',
      'x',
    ])
      assert.ok(!isRoutableIp(ip), ip);
  });

  it('matches addresses against deny lists of addresses and CIDR ranges', () => {
    const list = ipRangeSet(['198.51.100.0/24', '203.0.113.7', '2001:db8:1::/48']);
    assert.ok(list.has('198.51.100.200'));
    assert.ok(list.has('203.0.113.7'));
    assert.ok(!list.has('203.0.113.8'));
    assert.ok(list.has('2001:db8:1:ffff::1'));
    assert.ok(!list.has('2001:db8:2::1'));
    assert.ok(!list.has('garbage'));
    assert.throws(() => ipRangeSet(['1.2.3.4/40']), RangeError);
    assert.equal(parseIpRange('1.2.3.4/x'), undefined);
  });

  it('converts addresses to integers', () => {
    assert.equal(ipToBigInt('1.0.0.1'), 16777217n);
    assert.equal(ipToBigInt('::1'), 1n);
    assert.equal(ipToBigInt('2001:db8::'), 0x20010db8n << 96n);
    assert.equal(ipToBigInt('64:ff9b::1.2.3.4'), (0x64ff9bn << 96n) | 0x01020304n);
  });
});

describe('network owners', () => {
  it('reads range tables, quoted organisations, unsorted files', () => {
    const v4 = join(dir, 'v4.csv');
    const v6 = join(dir, 'v6.csv');
    writeFileSync(v4, '3232235776,3232236031,64500,"Example, Inc."\n16777216,16777471,64501,Plain Net\n');
    writeFileSync(
      v6,
      `${(0x20010db8n << 96n).toString()},${((0x20010db8n << 96n) | 0xffffn).toString()},64502,V6 "Net"\n`,
    );
    const table = loadAsnTable(v4, v6);
    assert.deepEqual(table.size, { ipv4: 2, ipv6: 1 });
    assert.deepEqual(table.lookup('192.168.1.9'), { asn: 64500, organization: 'Example, Inc.' });
    assert.deepEqual(table.lookup('1.0.0.255'), { asn: 64501, organization: 'Plain Net' });
    assert.equal(table.lookup('1.0.1.0'), undefined);
    assert.deepEqual(table.lookup('2001:db8::ff'), { asn: 64502, organization: 'V6 "Net"' });
    assert.equal(table.lookup('2001:db8::1:0'), undefined);
    writeFileSync(v4, '1,2,x,bad\n');
    assert.throws(() => loadAsnTable(v4, v6), /v4\.csv:1/);
  });

  it('loads the same table in the background, in slices, and rejects a malformed line with its place', async () => {
    const v4 = join(dir, 'bg-v4.csv');
    const v6 = join(dir, 'bg-v6.csv');
    // 2.5 slices of ranges /24 apart, owner 64500 + (i mod 7), and one IPv6 range.
    const lines = Array.from({ length: 2.5 * LINES_PER_SLICE }, (_, i) => {
      const start = 16_777_216 + i * 256;
      return `${start},${start + 255},${64_500 + (i % 7)},Net ${i % 7}`;
    });
    writeFileSync(v4, `${lines.join('\n')}\n`);
    writeFileSync(v6, `${(0x20010db8n << 96n).toString()},${((0x20010db8n << 96n) | 0xffffn).toString()},64502,V6\n`);
    const table = await loadAsnTableInBackground(v4, v6);
    assert.deepEqual(table.size, loadAsnTable(v4, v6).size);
    assert.deepEqual(table.lookup('1.0.4.7'), { asn: 64504, organization: 'Net 4' });
    assert.deepEqual(table.lookup('2001:db8::1'), { asn: 64502, organization: 'V6' });
    writeFileSync(v4, `${lines.slice(0, LINES_PER_SLICE + 5).join('\n')}\n1,2,x,bad\n`);
    await assert.rejects(loadAsnTableInBackground(v4, v6), new RegExp(`bg-v4\\.csv:${LINES_PER_SLICE + 6}`));
  });

  it('classifies VPN services and hosting networks by owner', () => {
    assert.equal(networkKind({ asn: 209103, organization: 'Proton AG' }), 'vpn');
    assert.equal(networkKind({ asn: 16509, organization: 'Amazon.com, Inc.' }), 'hosting');
    assert.equal(networkKind({ asn: 64500, organization: 'Example Hosting Ltd' }), 'hosting');
    assert.equal(networkKind({ asn: 20712, organization: 'Andrews & Arnold Ltd' }), 'other');
    assert.equal(networkKind({ asn: 20712, organization: 'Andrews & Arnold Ltd' }, { vpnAsns: [20712] }), 'vpn');
  });
});

describe('the shipped IP data (@ip-location-db, CC0 and CC BY 4.0)', () => {
  const data = ipIntelligence({});

  // First in the file: this lookup is the one that loads the process's shipped ASN table.
  it('loads the ASN table on the first lookup without blocking the event loop', async () => {
    const pending = data.lookup('8.8.8.8');
    // Turns of the event loop taken while the table loads (a synchronous load would allow none).
    let turns = 0;
    let loaded = false;
    const tick = () => {
      if (loaded) return;
      turns += 1;
      setImmediate(tick);
    };
    setImmediate(tick);
    const facts = await pending;
    loaded = true;
    assert.equal(facts.network?.asn, 15169);
    assert.ok(turns >= 10, `the event loop turned ${turns} times during the load`);
  });

  it('locates a known address and names its network', async () => {
    const facts = await data.lookup('::ffff:81.2.69.142');
    assert.equal(facts.ip, '81.2.69.142');
    assert.equal(facts.country, 'GB');
    assert.deepEqual(facts.network, { asn: 20712, organization: 'Andrews & Arnold Ltd' });
    assert.equal(facts.city, undefined, 'country data only');
    const google = await data.lookup('8.8.8.8');
    assert.equal(google.country, 'US');
    assert.equal(google.network?.asn, 15169);
    assert.equal(networkKind(google.network ?? { asn: 0, organization: '' }), 'hosting');
    assert.equal((await data.lookup('2001:4860:4860::8888')).country, 'US');
  });

  it('looks nothing up for documentation and private ranges (the data has stray entries for some)', async () => {
    assert.deepEqual(await data.lookup('203.0.113.5'), { ip: '203.0.113.5', routable: false });
    assert.deepEqual(await data.lookup('10.0.0.1'), { ip: '10.0.0.1', routable: false });
  });

  it('refuses a configured file that is not an MMDB database', () => {
    const bogus = join(dir, 'bogus.mmdb');
    writeFileSync(bogus, 'not a database');
    assert.throws(() => ipIntelligence({ geoMmdb: bogus }), /bogus\.mmdb: not a readable MMDB database/);
  });
});

describe('Tor exit list', () => {
  it('parses the bulk list and the exit-addresses format', () => {
    const list = parseTorExitList(
      '# header\n185.220.101.1\n\nExitNode 0000\nExitAddress 2001:db8::9 2025-01-01 00:00:00\nPublished x\n::ffff:1.2.3.4\n',
    );
    assert.deepEqual([...list].sort(), ['1.2.3.4', '185.220.101.1', '2001:db8::9']);
  });

  it('re-reads the file when it changes, at most every recheck interval, and keeps the list if it vanishes', () => {
    const path = join(dir, 'exits.txt');
    writeFileSync(path, '185.220.101.1\n');
    let now = 0;
    const tor = torExitList(path, 60_000, () => now);
    assert.ok(tor.has('185.220.101.1'));
    writeFileSync(path, '185.220.101.2\n');
    utimesSync(path, new Date(), new Date(Date.now() + 5000));
    now = 30_000;
    assert.ok(tor.has('185.220.101.1'), 'not re-read within the interval');
    now = 61_000;
    assert.ok(tor.has('185.220.101.2'));
    assert.ok(!tor.has('185.220.101.1'));
    rmSync(path);
    now = 200_000;
    assert.ok(tor.has('185.220.101.2'), 'the last list stays');
    assert.throws(() => torExitList(join(dir, 'missing.txt')));
  });
});

describe('time zones and countries', () => {
  it('names the countries of a zone, following links, and none for UTC', () => {
    assert.ok(timeZoneCountries('Europe/Berlin')?.includes('DE'));
    assert.deepEqual(timeZoneCountries('Asia/Calcutta'), ['IN']);
    assert.deepEqual(timeZoneCountries('America/New_York'), ['US']);
    assert.equal(timeZoneCountries('Etc/UTC'), undefined);
    assert.equal(timeZoneCountries('Nowhere/Land'), undefined);
  });
});
