import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { usageCountersRepository, type UsageCountersRepository } from '../../src/store/usage-counters.js';
import { openStore, type Store } from '../../src/store/database.js';
import { currentPeriod, parseCsv, testApp } from '../helpers/app.js';
import { codedError, httpGet, httpPost } from '../helpers/http.js';

const CONFIRM = 731_905_268;
let store: Store;
let counters: UsageCountersRepository;
let app: FastifyInstance;
let shutdownRequests = 0;

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  counters = usageCountersRepository(store.db);
  app = await testApp(
    { VERIPORT_ADMIN_CONFIRM: String(CONFIRM) },
    { store, onShutdownRequested: () => (shutdownRequests += 1) },
  );
});
after(async () => {
  await app.close();
  await store.close();
});

// Known rows in three months of two servers; the report calls themselves add transaction-report rows.
beforeEach(async () => {
  await counters.reset({});
  await counters.addCounts([
    { serverName: 'face-matching', year: 2025, month: 12, endpoint: '/compare', counter: 5 },
    { serverName: 'face-matching', year: 2026, month: 1, endpoint: '/compare', counter: 7 },
    { serverName: 'face-matching', year: 2026, month: 1, endpoint: '/identify/{cacheName}', counter: 3 },
    { serverName: 'voice-matching', year: 2026, month: 1, endpoint: '/verify/{cacheName}', counter: 2 },
  ]);
});

const get = (url: string) => httpGet(app, url);
const post = (url: string, body: object) => httpPost(app, url, body);
const rowsOf = (csv: string, server?: string) =>
  parseCsv(csv).filter((r) => server === undefined || r.server_name === server);

describe('transaction report: reports', () => {
  it('answers /version as text', async () => {
    const response = await get('/transaction-report/version');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type'] ?? ''), /^text\/plain/);
    assert.match(response.body, /^Veriport transaction-report \d+\.\d+\.\d+$/);
  });

  it('serves a server report as a CSV download for one month', async () => {
    const response = await get('/transaction-report/serverReport/face-matching/2026/1');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type'] ?? ''), /^text\/csv/);
    assert.equal(
      response.headers['content-disposition'],
      'attachment; filename="veriport-usage-face-matching-2026-01.csv"',
    );
    assert.equal(
      response.body,
      'server_name,year,month,endpoint,counter\r\nface-matching,2026,1,/compare,7\r\nface-matching,2026,1,/identify/{cacheName},3\r\n',
    );
  });

  it('leaves out year and month by shorter paths or by 0', async () => {
    for (const url of [
      '/transaction-report/serverReport/face-matching',
      '/transaction-report/serverReport/face-matching/0/0',
    ]) {
      assert.deepEqual(
        rowsOf((await get(url)).body).map((r) => `${r.year}-${r.month} ${r.endpoint} ${r.counter}`),
        ['2025-12 /compare 5', '2026-1 /compare 7', '2026-1 /identify/{cacheName} 3'],
      );
    }
    const year2025 = rowsOf((await get('/transaction-report/serverReport/face-matching/2025')).body);
    assert.deepEqual(
      year2025.map((r) => r.counter),
      ['5'],
    );
    const januaries = rowsOf((await get('/transaction-report/serverReport/face-matching/0/1')).body);
    assert.deepEqual(
      januaries.map((r) => r.counter),
      ['7', '3'],
    );
  });

  it('serves the full report of all servers', async () => {
    const rows = rowsOf((await get('/transaction-report/fullReport/2026/1')).body);
    assert.deepEqual(
      rows.map((r) => `${r.server_name} ${r.endpoint} ${r.counter}`),
      ['face-matching /compare 7', 'face-matching /identify/{cacheName} 3', 'voice-matching /verify/{cacheName} 2'],
    );
    const all = rowsOf((await get('/transaction-report/fullReport')).body);
    assert.ok(all.some((r) => r.year === '2025'));
    assert.equal(
      (await get('/transaction-report/fullReport/2026')).headers['content-disposition'],
      'attachment; filename="veriport-usage-all-2026-all.csv"',
    );
  });

  it('counts its own calls, and a report sees every call answered before it', async () => {
    await get('/face-matching/version');
    await get('/face-matching/version');
    const { year, month } = currentPeriod();
    const rows = rowsOf((await get(`/transaction-report/serverReport/face-matching/${year}/${month}`)).body);
    assert.deepEqual(
      rows.map((r) => `${r.endpoint} ${r.counter}`),
      ['/version 2'],
    );
  });

  it('rejects bad filters with the spec codes', async () => {
    const expectCode = async (url: string, code: number) => {
      const response = await get(url);
      assert.equal(response.statusCode, 400, url);
      assert.equal(codedError(response).code, code, url);
    };
    await expectCode('/transaction-report/serverReport/no-such-server/2026/1', -6);
    await expectCode('/transaction-report/serverReport/face-matching/2026/13', -6);
    await expectCode('/transaction-report/fullReport/1900', -6);
    await expectCode('/transaction-report/fullReport/twenty/1', -4);
    await expectCode('/transaction-report/fullReport/2026/1.5', -4);
  });
});

