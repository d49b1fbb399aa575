/**
 * What the web apps stand on, without a browser: the pages and files `GET /portal`, `/capture` and `/web/*`
 * serve (headers, the onboarding key in the capture page, nothing else reachable, 503 when not built), and the
 * one call of another service a QR session's credentials open, the capture app's live guidance
 * (`/face-liveness/analyze` at the session's face step; session-confinement.ts).
 */
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildWebApps } from '../../scripts/build-web.js';
import { generateDeviceKey } from '../../src/client/device-key.js';
import { OnboardingClient } from '../../src/client/onboarding-client.js';
import { takeOverSession } from '../../src/client/qr-session.js';
import { openSessionData } from '../../src/client/session-data.js';
import { sha256Hex } from '../../src/crypto/secret-hash.js';
import { errorHandler } from '../../src/server/errors/error-handlers.js';
import { registerWebApps } from '../../src/server/web-apps.js';
import { faceLivenessService } from '../../src/services/face-liveness/index.js';
import { onboardingService } from '../../src/services/onboarding/index.js';
import { customersRepository } from '../../src/store/customers.js';
import { openStore, type Store } from '../../src/store/database.js';
import { onboardingEventsRepository } from '../../src/store/onboarding-events.js';
import { onboardingSessionsRepository } from '../../src/store/onboarding-sessions.js';
import { testApp, testEnvelopeKeys } from '../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine } from '../helpers/faces.js';

