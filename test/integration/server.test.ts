import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { ALL_SERVICES, serviceByName } from '../../src/services/index.js';
import { SERVICE_NAMES } from '../../src/server/service-definition.js';
import { testApp } from '../helpers/app.js';
import { codedError } from '../helpers/http.js';

let app: FastifyInstance;
before(async () => {
  app = await testApp();
});
after(() => app.close());

describe('all-in-one server', () => {
  it('mounts every service of the spec and each answers GET /version as text', async () => {
    assert.deepEqual(
      ALL_SERVICES.map((s) => s.name),
      [...SERVICE_NAMES],
    );
    for (const service of ALL_SERVICES) {
      const response = await app.inject({ method: 'GET', url: `${service.prefix}/version` });
      assert.equal(response.statusCode, 200, service.name);
      assert.match(String(response.headers['content-type'] ?? ''), /^text\/plain/);
      assert.equal(response.body, `Veriport ${service.name} 0.1.0`);
    }
  });

  it('answers health and readiness', async () => {
    assert.deepEqual((await app.inject({ method: 'GET', url: '/health' })).json(), { status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/ready' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), { status: 'ready', store: 'pglite' });
  });

  it('serves Prometheus metrics with the request histogram', async () => {
    await app.inject({ method: 'GET', url: '/face-matching/version' });
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type'] ?? ''), /^text\/plain; version=0\.0\.4/);
    assert.match(
      response.body,
      /veriport_http_request_duration_seconds_count\{route="\/face-matching\/version",method="GET",status_code="200"\} \d+/,
    );
    assert.match(response.body, /veriport_process_cpu_user_seconds_total/);
  });

  it('serves an OpenAPI 3 document built from the route schemas, and a browsable UI', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json<{
      openapi: string;
      paths: Record<string, Record<string, { tags?: string[]; requestBody?: unknown }>>;
    }>();
    assert.match(doc.openapi, /^3\./);
    const reset = doc.paths['/transaction-report/reset/{server}/{year}/{month}']?.post;
    assert.ok(reset?.requestBody, 'reset documents its body');
    assert.deepEqual(reset?.tags, ['transaction-report']);
    assert.ok(doc.paths['/face-liveness/decrypt']?.post);
    for (const service of ALL_SERVICES) assert.ok(doc.paths[`${service.prefix}/version`]?.get, service.name);
    const ui = await app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(ui.statusCode, 200);
    assert.match(ui.body, /swagger/i);
  });

  it('never echoes secret headers into logs', async () => {
    const lines: string[] = [];
    const { Writable } = await import('node:stream');
    const { buildApp } = await import('../../src/server/app.js');
    const { loadConfig } = await import('../../src/server/config.js');
    const { testEnvelopeKeys } = await import('../helpers/app.js');
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logged = await buildApp({
      config: loadConfig({ VERIPORT_DATA_DIR: 'memory://', LOG_LEVEL: 'trace' }),
      envelopeKeys: testEnvelopeKeys(),
      logger: { level: 'trace', stream },
    });
    await logged.inject({
      method: 'GET',
      url: '/version',
      headers: { apikey: 'sk-live-SECRET', authorization: 'Bearer SECRET-TOKEN' },
    });
    await logged.close();
    assert.ok(lines.length > 0);
    assert.doesNotMatch(lines.join(''), /SECRET/);
  });
});

describe('single-service server', () => {
  it('mounts only the named service', async () => {
    const single = await testApp({}, { services: [serviceByName('face-matching')] });
    try {
      assert.equal((await single.inject({ method: 'GET', url: '/face-matching/version' })).statusCode, 200);
      const other = await single.inject({ method: 'GET', url: '/voice-matching/version' });
      assert.equal(other.statusCode, 404);
      assert.equal(codedError(other).code, 404);
      assert.equal((await single.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    } finally {
      await single.close();
    }
  });
});
