import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStore } from '../../src/store/database.js';
import { usageCountersRepository } from '../../src/store/usage-counters.js';
import { currentPeriod, parseCsv } from '../helpers/app.js';
import { startServer, type ServerProcess } from '../helpers/process.js';
import { dropSchema, uniqueSchema } from '../helpers/stores.js';

// This suite exists to exercise PostgreSQL: without DATABASE_URL it fails rather than passing empty.
const url = process.env.DATABASE_URL ?? '';
const schema = uniqueSchema();

describe('two server processes sharing one PostgreSQL', () => {
  before(() =>
    assert.notEqual(url, '', 'npm run test:postgres needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)'),
  );
  let servers: ServerProcess[] = [];
  before(async () => {
    // Started together on an empty schema: both migrate and both race to create the envelope key.
    servers = await Promise.all([0, 1].map(() => startServer({ DATABASE_URL: url, VERIPORT_DATABASE_SCHEMA: schema })));
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await dropSchema(url, schema);
  });

  it('count into the same rows without losing increments', async () => {
    const perServer = 1000;
    const hammer = async (base: string) => {
      const client = async () => {
        for (let i = 0; i < perServer / 20; i += 1) {
          const response = await fetch(`${base}/face-matching/version`);
          assert.equal(response.status, 200);
          await response.text();
        }
      };
      await Promise.all(Array.from({ length: 20 }, client));
    };
    await Promise.all(servers.map((s) => hammer(s.url)));

    // A graceful stop writes each replica's last counts; then the shared rows must hold every request.
    const { year, month } = currentPeriod();
    const codes = await Promise.all(servers.map((s) => s.stop()));
    assert.deepEqual(codes, [0, 0]);
    const store = await openStore({ kind: 'postgres', url, schema, poolSize: 1 });
    try {
      const rows = await usageCountersRepository(store.db).list({ serverName: 'face-matching', year, month });
      assert.deepEqual(
        rows.map((r) => `${r.endpoint} ${r.counter}`),
        [`/version ${2 * perServer}`],
      );
    } finally {
      await store.close();
    }
  });

  it('serve one envelope key and one report from either replica', async () => {
    servers = await Promise.all([0, 1].map(() => startServer({ DATABASE_URL: url, VERIPORT_DATABASE_SCHEMA: schema })));
    const reports = await Promise.all(
      servers.map(async (s) => (await fetch(`${s.url}/transaction-report/serverReport/face-matching`)).text()),
    );
    const { year, month } = currentPeriod();
    for (const report of reports) {
      assert.deepEqual(
        parseCsv(report)
          .filter((r) => r.year === String(year) && r.month === String(month))
          .map((r) => r.counter),
        ['2000'],
      );
    }
  });
});
