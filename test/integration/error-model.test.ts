import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { encryptEnvelope } from '../../src/client/envelope.js';
import { ALL_SERVICES } from '../../src/services/index.js';
import type { ServiceDefinition, ServiceName } from '../../src/server/service-definition.js';
import { testApp, testEnvelopeKeys } from '../helpers/app.js';
import { assertCodedError, httpPost } from '../helpers/http.js';

// A service used only here, so every mapping of the error model can be reached through HTTP.
const ProbeBody = Type.Object({
  id: Type.String(),
  count: Type.Integer({ minimum: 1 }),
  image: Type.Optional(Type.String({ format: 'base64' })),
  frames: Type.Optional(Type.Array(Type.Object({ data: Type.String() }))),
});
const probePlugin: ServiceDefinition['plugin'] = (app) => {
  app.post('/echo', { schema: { body: ProbeBody } }, (request) => Promise.resolve(request.body));
  app.get('/boom', () => Promise.reject(new Error('secret internal detail: password=hunter2')));
};
const probe = (name: string, errorStyle: ServiceDefinition['errorStyle']): ServiceDefinition => ({
  name: name as ServiceName,
  prefix: `/${name}`,
  description: 'test probe',
  errorStyle,
  jsonAsTextPlain: true,
  plugin: probePlugin,
});

let app: FastifyInstance;
before(async () => {
  app = await testApp(
    { VERIPORT_BODY_LIMIT: '64kb' },
    { services: [...ALL_SERVICES, probe('probe', 'coded'), probe('spring-probe', 'spring')] },
  );
});
after(() => app.close());

const post = (url: string, payload: string | object, contentType = 'application/json') =>
  httpPost(app, url, payload, contentType);

/** A coded error, and nothing beside `error` in the body. */
function assertCoded(response: LightMyRequestResponse, status: number, code: number, description: RegExp): void {
  assertCodedError(response, status, code, description);
  assert.deepEqual(Object.keys(response.json<object>()), ['error']);
}

describe('coded error bodies (Doc 2 / Doc 3 A, B, D)', () => {
  it('-2 for a body that is not JSON', async () => {
    assertCoded(await post('/probe/echo', '{"id": "a",'), 400, -2, /JSON invalid/);
  });
  it('-2 for an empty JSON body', async () => {
    assertCoded(await post('/probe/echo', ''), 400, -2, /empty/);
  });
  it('-3 for a missing mandatory field, named', async () => {
    assertCoded(await post('/probe/echo', { id: 'a' }), 400, -3, /'count'/);
    assertCoded(await post('/probe/echo', { id: 'a', count: 1, frames: [{}] }), 400, -3, /'frames\[0\]\.data'/);
  });
  it('-4 for a field of the wrong type, without coercion', async () => {
    assertCoded(await post('/probe/echo', { id: 'a', count: '3' }), 400, -4, /'count'.*integer/);
    assertCoded(await post('/probe/echo', { id: 7, count: 3 }), 400, -4, /'id'.*string/);
    assertCoded(await post('/probe/echo', [1, 2]), 400, -4, /body must be a JSON object/);
  });
  it('-5 for an invalid base64 string', async () => {
    assertCoded(await post('/probe/echo', { id: 'a', count: 1, image: 'ab$c' }), 400, -5, /'image'.*base64/);
  });
  it('-1 for other invalid requests: a malformed URL, a body shorter than its Content-Length', async () => {
    assertCoded(
      await app.inject({ method: 'GET', url: '/transaction-report/serverReport/%E0%A4%A' }),
      400,
      -1,
      /not a valid url/,
    );
    const cut = await app.inject({
      method: 'POST',
      url: '/probe/echo',
      payload: '{"id":"a","count":1}',
      headers: { 'content-type': 'application/json', 'content-length': '5' },
    });
    assertCoded(cut, 400, -1, /Content-Length/);
  });
  it('-6 for an invalid value', async () => {
    assertCoded(await post('/probe/echo', { id: 'a', count: 0 }), 400, -6, /'count'/);
  });
  it('accepts JSON sent as text/plain, as the spec examples do', async () => {
    const response = await post('/probe/echo', { id: 'a', count: 2 }, 'text/plain');
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), { id: 'a', count: 2 });
  });
  it('413 for a body over the configured limit', async () => {
    assertCoded(
      await post('/probe/echo', { id: 'x'.repeat(70_000), count: 1 }),
      413,
      413,
      /larger than the configured limit/,
    );
  });
  it('415 for a body that is not JSON by content type', async () => {
    assertCoded(await post('/probe/echo', '<a/>', 'application/xml'), 415, 415, /Content-Type/);
  });
  it('404 for unknown routes, under a service and at the root', async () => {
    assertCoded(await app.inject({ method: 'GET', url: '/probe/nothing-here' }), 404, 404, /GET \/probe\/nothing-here/);
    assertCoded(await app.inject({ method: 'GET', url: '/no/such/thing?x=1' }), 404, 404, /GET \/no\/such\/thing$/);
  });
  it('500 with code 1 and the request id, never the cause', async () => {
    const response = await app.inject({ method: 'GET', url: '/probe/boom' });
    assertCoded(response, 500, 1, /^internal error \(request .+\)$/);
    assert.doesNotMatch(response.body, /secret|hunter2|stack|at /);
  });
});

