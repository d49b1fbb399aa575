/**
 * Issue 14, authentication and scoping: with VERIPORT_AUTH=required every route of the biometric services
 * but `GET /version` needs an onboarding access token or a customer API key (either one; both of one
 * customer), checked before the body is read; admin-only calls need the operator's admin key on top of
 * the confirmation code. With authentication off (loopback) everything answers as before.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { SERVICE_NAMES, type ServiceDefinition } from '../../../src/server/service-definition.js';
import { addVersionRoute } from '../../../src/server/version-route.js';
import { ALL_SERVICES } from '../../../src/services/index.js';
import { tokenSigner } from '../../../src/services/onboarding/token-signer.js';
import { ADMIN_KEY_PREFIX, adminKeysRepository } from '../../../src/store/admin-keys.js';
import { customersRepository } from '../../../src/store/customers.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { signingKeysRepository } from '../../../src/store/signing-keys.js';
import { accessToken, testApp, testEnvelopeKeys } from '../../helpers/app.js';
import { codedError } from '../../helpers/http.js';
import { runCli, runCliInProcess, startServer } from '../../helpers/process.js';
import { testCustomer } from '../../helpers/stores.js';

const CONFIRM = '480213';
const ORIGIN = 'http://localhost:80';

/**
 * document-autocapture with one route that shows what the access hook set: a service defined without an
 * `authentication` field, as a new one would be.
 */
const probeService: ServiceDefinition = {
  name: 'document-autocapture',
  prefix: '/document-autocapture',
  description: 'probe',
  errorStyle: 'coded',
  jsonAsTextPlain: false,
  plugin: (app) => {
    addVersionRoute(app, 'document-autocapture');
    app.get('/whoami', (request) => ({ customerScope: request.customerScope, adminAccess: request.adminAccess }));
  },
};
const withProbe = ALL_SERVICES.map((s) => (s.name === probeService.name ? probeService : s));

/** The services this check covers: every one but onboarding, which keeps its own (token and key). */
const BIOMETRIC: readonly string[] = SERVICE_NAMES.filter((name) => name !== 'onboarding');

interface Route {
  readonly service: string;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly adminOnly: boolean;
}

const SAMPLE_PARAMS: Readonly<Record<string, string>> = {
  server: 'face-matching',
  year: '2026',
  month: '1',
  cacheName: 'c',
};
const ADMIN_ONLY = /\/(reset|shutdown)(\/|$)/;

/** Every route of the biometric services but `/version`, from the app's own OpenAPI document. */
function protectedRoutes(app: FastifyInstance): Route[] {
  const document = app.swagger() as { paths?: Record<string, Record<string, { tags?: string[] }>> };
  const routes: Route[] = [];
  for (const [template, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const service = operation.tags?.[0];
      if (service === undefined || !BIOMETRIC.includes(service) || template.endsWith('/version')) continue;
      if (method !== 'get' && method !== 'post') continue;
      const url = template.replace(/\{(\w+)\}/g, (_whole, name: string) => SAMPLE_PARAMS[name] ?? 'x');
      routes.push({ service, method: method === 'get' ? 'GET' : 'POST', url, adminOnly: ADMIN_ONLY.test(url) });
    }
  }
  return routes;
}

function call(
  app: FastifyInstance,
  route: Pick<Route, 'method' | 'url'>,
  headers: Readonly<Record<string, string | undefined>>,
  payload?: string | object,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: route.method,
    url: route.url,
    headers: route.method === 'POST' ? { 'content-type': 'application/json', ...headers } : headers,
    ...(route.method === 'POST' ? { payload: payload ?? {} } : {}),
  });
}

function assertUnauthorized(response: LightMyRequestResponse, what: string, secrets: readonly string[]): void {
  assert.equal(response.statusCode, 401, `${what}: ${response.body}`);
  assert.equal(response.headers['www-authenticate'], 'Bearer', what);
  const reason = unauthorizedReason(response, what);
  assert.match(reason, /^unauthorized: /, what);
  for (const secret of secrets) assert.ok(!reason.includes(secret), `${what}: a secret in the reason`);
}

/** A 401's reason in its service's error shape: Doc 3 C's Spring-style body for document validation, else coded. */
function unauthorizedReason(response: LightMyRequestResponse, what: string): string {
  const body = response.json<Record<string, unknown>>();
  if (typeof body.path === 'string' && body.path.startsWith('/document-validation/')) {
    assert.equal(body.status, 401, what);
    assert.equal(body.error, 'Unauthorized', what);
    assert.ok(typeof body.message === 'string', what);
    return body.message;
  }
  const error = codedError(response);
  assert.equal(error.code, 401, what);
  return error.description;
}

