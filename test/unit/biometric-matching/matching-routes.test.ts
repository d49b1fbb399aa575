import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Type, type Static } from '@sinclair/typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import { addMatchingRoutes, type ExportRequest } from '../../../src/biometric-matching/matching-routes.js';
import type { MatchingContext } from '../../../src/biometric-matching/matching-context.js';
import { EncounterId, matchingRouteSchemas } from '../../../src/biometric-matching/schemas.js';
import { exportedTemplateSealer } from '../../../src/crypto/exported-template-sealing.js';
import { templateSealer } from '../../../src/crypto/template-sealing.js';
import { FACE_ALGORITHMS } from '../../../src/engines/face/algorithms.js';
import { FACE_TEMPLATES } from '../../../src/engines/face/face-template-family.js';
import type { FaceAlgorithmName } from '../../../src/engines/face/algorithms.js';
import { CacheGalleries } from '../../../src/engines/matching/cache-galleries.js';
import type { TemplateVectors } from '../../../src/engines/matching/template-family.js';
import { decorateCustomerScope } from '../../../src/server/access/customer-scope.js';
import { errorHandler } from '../../../src/server/errors/error-handlers.js';
import { validatorCompiler } from '../../../src/server/validation.js';
import { biometricEncountersRepository } from '../../../src/store/biometric-encounters.js';
import { openStore, type Store } from '../../../src/store/database.js';

/** A toy modality: a sample is the axis of its unit vector (0-3), an encounter adds its id. */
const Sample = Type.Object({
  axis: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })),
  import: Type.Optional(Type.String()),
});
type Sample = Static<typeof Sample>;
const Encounter = Type.Object({ id: EncounterId, axis: Type.Optional(Type.Integer({ minimum: 0, maximum: 3 })) });
const Workflow = Type.Object({ algorithm: Type.Union([Type.Literal('F200'), Type.Literal('F500')]) });
type Workflow = Static<typeof Workflow>;

const wording = { one: 'dot', many: 'dots', raw: 'axis', raws: 'axes', export: 'Template of a dot' };
const schemas = matchingRouteSchemas(Sample, Encounter, Workflow, wording);

function vectorsAlong(axis: number): TemplateVectors<FaceAlgorithmName> {
  const along = (dimensions: number) => Float32Array.from({ length: dimensions }, (_, i) => (i === axis ? 1 : 0));
  return { F200: along(FACE_ALGORITHMS.F200.dimensions), F500: along(FACE_ALGORITHMS.F500.dimensions) };
}

let store: Store;
let app: FastifyInstance;
const routes: Array<{ method: string; url: string; summary: unknown }> = [];
const exported: Array<ExportRequest<Sample, Workflow>> = [];

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const matching: MatchingContext<FaceAlgorithmName, Sample, Workflow> = {
    caches: new CacheGalleries(
      (customer) => biometricEncountersRepository(store.db, 'face-matching', customer),
      templateSealer(randomBytes(32)),
      'face-matching',
      FACE_TEMPLATES,
    ),
    limitOf: (cacheName) => (cacheName === 'tiny' ? 1 : 100),
    exports: exportedTemplateSealer(randomBytes(32)),
    vectors: (sample) => Promise.resolve(vectorsAlong(sample.axis ?? 0)),
    algorithmOf: (workflow) => workflow?.algorithm ?? 'F500',
    calibrated: (algorithm, score) => FACE_TEMPLATES.calibrated(algorithm, score),
    hasRawSample: (sample) => sample.axis !== undefined,
  };
  app = Fastify();
  decorateCustomerScope(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setErrorHandler(errorHandler('coded'));
  app.addHook('onRoute', (route) => {
    if (route.method !== 'HEAD')
      routes.push({ method: String(route.method), url: route.url, summary: route.schema?.summary });
  });
  // The customer of a call, as the credential check sets it in a service.
  app.addHook('onRequest', (request, _reply, done) => {
    request.customerScope = String(request.headers['x-customer'] ?? '');
    done();
  });
  addMatchingRoutes(app, matching, schemas, (_, body) => {
    exported.push(body);
    return Promise.resolve(`template of axis ${body.encounter.axis ?? 0}`);
  });
  await app.ready();
});
after(async () => {
  await app.close();
  await store.close();
});

const post = (url: string, payload: unknown, customer = 'acme') =>
  app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(payload),
    headers: { 'content-type': 'application/json', 'x-customer': customer },
  });
const get = (url: string, customer = 'acme') => app.inject({ method: 'GET', url, headers: { 'x-customer': customer } });