describe('transaction report: reset', () => {
  it('refuses without the configured confirm code and changes nothing', async () => {
    for (const body of [{ confirm: 1 }, { confirm: CONFIRM + 1 }]) {
      const response = await post('/transaction-report/reset/face-matching/2026/1', body);
      assert.equal(response.statusCode, 400);
      assert.equal(codedError(response).code, -6);
    }
    const missing = await post('/transaction-report/reset/face-matching/2026/1', {});
    assert.equal(codedError(missing).code, -3);
    const wrongType = await post('/transaction-report/reset/face-matching/2026/1', { confirm: String(CONFIRM) });
    assert.equal(codedError(wrongType).code, -4);
    assert.equal((await counters.list({ serverName: 'face-matching' })).length, 3);
  });

  it('resets exactly the filtered counters with 204 and no body', async () => {
    const response = await post('/transaction-report/reset/face-matching/2026/1', { confirm: CONFIRM });
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    const left = await counters.list({});
    assert.deepEqual(
      left.filter((c) => c.serverName !== 'transaction-report').map((c) => `${c.serverName} ${c.year}-${c.month}`),
      ['face-matching 2025-12', 'voice-matching 2026-1'],
    );
  });

  it('resets all periods of a server with the short path, and accepts text/plain JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/transaction-report/reset/face-matching',
      payload: JSON.stringify({ confirm: CONFIRM }),
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(response.statusCode, 204);
    assert.equal((await counters.list({ serverName: 'face-matching' })).length, 0);
    assert.equal((await counters.list({ serverName: 'voice-matching' })).length, 1);
  });

  it('is disabled (403) when no confirm code is configured', async () => {
    const locked = await testApp({}, { store });
    try {
      const response = await locked.inject({
        method: 'POST',
        url: '/transaction-report/reset/face-matching',
        payload: { confirm: CONFIRM },
      });
      assert.equal(response.statusCode, 403);
      assert.match(codedError(response).description, /VERIPORT_ADMIN_CONFIRM/);
      const shutdown = await locked.inject({
        method: 'POST',
        url: '/transaction-report/shutdown',
        payload: { confirm: 123456 },
      });
      assert.equal(shutdown.statusCode, 403);
    } finally {
      await locked.close();
    }
    assert.equal((await counters.list({ serverName: 'face-matching' })).length, 3);
  });
});

describe('transaction report: shutdown', () => {
  it('does nothing on a wrong confirm', async () => {
    const response = await post('/transaction-report/shutdown', { confirm: 42 });
    assert.equal(response.statusCode, 400);
    assert.equal(shutdownRequests, 0);
  });

  it('answers 204 and then asks the server to stop', async () => {
    const response = await post('/transaction-report/shutdown', { confirm: CONFIRM });
    assert.equal(response.statusCode, 204);
    assert.equal(response.body, '');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(shutdownRequests, 1);
  });
});