describe('document-validation error bodies (Doc 3 C)', () => {
  it('uses timestamp, status, path, error, message for 400s', async () => {
    const response = await post('/spring-probe/echo', '{oops');
    assert.equal(response.statusCode, 400);
    const body = response.json<Record<string, unknown>>();
    assert.deepEqual(Object.keys(body).sort(), ['error', 'message', 'path', 'status', 'timestamp']);
    assert.equal(body.status, 400);
    assert.equal(body.error, 'Bad Request');
    assert.equal(body.path, '/spring-probe/echo');
    assert.match(String(body.message), /JSON invalid/);
    assert.ok(!Number.isNaN(Date.parse(String(body.timestamp))));
  });
  it('uses it for 404 and 500 too', async () => {
    const missing = await app.inject({ method: 'GET', url: '/document-validation/nothing' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json<Record<string, unknown>>().error, 'Not Found');
    const boom = await app.inject({ method: 'GET', url: '/spring-probe/boom' });
    assert.equal(boom.statusCode, 500);
    assert.equal(boom.json<Record<string, unknown>>().error, 'Internal Server Error');
    assert.doesNotMatch(boom.body, /secret|hunter2/);
  });
});

describe('envelope through HTTP (face-liveness /decrypt)', () => {
  const keys = testEnvelopeKeys().key('face-liveness');
  const pkg = { video: { workflow_data: { workflow: 'hotel2', frames: [{ data: 'AAAA', timestamp: 1 }] } } };

  it('returns the original package', async () => {
    const response = await post(
      '/face-liveness/decrypt',
      encryptEnvelope(JSON.stringify(pkg), keys.publicKey, 'face-liveness'),
    );
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json(), pkg);
  });
  it('returns an array package as an array', async () => {
    const response = await post(
      '/face-liveness/decrypt',
      encryptEnvelope(JSON.stringify([pkg, pkg, pkg]), keys.publicKey, 'face-liveness'),
    );
    assert.deepEqual(response.json(), [pkg, pkg, pkg]);
  });
  it('rejects a tampered package with a clear 400', async () => {
    const envelope = encryptEnvelope(JSON.stringify(pkg), keys.publicKey, 'face-liveness');
    const sealed = Buffer.from(envelope.p, 'base64');
    sealed[4] = (sealed[4] ?? 0) ^ 0xff;
    assertCoded(
      await post('/face-liveness/decrypt', { ...envelope, p: sealed.toString('base64') }),
      400,
      -6,
      /failed authentication/,
    );
  });
  it('rejects a truncated package', async () => {
    const envelope = encryptEnvelope(JSON.stringify(pkg), keys.publicKey, 'face-liveness');
    assertCoded(
      await post('/face-liveness/decrypt', {
        ...envelope,
        p: Buffer.from(envelope.p, 'base64').subarray(0, 8).toString('base64'),
      }),
      400,
      -6,
      /truncated/,
    );
  });
  it("rejects a package made for another server's key", async () => {
    const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 });
    assertCoded(
      await post('/face-liveness/decrypt', encryptEnvelope('{}', stranger.publicKey, 'face-liveness')),
      400,
      -6,
      /cannot be decrypted with this server's key/,
    );
  });
  it('-5 for members that are not base64, -3 for missing ones, -2 for a payload that is not JSON', async () => {
    const envelope = encryptEnvelope('{}', keys.publicKey, 'face-liveness');
    assertCoded(await post('/face-liveness/decrypt', { ...envelope, iv: '@@@' }), 400, -5, /'iv'/);
    assertCoded(await post('/face-liveness/decrypt', { key: envelope.key, iv: envelope.iv }), 400, -3, /'p'/);
    assertCoded(
      await post('/face-liveness/decrypt', encryptEnvelope('not json', keys.publicKey, 'face-liveness')),
      400,
      -2,
      /not valid JSON/,
    );
  });
});
