import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { adminKeysRepository } from '../../../src/store/admin-keys.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { parseCsv, testApp } from '../../helpers/app.js';
import { closeTestFaceEngine, portrait, testFaceEngine } from '../../helpers/faces.js';
import { assertCodedError } from '../../helpers/http.js';
import { testCustomer } from '../../helpers/stores.js';

/** scorePercent 50 = FMR 10^-3 on the dev-set calibration: the usual verification threshold. */
const THRESHOLD_PERCENT = 50;
const CONFIRM = 480_213_775;

let store: Store;
let app: FastifyInstance;
const keys: Record<'acme' | 'globex' | 'admin', string> = { acme: '', globex: '', admin: '' };
const img: Record<string, string> = {};

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  keys.acme = (await testCustomer(store, 'acme')).apiKey;
  keys.globex = (await testCustomer(store, 'globex')).apiKey;
  keys.admin = (await adminKeysRepository(store.db).create('test')).apiKey;
  app = await testApp(
    { VERIPORT_AUTH: 'required', VERIPORT_FACE_CACHE_LIMITS: 'tiny=1', VERIPORT_ADMIN_CONFIRM: String(CONFIRM) },
    { store, faceEngine: testFaceEngine() },
  );
  const b64 = (buffer: Buffer) => buffer.toString('base64');
  img.anna = b64(await portrait('anna'));
  img.anna2 = b64(await portrait('anna', { margin: 0.4, width: 320, brightness: 0.8, rotateDegrees: 8, quality: 60 }));
  img.bella = b64(await portrait('bella'));
  img.carla = b64(await portrait('carla'));
});
after(async () => {
  await app.close();
  await store.close();
  await closeTestFaceEngine();
});