describe('authentication of the biometric services (VERIPORT_AUTH=required)', () => {
  let store: Store;
  let app: FastifyInstance;
  let routes: Route[];
  let shutdowns = 0;
  const creds = {
    acmeToken: '',
    acmeKey: '',
    globexKey: '',
    revokedKey: '',
    expiredToken: '',
    forgedToken: '',
    adminKey: '',
    revokedAdminKey: '',
  };

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const acme = await testCustomer(store, 'acme');
    const globex = await testCustomer(store, 'globex');
    const customers = customersRepository(store.db);
    const revoked = await customers.createApiKey('acme');
    await customers.revokeApiKey('acme', revoked.keyId);
    const adminKeys = adminKeysRepository(store.db);
    const revokedAdmin = await adminKeys.create('former operator');
    await adminKeys.revoke(revokedAdmin.keyId);
    app = await testApp(
      {
        VERIPORT_AUTH: 'required',
        VERIPORT_ADMIN_CONFIRM: CONFIRM,
        // Every bad key here comes from one address: the failure throttle has its own test
        // (failed-credentials-throttle.test.ts).
        VERIPORT_THROTTLE_FAILURES_PER_CLIENT: '1000000',
        VERIPORT_THROTTLE_FAILURES_PER_NETWORK: '1000000',
      },
      { store, services: withProbe, onShutdownRequested: () => (shutdowns += 1) },
    );
    const acmeToken = await accessToken(app, 'acme', acme.client);
    // Signed by the server's own key an hour ago with a 10 s lifetime.
    const past = tokenSigner(signingKeysRepository(store.db), 10, () => new Date(Date.now() - 3_600_000));
    const expired = await past.issue({
      issuer: `${ORIGIN}/auth/realms/acme-consumers`,
      customer: 'acme',
      clientId: acme.client.clientId,
    });
    // The same claims and kid as a real token, signed with a key that is not the server's.
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged = await new SignJWT(decodeJwt(acmeToken))
      .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: decodeProtectedHeader(acmeToken).kid ?? '' })
      .sign(privateKey);
    Object.assign(creds, {
      acmeToken,
      acmeKey: acme.apiKey,
      globexKey: globex.apiKey,
      revokedKey: revoked.apiKey,
      expiredToken: expired.access_token,
      forgedToken: forged,
      adminKey: (await adminKeys.create('tests')).apiKey,
      revokedAdminKey: revokedAdmin.apiKey,
    });
    routes = protectedRoutes(app);
  });

  after(async () => {
    await app.close();
    await store.close();
  });

  it('finds the routes of every built biometric service (and the probe) to check', () => {
    const services = new Set(routes.map((r) => r.service));
    for (const service of ['face-liveness', 'face-analysis', 'face-matching', 'transaction-report', probeService.name])
      assert.ok(services.has(service), `no route of ${service}`);
    assert.ok(routes.length >= 40, `only ${routes.length} routes`);
    assert.equal(routes.filter((r) => r.adminOnly).length, 5, 'reset (3 forms) and the two shutdowns');
  });

  it('describes the credentials in the OpenAPI document', () => {
    const document = app.swagger() as {
      components?: { securitySchemes?: Record<string, unknown> };
      paths: Record<string, Record<string, { security?: unknown }>>;
    };
    assert.deepEqual(Object.keys(document.components?.securitySchemes ?? {}), ['bearerToken', 'apiKey']);
    const either = [{ bearerToken: [] }, { apiKey: [] }];
    assert.deepEqual(document.paths['/face-matching/compare']?.post?.security, either);
    assert.deepEqual(document.paths['/transaction-report/fullReport']?.get?.security, either);
    assert.deepEqual(document.paths['/transaction-report/shutdown']?.post?.security, [{ apiKey: [] }]);
    assert.equal(document.paths['/face-matching/version']?.get?.security, undefined);
  });

  it('answers 401 with WWW-Authenticate on every protected route for missing or bad credentials', async () => {
    const bad: Array<[string, Record<string, string>]> = [
      ['no credentials', {}],
      ['a forged token', { authorization: `Bearer ${creds.forgedToken}` }],
      ['an expired token', { authorization: `Bearer ${creds.expiredToken}` }],
      ['a token that is no JWT', { authorization: 'Bearer not-a-jwt' }],
      ['Basic credentials', { authorization: 'Basic YWRtaW46YWRtaW4=' }],
      ['a revoked API key', { apikey: creds.revokedKey }],
      ['an unknown API key', { apikey: 'AAAAAAAA.unknown' }],
      [
        "customer A's token with customer B's key",
        { authorization: `Bearer ${creds.acmeToken}`, apikey: creds.globexKey },
      ],
      ['a valid key with a forged token', { authorization: `Bearer ${creds.forgedToken}`, apikey: creds.acmeKey }],
      ['a revoked admin key', { apikey: creds.revokedAdminKey }],
      ['an admin key with a bearer token', { authorization: `Bearer ${creds.acmeToken}`, apikey: creds.adminKey }],
    ];
    const secrets = Object.values(creds);
    for (const route of routes) {
      for (const [what, headers] of bad) {
        assertUnauthorized(await call(app, route, headers), `${route.method} ${route.url} with ${what}`, secrets);
      }
    }
  });

  it('checks before the body is read: a malformed body or an unknown media type without credentials is still 401', async () => {
    const route = { method: 'POST', url: '/face-matching/compare' } as const;
    assertUnauthorized(await call(app, route, {}, '{"probe": '), 'malformed JSON', []);
    assertUnauthorized(await call(app, route, { 'content-type': 'text/xml' }, '<a/>'), 'an unknown media type', []);
  });

  it('lets a token alone, a key alone, or both of one customer past the check on every route', async () => {
    const good: Array<[string, Record<string, string>]> = [
      ['a token alone', { authorization: `Bearer ${creds.acmeToken}` }],
      ['a key alone', { apikey: creds.acmeKey }],
      ['token and key of one customer', { authorization: `bearer ${creds.acmeToken}`, apikey: creds.acmeKey }],
    ];
    for (const route of routes) {
      // Shutdown is answered 403 before anything else is done (below: it stays a customer's 403).
      for (const [what, headers] of good) {
        const response = await call(app, route, headers);
        const where = `${route.method} ${route.url} with ${what}: ${response.body}`;
        if (route.adminOnly) {
          assert.equal(response.statusCode, 403, where);
          assert.match(codedError(response).description, /operator call/, where);
        } else {
          assert.ok(response.statusCode !== 401 && response.statusCode !== 403, where);
        }
      }
    }
    assert.equal(shutdowns, 0);
  });

  it('answers 200 with a token alone and with a key alone, and scopes the call to the customer', async () => {
    for (const headers of [{ authorization: `Bearer ${creds.acmeToken}` }, { apikey: creds.acmeKey }]) {
      const fused = await call(app, { method: 'POST', url: '/face-matching/fuseScores' }, headers, { scores: [3, 4] });
      assert.equal(fused.statusCode, 200, fused.body);
      for (const url of [
        '/face-liveness/getPublicKey',
        '/face-analysis/getPublicKey',
        '/transaction-report/fullReport',
      ]) {
        const response = await call(app, { method: 'GET', url }, headers);
        assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
      }
      const who = await call(app, { method: 'GET', url: '/document-autocapture/whoami' }, headers);
      assert.deepEqual(who.json(), { customerScope: 'acme', adminAccess: false });
    }
    const globex = await call(app, { method: 'GET', url: '/document-autocapture/whoami' }, { apikey: creds.globexKey });
    assert.deepEqual(globex.json(), { customerScope: 'globex', adminAccess: false });
  });

  it('keeps GET /version open on every service', async () => {
    for (const service of ALL_SERVICES) {
      const response = await app.inject({ method: 'GET', url: `${service.prefix}/version` });
      assert.equal(response.statusCode, 200, `${service.name}: ${response.body}`);
    }
  });

  it("answers an unknown path under a service 401 in the service's error shape", async () => {
    assertUnauthorized(await app.inject({ method: 'GET', url: '/voice-matching/nothing' }), 'coded', []);
    const spring = await app.inject({ method: 'GET', url: '/document-validation/nothing' });
    assert.equal(spring.statusCode, 401);
    assert.equal(spring.headers['www-authenticate'], 'Bearer');
    assert.deepEqual(
      { ...spring.json<Record<string, unknown>>(), timestamp: undefined },
      {
        timestamp: undefined,
        status: 401,
        path: '/document-validation/nothing',
        error: 'Unauthorized',
        message: spring.json<{ message: string }>().message,
      },
    );
    assert.match(spring.json<{ message: string }>().message, /^unauthorized: missing credentials/);
  });

  it('keeps onboarding on its own rule: token and key together', async () => {
    const url = '/onboarding/enrollment/enroll';
    for (const headers of [
      { authorization: `Bearer ${creds.acmeToken}` },
      { apikey: creds.acmeKey },
      { apikey: creds.adminKey },
    ]) {
      assertUnauthorized(
        await call(app, { method: 'POST', url }, headers),
        `onboarding with ${Object.keys(headers)[0] ?? ''}`,
        [],
      );
    }
    const both = await call(
      app,
      { method: 'POST', url },
      { authorization: `Bearer ${creds.acmeToken}`, apikey: creds.acmeKey },
      {},
    );
    assert.equal(both.statusCode, 400, both.body);
  });

  it('opens the admin-only calls to the admin key only, and still asks for the confirmation code', async () => {
    const admin = { apikey: creds.adminKey };
    const who = await call(app, { method: 'GET', url: '/document-autocapture/whoami' }, admin);
    assert.deepEqual(who.json(), { customerScope: '', adminAccess: true });

    const reset = { method: 'POST', url: '/transaction-report/reset/face-matching' } as const;
    for (const headers of [{ apikey: creds.acmeKey }, { authorization: `Bearer ${creds.acmeToken}` }]) {
      const refused = await call(app, reset, headers, { confirm: Number(CONFIRM) });
      assert.equal(refused.statusCode, 403, refused.body);
      assert.equal(codedError(refused).code, 403);
    }
    const wrongCode = await call(app, reset, admin, { confirm: 111111 });
    assert.equal(wrongCode.statusCode, 400, wrongCode.body);
    assert.equal((await call(app, reset, admin, { confirm: Number(CONFIRM) })).statusCode, 204);

    const reportShutdown = { method: 'POST', url: '/transaction-report/shutdown' } as const;
    assert.equal(
      (await call(app, reportShutdown, { apikey: creds.acmeKey }, { confirm: Number(CONFIRM) })).statusCode,
      403,
    );
    assert.equal(shutdowns, 0);
    assert.equal((await call(app, reportShutdown, admin, { confirm: Number(CONFIRM) })).statusCode, 204);
    assert.equal(shutdowns, 1);

    const analysisShutdown = (headers: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/face-analysis/shutdown',
        headers: { ...headers, 'x-veriport-confirm': CONFIRM },
      });
    assert.equal((await analysisShutdown({ authorization: `Bearer ${creds.acmeToken}` })).statusCode, 403);
    const stopped = await analysisShutdown(admin);
    assert.equal(stopped.statusCode, 200, stopped.body);
    assert.equal(shutdowns, 2);
  });
});