describe('web apps: pages and files', () => {
  let directory: string;
  let app: FastifyInstance;
  const publicKeyPem = testEnvelopeKeys().key('onboarding').publicKeyPem;

  before(async () => {
    directory = await buildWebApps(await mkdtemp(join(tmpdir(), 'veriport-web-build-')));
    app = Fastify();
    app.setErrorHandler(errorHandler('coded'));
    registerWebApps(app, { directory, onboardingPublicKeyPem: publicKeyPem });
  });
  after(async () => {
    await app.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('serves the pages with a strict Content-Security-Policy and no caching, no referrer', async () => {
    for (const [url, camera] of [
      ['/portal', 'camera=()'],
      ['/capture', 'camera=(self)'],
    ] as const) {
      const response = await app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['content-type'], 'text/html; charset=utf-8');
      const csp = String(response.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'(;|$)/, 'no inline or remote scripts');
      assert.match(csp, /connect-src 'self'(;|$)/, 'calls to this server only');
      assert.match(csp, /frame-ancestors 'none'/);
      assert.equal(response.headers['referrer-policy'], 'no-referrer');
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.match(String(response.headers['permissions-policy']), new RegExp(camera.replace(/[()]/g, '\\$&')));
      assert.doesNotMatch(response.body, /<script(?![^>]*\bsrc=)/, 'no inline script');
    }
  });

  it('puts the onboarding public key (SPKI, base64 DER) in the capture page', async () => {
    const page = (await app.inject({ method: 'GET', url: '/capture?data=abc' })).body;
    const content = /<meta name="veriport-onboarding-key" content="([A-Za-z0-9+/=]+)"/.exec(page)?.[1];
    assert.ok(content !== undefined, 'the key is in the page');
    const key = createPublicKey({ key: Buffer.from(content, 'base64'), format: 'der', type: 'spki' });
    assert.equal(key.export({ type: 'spki', format: 'pem' }), publicKeyPem);
  });

  it('serves the bundles and the style sheet, and nothing else', async () => {
    for (const [file, type] of [
      ['portal.js', 'text/javascript; charset=utf-8'],
      ['capture.js', 'text/javascript; charset=utf-8'],
      ['styles.css', 'text/css; charset=utf-8'],
    ]) {
      const response = await app.inject({ method: 'GET', url: `/web/${file}` });
      assert.equal(response.statusCode, 200, file);
      assert.equal(response.headers['content-type'], type);
      assert.ok(response.body.length > 1000, file);
    }
    for (const url of ['/web/portal.html', '/web/..%2Fpackage.json', '/web/capture.js.map', '/web/']) {
      assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url);
    }
  });

  it('answers 503 naming the build when the bundle is missing', async () => {
    const bare = Fastify();
    bare.setErrorHandler(errorHandler('coded'));
    registerWebApps(bare, { directory: join(directory, 'missing'), onboardingPublicKeyPem: publicKeyPem });
    const response = await bare.inject({ method: 'GET', url: '/portal' });
    assert.equal(response.statusCode, 503);
    assert.match(response.body, /npm run build/);
    await bare.close();
  });
});

describe("a QR session's credentials on the live guidance (/face-liveness/analyze)", () => {
  let store: Store;
  let app: FastifyInstance;
  let portal: OnboardingClient;
  let publicKeyPem: string;
  let analyzeBody: unknown;
  let customerApiKey: string;

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const customers = customersRepository(store.db);
    await customers.create({ name: 'acme', displayName: 'ACME Bank', logo: '' });
    const client = await customers.createClient('acme');
    const key = await customers.createApiKey('acme');
    customerApiKey = key.apiKey;
    app = await testApp(
      { VERIPORT_AUTH: 'required' },
      { store, services: [onboardingService, faceLivenessService], faceEngine: testFaceEngine() },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    assert.ok(address !== null && typeof address === 'object');
    portal = new OnboardingClient({
      baseUrl: `http://127.0.0.1:${address.port}`,
      customer: 'acme',
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      apiKey: key.apiKey,
    });
    publicKeyPem = await portal.getPublicKey();
    const frame = (await selfieFrame('anna')).toString('base64');
    analyzeBody = { video: { workflow_data: { workflow: 'hotel2', frames: [{ data: frame, timestamp: 1000 }] } } };
  });
  after(async () => {
    await app.close();
    await store.close();
    await closeTestFaceEngine();
  });

  /** A POST with a session's key and accessToken; the status and JSON body. */
  const asSession = async (
    session: { apiKey: string; accessToken: string },
    url: string,
    body: unknown,
  ): Promise<{ status: number; body: string }> => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { apikey: session.apiKey, authorization: `Bearer ${session.accessToken}` },
      payload: body as object,
    });
    return { status: response.statusCode, body: response.body };
  };

  it('opens /face-liveness/analyze at the face step only, and no other call of another service', async () => {
    const trigger = await portal.triggerEnroll('guided', 'guided@example.com');
    const { apiKey, sessionToken } = openSessionData(trigger.sessionCallbackURL, publicKeyPem);
    const { client, session } = await takeOverSession(trigger.sessionCallbackURL, publicKeyPem);
    const credentials = { apiKey, accessToken: session.accessToken };

    // Before the face step (validated, nothing started): refused, and recorded.
    const early = await asSession(credentials, '/face-liveness/analyze', analyzeBody);
    assert.equal(early.status, 403, early.body);
    assert.match(early.body, /face step only/);
    const events = await onboardingEventsRepository(store.db).list('acme', 'guided');
    assert.ok(events.some((e) => e.event === 'session /face-liveness/analyze' && e.outcome === 'refused'));

    const { enrollmentToken } = await client.enroll({
      username: 'guided',
      email: 'guided@example.com',
      phoneNumber: '+15550100',
    });
    await client.addDevice(enrollmentToken, 'phone-guided', generateDeviceKey());
    const guided = await asSession(credentials, '/face-liveness/analyze', analyzeBody);
    assert.equal(guided.status, 200, guided.body);
    const answer = JSON.parse(guided.body) as { video: { autocapture_result: { feedback: unknown } } };
    assert.ok(Array.isArray(answer.video.autocapture_result.feedback));

    // Every other call of another service refuses the session's credentials, as before.
    for (const url of ['/face-liveness/checkLiveness', '/face-liveness/analyzeEncrypted', '/face-liveness/challenge']) {
      assert.equal((await asSession(credentials, url, analyzeBody)).status, 401, url);
    }
    // A wrong accessToken with the session key: 401.
    assert.equal(
      (await asSession({ apiKey, accessToken: 'x'.repeat(43) }, '/face-liveness/analyze', analyzeBody)).status,
      401,
    );
    // Once the session has ended, its credentials open nothing.
    assert.ok(await onboardingSessionsRepository(store.db).advance('acme', sha256Hex(sessionToken), 'failed'));
    assert.equal((await asSession(credentials, '/face-liveness/analyze', analyzeBody)).status, 401);
  });

  it("leaves the customer's own credentials on /face-liveness/analyze as they were", async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/face-liveness/analyze',
      headers: { apikey: customerApiKey },
      payload: analyzeBody as object,
    });
    assert.equal(response.statusCode, 200, response.body);
  });
});