describe('addMatchingRoutes', () => {
  it("registers the shared routes with the modality's summaries", () => {
    assert.deepEqual(routes, [
      { method: 'GET', url: '/maxEncounters/:cacheName', summary: 'Most encounters the cache may hold (text)' },
      { method: 'GET', url: '/encounterList/:cacheName', summary: 'Ids of the encounters in the cache' },
      {
        method: 'POST',
        url: '/add/:cacheName',
        summary: 'Adds an encounter (axis or template); the first add creates the cache',
      },
      { method: 'POST', url: '/addBatch/:cacheName', summary: 'Adds template encounters, all or none' },
      { method: 'POST', url: '/update/:cacheName', summary: "Replaces an existing encounter's dot" },
      { method: 'POST', url: '/delete/:cacheName', summary: 'Removes an encounter' },
      { method: 'POST', url: '/drop/:cacheName', summary: 'Empties the cache; confirm = encounters removed' },
      { method: 'POST', url: '/identify/:cacheName', summary: '1:N search of the whole cache' },
      { method: 'POST', url: '/identifyPartial/:cacheName', summary: '1:N search of the listed encounters' },
      { method: 'POST', url: '/export', summary: 'Template of a dot' },
      { method: 'POST', url: '/fuseScores', summary: 'Fuses scoreFmr values of independent modalities (sum)' },
      { method: 'POST', url: '/compare', summary: '1:1 comparison of two dots (axes or templates)' },
      { method: 'POST', url: '/verify/:cacheName', summary: '1:1 comparison of a dot with one encounter of the cache' },
    ]);
  });

  it("runs the cache, 1:N and 1:1 calls in the caller's customer scope", async () => {
    assert.deepEqual((await post('/add/staff', { encounter: { id: 'alice', axis: 1 } })).json(), { id: 'alice' });
    assert.deepEqual((await post('/add/staff', { encounter: { id: 'bob', axis: 2 } })).json(), { id: 'bob' });
    assert.deepEqual((await get('/encounterList/staff')).json(), ['alice', 'bob']);
    assert.deepEqual((await get('/encounterList/staff', 'globex')).json(), []);
    assert.equal((await get('/maxEncounters/tiny')).body, '1');

    const found = (await post('/identify/staff', { probe: { axis: 2 } })).json<{
      candidateList: Array<{ id: string }>;
    }>();
    assert.equal(found.candidateList[0]?.id, 'bob');
    const partial = await post('/identifyPartial/staff', { encounter: { axis: 2 }, idList: ['alice'] });
    assert.deepEqual(
      partial.json<{ candidateList: Array<{ id: string }> }>().candidateList.map((c) => c.id),
      ['alice'],
    );
    const verified = await post('/verify/staff', { probe: { axis: 1 }, id: 'alice', workflow: { algorithm: 'F200' } });
    assert.ok(verified.json<{ score: number }>().score > 0.99);
    const compared = await post('/compare', { probe: { axis: 1 }, gallery: { axis: 3 } });
    assert.ok(Math.abs(compared.json<{ score: number }>().score) < 0.01);

    const updated = await post('/update/staff', { encounter: { id: 'alice', axis: 3 } });
    assert.equal(updated.body, '');
    assert.match(String(updated.headers['content-type']), /^text\/plain/);
    const after = await post('/verify/staff', { probe: { axis: 1 }, id: 'alice' });
    assert.ok(Math.abs(after.json<{ score: number }>().score) < 0.01);
    assert.equal((await post('/delete/staff', { id: 'bob' })).body, '');
    assert.deepEqual((await post('/drop/staff', {}, 'globex')).json(), { confirm: 0 });
    assert.deepEqual((await post('/drop/staff', {})).json(), { confirm: 1 });
  });

  it("validates against the modality's bodies and exports through its template export", async () => {
    const refused = async (url: string, payload: unknown, code: number) => {
      const answer = await post(url, payload);
      assert.equal(answer.statusCode, 400);
      assert.equal(answer.json<{ error: { code: number } }>().error.code, code);
    };
    await refused('/add/staff', { encounter: { id: 'carol', axis: 7 } }, -6);
    await refused('/compare', { probe: { axis: 1 } }, -3);
    await refused('/export', { encounter: { axis: 'one' } }, -4);
    assert.deepEqual(exported, []);
    const answer = await post('/export', { encounter: { axis: 2 }, workflow: { algorithm: 'F200' } });
    assert.deepEqual(answer.json(), { export: 'template of axis 2' });
    assert.deepEqual(exported, [{ encounter: { axis: 2 }, workflow: { algorithm: 'F200' } }]);
  });
});