describe('authentication off (loopback default)', () => {
  let store: Store;
  let app: FastifyInstance;

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    await testCustomer(store, 'acme');
    app = await testApp({ VERIPORT_ADMIN_CONFIRM: CONFIRM }, { store, services: withProbe });
  });

  after(async () => {
    await app.close();
    await store.close();
  });

  it('asks for no credentials, treats every caller as the operator and leaves the scope unscoped', async () => {
    const who = await app.inject({ method: 'GET', url: '/document-autocapture/whoami' });
    assert.deepEqual(who.json(), { customerScope: '', adminAccess: true });
    for (const route of protectedRoutes(app)) {
      if (route.adminOnly) continue;
      const response = await call(app, route, {});
      assert.ok(response.statusCode !== 401 && response.statusCode !== 403, `${route.url}: ${response.body}`);
    }
    const reset = await call(
      app,
      { method: 'POST', url: '/transaction-report/reset/face-matching' },
      {},
      {
        confirm: Number(CONFIRM),
      },
    );
    assert.equal(reset.statusCode, 204, reset.body);
    assert.equal((await app.inject({ method: 'GET', url: '/voice-matching/nothing' })).statusCode, 404);
  });

  it('keeps onboarding behind its token and key', async () => {
    const response = await call(app, { method: 'POST', url: '/onboarding/enrollment/enroll' }, {});
    assertUnauthorized(response, 'onboarding without credentials', []);
  });
});

