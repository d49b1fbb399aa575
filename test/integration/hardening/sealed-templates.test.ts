/**
 * Issue 14, item 6: exported templates are sealed (AES-256-GCM under a key derived from the template key,
 * a fresh IV each export), so they can be neither read nor edited without the key; an import that is
 * altered, sealed under another key, or an unsealed (`VPTM`) template is refused with 400 -6, face
 * matching's invalid-value code, as an invalid template always was. Deployments sharing the template
 * key accept each other's exports.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { encodeTemplate } from '../../../src/engines/templates/template-codec.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { testApp } from '../../helpers/app.js';
import { closeTestFaceEngine, portrait, testFaceEngine } from '../../helpers/faces.js';
import { assertCodedError, httpPost } from '../../helpers/http.js';

const KEY_A = Buffer.alloc(32, 0xa1).toString('base64');
const KEY_B = Buffer.alloc(32, 0xb2).toString('base64');

let store: Store;
/** Two deployments sharing KEY_A (one store each) and one with KEY_B. */
let appA: FastifyInstance;
let appA2: FastifyInstance;
let appB: FastifyInstance;
let otherStores: Store[];
let anna: string;
/** Two exports of one image by appA. */
let first: string;
let second: string;

const post = (app: FastifyInstance, url: string, body: object) => httpPost(app, `/face-matching${url}`, body);
const exportOf = async (app: FastifyInstance, image: string): Promise<string> => {
  const response = await post(app, '/export', { encounter: { VISIBLE_FRONTAL: image } });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ export: string }>().export;
};
const compareTemplates = (app: FastifyInstance, probe: string, gallery: string) =>
  post(app, '/compare', { probe: { import: probe }, gallery: { import: gallery } });

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  otherStores = [
    await openStore({ kind: 'pglite', dataDir: 'memory://' }),
    await openStore({ kind: 'pglite', dataDir: 'memory://' }),
  ];
  const [storeA2, storeB] = otherStores;
  assert.ok(storeA2 && storeB);
  appA = await testApp({ VERIPORT_TEMPLATE_KEY: KEY_A }, { store, faceEngine: testFaceEngine() });
  appA2 = await testApp({ VERIPORT_TEMPLATE_KEY: KEY_A }, { store: storeA2, faceEngine: testFaceEngine() });
  appB = await testApp({ VERIPORT_TEMPLATE_KEY: KEY_B }, { store: storeB, faceEngine: testFaceEngine() });
  anna = (await portrait('anna')).toString('base64');
  first = await exportOf(appA, anna);
  second = await exportOf(appA, anna);
});
after(async () => {
  await Promise.all([appA.close(), appA2.close(), appB.close()]);
  await Promise.all([store.close(), ...otherStores.map((s) => s.close())]);
  await closeTestFaceEngine();
});

describe('sealed exported templates', () => {
  it('exports different, unreadable bytes each time; both import and match', async () => {
    assert.notEqual(first, second, 'a fresh IV per export');
    for (const exported of [first, second]) {
      const bytes = Buffer.from(exported, 'base64');
      assert.equal(bytes.toString('ascii', 0, 4), 'VPTS');
      assert.equal(bytes.indexOf('VPTM'), -1, 'the raw template is not visible');
      assert.equal(bytes.indexOf('F500'), -1, 'nor its algorithm');
    }
    const response = await compareTemplates(appA, first, second);
    assert.equal(response.statusCode, 200, response.body);
    assert.ok(response.json<{ scorePercent: number }>().scorePercent >= 99, response.body);
    const add = await post(appA, '/add/sealed', { encounter: { id: 'anna', import: first } });
    assert.equal(add.statusCode, 200, add.body);
    const verify = await post(appA, '/verify/sealed', { probe: { import: second }, id: 'anna' });
    assert.equal(verify.statusCode, 200, verify.body);
    assert.ok(verify.json<{ scorePercent: number }>().scorePercent >= 99, verify.body);
  });

  it('seals every template of /exportAlgorithmTemplate', async () => {
    const response = await post(appA, '/exportAlgorithmTemplate', { encounter: { VISIBLE_FRONTAL: anna } });
    assert.equal(response.statusCode, 200, response.body);
    const byAlgorithm = response.json<{ export: { VISIBLE_FRONTAL: Record<string, string> } }>().export.VISIBLE_FRONTAL;
    for (const [algorithm, exported] of Object.entries(byAlgorithm)) {
      assert.equal(Buffer.from(exported, 'base64').toString('ascii', 0, 4), 'VPTS', algorithm);
      const same = await post(appA, '/compare', {
        probe: { import: exported },
        gallery: { import: exported },
        workflow: { comparator: { algorithm } },
      });
      assert.equal(same.statusCode, 200, `${algorithm}: ${same.body}`);
    }
  });

  it('refuses a template with any one byte flipped', async () => {
    const bytes = Buffer.from(first, 'base64');
    for (let at = 0; at < bytes.length; at += 1) {
      const altered = Buffer.from(bytes);
      altered[at] = (altered[at] ?? 0) ^ 0x01;
      assertCodedError(await compareTemplates(appA, altered.toString('base64'), second), 400, -6, /probe\.import/);
    }
    assertCodedError(await compareTemplates(appA, bytes.subarray(0, -1).toString('base64'), second), 400, -6);
    assertCodedError(await compareTemplates(appA, Buffer.concat([bytes, bytes]).toString('base64'), second), 400, -6);
  });

  it('is portable between deployments sharing the template key, refused by one with another key', async () => {
    const shared = await compareTemplates(appA2, first, second);
    assert.equal(shared.statusCode, 200, shared.body);
    assertCodedError(await compareTemplates(appB, first, await exportOf(appB, anna)), 400, -6, /another template key/);
    assertCodedError(
      await post(appB, '/add/sealed', { encounter: { id: 'anna', import: first } }),
      400,
      -6,
      /encounter\.import/,
    );
  });

  it('refuses an unsealed VPTM template, even a well-formed one with a valid checksum', async () => {
    const vector = new Float32Array(128).fill(0.1);
    const raw = encodeTemplate({ modality: 'face', algorithm: 'F500', vector }).toString('base64');
    const unsealed = /unsealed template is not accepted/;
    assertCodedError(await compareTemplates(appA, raw, second), 400, -6, unsealed);
    assertCodedError(await compareTemplates(appA, second, raw), 400, -6, /gallery\.import/);
    assertCodedError(await post(appA, '/add/raw', { encounter: { id: 'x', import: raw } }), 400, -6, unsealed);
    assertCodedError(await post(appA, '/addBatch/raw', [{ id: 'x', import: raw }]), 400, -6, unsealed);
    assertCodedError(await post(appA, '/identify/sealed', { probe: { import: raw } }), 400, -6, unsealed);
    assertCodedError(await post(appA, '/verify/sealed', { probe: { import: raw }, id: 'anna' }), 400, -6, unsealed);
    const dropped = await httpPost(appA, '/face-matching/drop/raw');
    assert.deepEqual(dropped.json(), { confirm: 0 }, 'nothing was added');
  });
});
