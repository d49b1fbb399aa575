import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { ServiceDefinition } from '../../src/server/service-definition.js';
import { openStore, type Store } from '../../src/store/database.js';
import { usageCountersRepository } from '../../src/store/usage-counters.js';
import { currentPeriod, testApp } from '../helpers/app.js';

let store: Store;
before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
});
after(() => store.close());

const countOf = async (serverName: string, endpoint: string): Promise<number> => {
  const { year, month } = currentPeriod();
  const rows = await usageCountersRepository(store.db).list({ serverName, year, month });
  return rows.find((r) => r.endpoint === endpoint)?.counter ?? 0;
};

describe('usage counting', () => {
  it('counts 2,000 requests from 50 concurrent clients exactly, over a real port', async () => {
    const app = await testApp({}, { store });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const before = await countOf('face-matching', '/version');
    const client = async () => {
      for (let i = 0; i < 40; i += 1) {
        const response = await fetch(`http://127.0.0.1:${port}/face-matching/version`);
        assert.equal(response.status, 200);
        await response.text();
      }
    };
    await Promise.all(Array.from({ length: 50 }, client));
    await app.close();
    assert.equal((await countOf('face-matching', '/version')) - before, 2000);
  });

  it('counts per route template, counts rejected calls, and skips unknown routes', async () => {
    const app = await testApp({}, { store });
    await app.inject({ method: 'GET', url: '/transaction-report/serverReport/voice-matching/2026/1' });
    await app.inject({ method: 'GET', url: '/transaction-report/serverReport/face-matching/2026/2' });
    await app.inject({ method: 'GET', url: '/transaction-report/serverReport/nobody/2026/2' }); // 400, still a call
    await app.inject({ method: 'GET', url: '/transaction-report/no-such-endpoint' });
    await app.inject({ method: 'GET', url: '/health' });
    await app.close();
    assert.equal(await countOf('transaction-report', '/serverReport/{server}/{year}/{month}'), 3);
    const { year, month } = currentPeriod();
    const endpoints = (await usageCountersRepository(store.db).list({ year, month })).map((r) => r.endpoint);
    assert.ok(!endpoints.some((e) => e.includes('no-such-endpoint') || e === '/health'), endpoints.join(' '));
  });

  it('does not count calls refused for their credentials (401)', async () => {
    const app = await testApp({ VERIPORT_AUTH: 'required' }, { store });
    const endpoint = '/fuseScores';
    const before = await countOf('face-matching', endpoint);
    for (let i = 0; i < 3; i += 1) {
      const response = await app.inject({ method: 'POST', url: `/face-matching${endpoint}`, payload: { scores: [1] } });
      assert.equal(response.statusCode, 401);
    }
    await app.close();
    assert.equal((await countOf('face-matching', endpoint)) - before, 0);
  });

  it('lets an in-flight request finish when the server closes, and counts it', async () => {
    const slow: ServiceDefinition = {
      name: 'face-analysis',
      prefix: '/slow',
      description: 'slow probe',
      errorStyle: 'coded',
      jsonAsTextPlain: false,
      plugin: (scope) => {
        scope.get('/wait', async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return { done: true };
        });
      },
    };
    const app = await testApp({}, { store, services: [slow] });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const inFlight = fetch(`http://127.0.0.1:${port}/slow/wait`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = app.close();
    const response = await inFlight;
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { done: true });
    // The connection that was busy must not hold the stop until its keep-alive timeout (72 s).
    const outcome = await Promise.race([
      closed.then(() => 'closed'),
      new Promise((resolve) => setTimeout(resolve, 10_000, 'still open')),
    ]);
    assert.equal(outcome, 'closed');
    assert.equal(await countOf('face-analysis', '/wait'), 1);
  });

  it('writes pending counts at shutdown, after in-flight requests finish', async () => {
    const app = await testApp({}, { store });
    const before = await countOf('voice-liveness', '/version');
    await Promise.all(Array.from({ length: 25 }, () => app.inject({ method: 'GET', url: '/voice-liveness/version' })));
    await app.close();
    assert.equal((await countOf('voice-liveness', '/version')) - before, 25);
  });

  it('counts nothing when counting is switched off', async () => {
    const app = await testApp({ VERIPORT_USAGE_COUNTING: 'false' }, { store });
    const before = await countOf('voice-matching', '/version');
    await app.inject({ method: 'GET', url: '/voice-matching/version' });
    await app.close();
    assert.equal(await countOf('voice-matching', '/version'), before);
  });
});