describe('the off-on-a-network warning', () => {
  let store: Store;

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  });

  after(async () => {
    await store.close();
  });

  const warningsOf = async (env: Record<string, string>): Promise<string[]> => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const app = await buildApp({
      config: loadConfig({ VERIPORT_DATA_DIR: 'memory://', LOG_LEVEL: 'warn', ...env }),
      envelopeKeys: testEnvelopeKeys(),
      store,
      logger: { level: 'warn', stream },
    });
    await app.close();
    return lines.filter((line) => line.includes('VERIPORT_AUTH=off'));
  };

  it('is logged once when authentication is off on a non-loopback host, and not otherwise', async () => {
    assert.equal((await warningsOf({ HOST: '0.0.0.0', VERIPORT_AUTH: 'off' })).length, 1);
    assert.equal((await warningsOf({ HOST: '0.0.0.0' })).length, 0);
    assert.equal((await warningsOf({ HOST: '127.0.0.1', VERIPORT_AUTH: 'off' })).length, 0);
  });
});

describe('admin keys', () => {
  let store: Store;

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  });

  after(async () => {
    await store.close();
  });

  it('are found by id and hash, active until revoked, and never taken for customer keys or the reverse', async () => {
    const adminKeys = adminKeysRepository(store.db);
    const { keyId, apiKey, label } = await adminKeys.create('ops');
    assert.equal(label, 'ops');
    assert.ok(apiKey.startsWith(`${ADMIN_KEY_PREFIX}${keyId}.`));
    assert.equal(await adminKeys.keyIdOf(apiKey), keyId);
    assert.equal(await adminKeys.keyIdOf(`${apiKey}x`), undefined, 'a wrong secret under a right id');
    assert.equal(await adminKeys.keyIdOf(apiKey.slice(ADMIN_KEY_PREFIX.length)), undefined, 'without its prefix');
    const { apiKey: customerKey } = await testCustomer(store, 'acme');
    assert.equal(await adminKeys.keyIdOf(customerKey), undefined);
    assert.equal(await customersRepository(store.db).customerOfApiKey(apiKey), undefined);
    assert.equal(await adminKeys.revoke(keyId), true);
    assert.equal(await adminKeys.keyIdOf(apiKey), undefined);
    assert.equal(await adminKeys.revoke('no-such'), false);
    assert.deepEqual(
      (await adminKeys.list()).map((k) => [k.keyId, k.label, k.revoked]),
      [[keyId, 'ops', true]],
    );
  });
});