type Caller = keyof typeof keys;
const post = (who: Caller, url: string, body: unknown): Promise<LightMyRequestResponse> =>
  app.inject({
    method: 'POST',
    url,
    headers: { apikey: keys[who], 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
const get = (who: Caller, url: string): Promise<LightMyRequestResponse> =>
  app.inject({ method: 'GET', url, headers: { apikey: keys[who] } });
const matching = {
  post: (who: Caller, url: string, body: unknown) => post(who, `/face-matching${url}`, body),
  get: (who: Caller, url: string) => get(who, `/face-matching${url}`),
};
const face = (name: string) => ({ VISIBLE_FRONTAL: img[name] });
const percentOf = (response: LightMyRequestResponse) => response.json<{ scorePercent: number }>().scorePercent;

describe('customer scoping of face-matching caches (VERIPORT_AUTH=required)', () => {
  it("gives two customers' caches of one name, with the same ids, each its own encounters", async () => {
    assert.equal(
      (await matching.post('acme', '/add/staff', { encounter: { id: 'p1', ...face('anna') } })).statusCode,
      200,
    );
    assert.equal(
      (await matching.post('acme', '/add/staff', { encounter: { id: 'p2', ...face('carla') } })).statusCode,
      200,
    );
    // Not "exists already": globex's staff is another cache.
    const added = await matching.post('globex', '/add/staff', { encounter: { id: 'p1', ...face('bella') } });
    assert.equal(added.statusCode, 200, added.body);

    assert.deepEqual((await matching.get('acme', '/encounterList/staff')).json(), ['p1', 'p2']);
    assert.deepEqual((await matching.get('globex', '/encounterList/staff')).json(), ['p1']);
    // The operator's admin key acts in the unscoped namespace: no customer's cache is there.
    assert.deepEqual((await matching.get('admin', '/encounterList/staff')).json(), []);
  });

  it("verifies and identifies only against the caller's own encounters", async () => {
    const mine = await matching.post('acme', '/verify/staff', { id: 'p1', probe: face('anna2') });
    assert.ok(percentOf(mine) >= THRESHOLD_PERCENT, mine.body);
    // globex's p1 is another person: acme's probe is not matched against acme's p1 through globex.
    const theirs = await matching.post('globex', '/verify/staff', { id: 'p1', probe: face('anna2') });
    assert.equal(theirs.statusCode, 200, theirs.body);
    assert.ok(percentOf(theirs) < THRESHOLD_PERCENT, theirs.body);
    assertCodedError(
      await matching.post('globex', '/verify/staff', { id: 'p2', probe: face('carla') }),
      400,
      -6,
      /no encounter 'p2' in cache 'staff'/,
    );

    const found = (await matching.post('globex', '/identify/staff', { probe: face('carla') })).json<{
      candidateList: Array<{ id: string }>;
    }>();
    assert.deepEqual(
      found.candidateList.map((c) => c.id),
      ['p1'],
    );
    const partial = (
      await matching.post('globex', '/identifyPartial/staff', { probe: face('carla'), idList: ['p2'] })
    ).json<{ candidateList: unknown[]; recordErrors: Array<{ id: string; error: string }> }>();
    assert.deepEqual(partial, { candidateList: [], recordErrors: [{ id: 'p2', error: 'not in the cache' }] });
    const acmeFound = (await matching.post('acme', '/identify/staff', { probe: face('carla') })).json<{
      candidateList: Array<{ id: string }>;
    }>();
    assert.equal(acmeFound.candidateList[0]?.id, 'p2');
  });

  it("neither updates, deletes nor drops another customer's cache", async () => {
    assertCodedError(
      await matching.post('globex', '/update/staff', { encounter: { id: 'p2', ...face('bella') } }),
      400,
      -6,
      /no encounter 'p2'/,
    );
    assertCodedError(await matching.post('globex', '/delete/staff', { id: 'p2' }), 400, -6, /no encounter 'p2'/);
    assert.deepEqual((await matching.post('admin', '/drop/staff', {})).json(), { confirm: 0 });
    assert.deepEqual((await matching.post('globex', '/drop/staff', {})).json(), { confirm: 1 });
    assert.deepEqual((await matching.get('globex', '/encounterList/staff')).json(), []);
    assert.deepEqual((await matching.get('acme', '/encounterList/staff')).json(), ['p1', 'p2']);
    const still = await matching.post('acme', '/verify/staff', { id: 'p2', probe: face('carla') });
    assert.ok(percentOf(still) >= THRESHOLD_PERCENT, still.body);
  });

  it("applies a cache name's limit to each customer's cache on its own", async () => {
    assert.equal((await matching.get('acme', '/maxEncounters/tiny')).body, '1');
    const template = (await matching.post('acme', '/export', { encounter: face('anna') })).json<{ export: string }>()
      .export;
    assert.equal(
      (await matching.post('acme', '/add/tiny', { encounter: { id: 'a', import: template } })).statusCode,
      200,
    );
    assert.equal(
      (await matching.post('globex', '/add/tiny', { encounter: { id: 'a', import: template } })).statusCode,
      200,
    );
    assertCodedError(
      await matching.post('acme', '/add/tiny', { encounter: { id: 'b', import: template } }),
      500,
      1015,
      /cache 'tiny' is full/,
    );
  });
});

describe('customer scoping of usage reports (VERIPORT_AUTH=required)', () => {
  const fuse = (who: Caller) => matching.post(who, '/fuseScores', { scores: [3, 4] });
  const fuseCount = async (who: Caller, query = '') => {
    const response = await get(who, `/transaction-report/serverReport/face-matching${query}`);
    assert.equal(response.statusCode, 200, response.body);
    assert.match(response.body, /^server_name,year,month,endpoint,counter\r\n/);
    return Number(parseCsv(response.body).find((r) => r.endpoint === '/fuseScores')?.counter ?? 0);
  };

  it("reports a customer's own calls, and every customer's summed to the admin key", async () => {
    for (const who of ['acme', 'acme', 'acme', 'globex', 'globex'] as const)
      assert.equal((await fuse(who)).statusCode, 200);
    assert.equal(await fuseCount('acme'), 3);
    assert.equal(await fuseCount('globex'), 2);
    assert.equal(await fuseCount('admin'), 5);
    assert.equal(await fuseCount('admin', '?customer=globex'), 2);
    assert.equal(await fuseCount('admin', '?customer='), 0);
    assert.equal(await fuseCount('acme', '?customer=acme'), 3);
    assert.equal((await get('acme', '/transaction-report/fullReport?customer=globex')).statusCode, 403);

    // A customer's full report holds none of the other's rows: its face-matching rows are its own calls.
    const acmeRows = parseCsv((await get('acme', '/transaction-report/fullReport')).body);
    const globexRows = parseCsv((await get('globex', '/transaction-report/fullReport')).body);
    const adminRows = parseCsv((await get('admin', '/transaction-report/fullReport')).body);
    const count = (rows: Array<Record<string, string>>, endpoint: string) =>
      Number(rows.find((r) => r.server_name === 'face-matching' && r.endpoint === endpoint)?.counter ?? 0);
    for (const endpoint of ['/add/{cacheName}', '/verify/{cacheName}', '/encounterList/{cacheName}'])
      assert.ok(
        count(adminRows, endpoint) >= count(acmeRows, endpoint) + count(globexRows, endpoint),
        `${endpoint}: admin ${count(adminRows, endpoint)}`,
      );
    // staff p1 and p2, tiny a, and the refused tiny b: a refused call is a call.
    assert.equal(count(acmeRows, '/add/{cacheName}'), 4);
    assert.equal(count(globexRows, '/add/{cacheName}'), 2);
  });

  it("resets every customer's counters, and only with the admin key", async () => {
    const reset = (who: Caller) => post(who, '/transaction-report/reset/face-matching', { confirm: CONFIRM });
    assert.equal((await reset('acme')).statusCode, 403);
    assert.equal(await fuseCount('acme'), 3);
    assert.equal((await reset('admin')).statusCode, 204);
    assert.equal(await fuseCount('acme'), 0);
    assert.equal(await fuseCount('globex'), 0);
  });
});