describe('veriport admin admin-keys and report --url with authentication on', () => {
  let dataDir: string;

  before(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'veriport-auth-'));
  });

  after(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates, lists and revokes admin keys; the report needs one over HTTP', async () => {
    const env = { VERIPORT_DATA_DIR: dataDir };
    const created = await runCliInProcess(['admin', 'admin-keys', 'create', 'ops on-call'], env);
    assert.equal(created.code, 0, created.stderr);
    const adminKey = /^admin_key=(\S+)$/m.exec(created.stdout)?.[1] ?? '';
    const keyId = /^key_id=(\S+)$/m.exec(created.stdout)?.[1] ?? '';
    assert.ok(adminKey.startsWith(ADMIN_KEY_PREFIX), created.stdout);
    const spare =
      /^key_id=(\S+)$/m.exec((await runCliInProcess(['admin', 'admin-keys', 'create'], env)).stdout)?.[1] ?? '';
    const revoked = await runCliInProcess(['admin', 'admin-keys', 'revoke', spare], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    const listed = await runCliInProcess(['admin', 'admin-keys', 'list'], env);
    assert.match(listed.stdout, new RegExp(`^${keyId}\\tactive\\t\\S+\\tops on-call$`, 'm'));
    assert.match(listed.stdout, new RegExp(`^${spare}\\trevoked\\t`, 'm'));
    assert.ok(!listed.stdout.includes(adminKey), 'the key itself is printed only when made');

    const server = await startServer({ ...env, VERIPORT_AUTH: 'required' });
    try {
      const anonymous = await runCliInProcess(['report', '--url', server.url], {});
      assert.notEqual(anonymous.code, 0);
      assert.match(anonymous.stderr, /HTTP 401/);
      const operator = await runCli(['report', '--url', server.url], { VERIPORT_API_KEY: adminKey });
      assert.equal(operator.code, 0, operator.stderr);
      assert.match(operator.stdout, /^server_name,year,month,endpoint,counter/);
    } finally {
      await server.stop();
    }
  });
});
