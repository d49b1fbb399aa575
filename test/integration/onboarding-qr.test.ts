import assert from 'node:assert/strict';
import { constants, createHmac, publicDecrypt } from 'node:crypto';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { generateDeviceKey, type DeviceKey } from '../../src/client/device-key.js';
import {
  OnboardingApiError,
  OnboardingClient,
  type FaceFrame,
  type TriggerAnswer,
} from '../../src/client/onboarding-client.js';
import { takeOverSession } from '../../src/client/qr-session.js';
import { openSessionData } from '../../src/client/session-data.js';
import { onboardingService } from '../../src/services/onboarding/index.js';
import { QR_CODE_WIDTH } from '../../src/services/onboarding/qr-code-image.js';
import { transactionReportService } from '../../src/services/transaction-report/index.js';
import { sha256Hex } from '../../src/crypto/secret-hash.js';
import { customersRepository } from '../../src/store/customers.js';
import { openStore, type Store } from '../../src/store/database.js';
import { onboardingEnrollmentsRepository } from '../../src/store/onboarding-enrollments.js';
import { onboardingEventsRepository } from '../../src/store/onboarding-events.js';
import { testApp } from '../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine, type Person } from '../helpers/faces.js';
import { startMailSink } from '../helpers/mail-sink.js';

/** A short sequence of hand-held selfie frames of one person (small motion between frames). */
async function liveFrames(
  person: Person,
  capture: { brightness?: number; margin?: number } = {},
): Promise<FaceFrame[]> {
  const motions = [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }];
  const t0 = Date.now();
  return Promise.all(
    motions.map(async (m, i) => ({ image: await selfieFrame(person, m, capture), timestamp: t0 + i * 100 })),
  );
}

interface SeededUser {
  readonly registrationCode: string;
  readonly deviceId: string;
  readonly device: DeviceKey;
}

/**
 * A user enrolled by writing the store as a completed enrollment does (its face template is no template:
 * these users never reach the face step), with a P-256 device key and a registration code.
 */
async function seedEnrolledUser(store: Store, customer: string, username: string): Promise<SeededUser> {
  const enrollments = onboardingEnrollmentsRepository(store.db);
  const tokenHash = sha256Hex(`seed ${username}`);
  const user = { username, email: `${username}@example.com`, phoneNumber: '+15550100' };
  await enrollments.start({
    tokenHash,
    customer,
    user: { ...user, firstName: undefined, lastName: undefined },
    codePresented: false,
    expiresAt: new Date(Date.now() + 60_000),
  });
  const device = generateDeviceKey('p256');
  const binding = { deviceId: `phone-${username}`, keyKind: 'p256' as const, key: Buffer.from(device.publicKeyPem) };
  assert.ok(await enrollments.bindDevice(customer, tokenHash, binding));
  const registrationCode = `code-of-${username}`;
  const completed = await enrollments.complete(
    customer,
    tokenHash,
    {
      device: binding,
      sealedFaceTemplate: Buffer.from('no template'),
      registrationCodeHash: sha256Hex(registrationCode),
    },
    new Date(),
  );
  assert.ok(completed);
  return { registrationCode, deviceId: binding.deviceId, device };
}

/** Expects a refused call with this status; returns its description. */
async function refused(call: Promise<unknown>, status: number): Promise<string> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof OnboardingApiError, String(error));
    assert.equal(error.status, status, error.description);
    return error.description;
  }
  assert.fail(`expected HTTP ${status}`);
}

/** A POST as a phone sends it, with its own User-Agent; the answer's status and JSON body. */
async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A local HTTP server that answers every request with `status` and keeps the requests. */
async function webhookSink(status: number): Promise<{
  url: string;
  received: Array<{ headers: IncomingMessage['headers']; body: string }>;
  close(): Promise<void>;
}> {
  const received: Array<{ headers: IncomingMessage['headers']; body: string }> = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(status).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/push`,
    received,
    async close() {
      server.close();
      await once(server, 'close');
    },
  };
}

describe('onboarding QR hand-over (Doc 1 endpoints 7-12) through HTTP', () => {
  let store: Store;
  let app: FastifyInstance;
  let baseUrl: string;
  let portal: OnboardingClient;
  let globexPortal: OnboardingClient;
  let publicKeyPem: string;
  let acmeKeys: { apiKey: string; token: () => Promise<string> };
  const frames: Record<string, FaceFrame[]> = {};

  const listen = async (instance: FastifyInstance) => {
    await instance.listen({ port: 0, host: '127.0.0.1' });
    const address = instance.server.address();
    assert.ok(address !== null && typeof address === 'object');
    return `http://127.0.0.1:${address.port}`;
  };

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const customers = customersRepository(store.db);
    const clientOf = async (name: string, displayName: string) => {
      await customers.create({ name, displayName, logo: name === 'acme' ? 'https://acme.example/logo.png' : '' });
      return { client: await customers.createClient(name), key: await customers.createApiKey(name) };
    };
    const a = await clientOf('acme', 'ACME Bank');
    const g = await clientOf('globex', 'Globex');
    app = await testApp(
      { VERIPORT_AUTH: 'required', VERIPORT_THROTTLE_TRIGGER_PER_USER: '1000' },
      { store, services: [onboardingService, transactionReportService], faceEngine: testFaceEngine() },
    );
    baseUrl = await listen(app);
    const sdk = (customer: string, c: typeof a) =>
      new OnboardingClient({
        baseUrl,
        customer,
        clientId: c.client.clientId,
        clientSecret: c.client.clientSecret,
        apiKey: c.key.apiKey,
      });
    portal = sdk('acme', a);
    globexPortal = sdk('globex', g);
    acmeKeys = { apiKey: a.key.apiKey, token: () => portal.token() };
    // The phone app ships with this key (Doc 1: the data is decrypted "with the available public key").
    publicKeyPem = await portal.getPublicKey();
    paul = await seedEnrolledUser(store, 'acme', 'qr-paul');
    bella = await seedEnrolledUser(store, 'acme', 'qr-bella');
    frames.anna = await liveFrames('anna');
    frames.annaLater = await liveFrames('anna', { brightness: 1.15, margin: 0.35 });
  });
  after(async () => {
    await app.close();
    await store.close();
    await closeTestFaceEngine();
  });

  /** Users enrolled directly in the store (no face step): the tests of refusals need no liveness. */
  let paul: SeededUser;
  let bella: SeededUser;
  let registrationCode: string;
  let device: ReturnType<typeof generateDeviceKey>;

  it('triggerEnroll answers SUCCESS with a link whose data publicDecrypt opens, and a PNG QR code of the link', async () => {
    const answer = await portal.triggerEnroll('qr-alice', 'alice@example.com');
    assert.equal(answer.status, 'SUCCESS');
    assert.equal(answer.errorSummary, null);
    assert.match(answer.sessionToken, /^[A-Za-z0-9_-]{43}$/);
    const url = new URL(answer.sessionCallbackURL);
    assert.equal(`${url.origin}${url.pathname}`, `${baseUrl}/capture`);
    const data = url.searchParams.get('data') ?? '';
    assert.match(data, /^[A-Za-z0-9_-]+$/, 'base64url without padding');
    // RSA PKCS#1 v1.5 with the private key: what crypto.publicDecrypt undoes with the getPublicKey PEM.
    const plain = publicDecrypt(
      { key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING },
      Buffer.from(data, 'base64url'),
    );
    const [host, apiKey, sessionToken, ...rest] = plain.toString('utf8').split('&');
    assert.deepEqual(rest, []);
    assert.equal(host, baseUrl);
    assert.equal(sessionToken, answer.sessionToken);
    assert.match(apiKey ?? '', /^qrsession\.[A-Za-z0-9_-]{43}$/);
    assert.notEqual(apiKey, acmeKeys.apiKey, "never the customer's own key");

    const png = Buffer.from(answer.qrcodeImage, 'base64');
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], 'PNG signature');
    const { data: pixels, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    assert.equal(info.width, QR_CODE_WIDTH);
    assert.equal(info.height, QR_CODE_WIDTH);
    const decoded = jsQR.default(new Uint8ClampedArray(pixels), info.width, info.height);
    assert.equal(decoded?.data, answer.sessionCallbackURL, 'the QR code decodes to the link');
  });

  it('enrolls through the QR session: validateSession, then enroll, adddevice, addFace with its token', async () => {
    const trigger = await portal.triggerEnroll('qr-alice', 'alice@example.com');
    const before = await portal.sessionStatus(trigger.sessionToken);
    assert.equal(before.state, 'created');
    assert.equal(before.matchCode, null);

    const { client, session } = await takeOverSession(trigger.sessionCallbackURL, publicKeyPem);
    assert.equal(session.methodType, 'enroll');
    assert.equal(session.customerName, 'ACME Bank');
    assert.equal(session.customerLogo, 'https://acme.example/logo.png');
    assert.equal(session.userName, 'qr-alice');
    assert.equal(session.email, 'alice@example.com');
    assert.equal(session.expiresIn, 300);
    assert.match(session.matchCode, /^\d{6}$/);
    const scanned = await portal.sessionStatus(trigger.sessionToken);
    assert.equal(scanned.state, 'scanned');
    assert.equal(scanned.matchCode, session.matchCode, 'portal and phone show the same match code');

    assert.equal(await client.getPublicKey(), publicKeyPem);
    const started = await client.enroll({ username: session.userName, email: session.email, phoneNumber: '+15550100' });
    assert.equal(started.userExistsAlready, false);
    device = generateDeviceKey('p256');
    assert.deepEqual(await client.addDevice(started.enrollmentToken, 'phone-qr-alice', device), {
      enrollmentStatus: 1,
      registrationCode: '',
    });
    assert.equal((await portal.sessionStatus(trigger.sessionToken)).state, 'device-added');
    const face = await client.addFace(started.enrollmentToken, frames.anna!, session.userName);
    assert.equal(face.enrollmentStatus, 2, JSON.stringify(face));
    registrationCode = face.registrationCode;
    const done = await portal.sessionStatus(trigger.sessionToken);
    assert.equal(done.state, 'complete');
    assert.equal(done.matchCode, session.matchCode);

    // The session's credentials die with it.
    assert.match(
      await refused(client.enroll({ username: 'qr-alice', email: 'alice@example.com', phoneNumber: '+15550100' }), 401),
      /ended \(complete\)/,
    );
    // The audit log has the hand-over, and no secret.
    const events = await onboardingEventsRepository(store.db).list('acme', 'qr-alice');
    assert.deepEqual(
      events.map((e) => e.event).filter((e) => e === 'triggerEnroll' || e === 'validateSession'),
      ['triggerEnroll', 'triggerEnroll', 'validateSession'],
    );
    assert.ok(!JSON.stringify(events).includes(trigger.sessionToken));
  });

  it('authenticates through the QR session on the QR-flow paths: /authenticate, /verifyDevice, /verifyFace', async () => {
    const trigger = await portal.triggerAuthenticate('qr-alice');
    assert.equal(trigger.status, 'SUCCESS');
    const { client, session } = await takeOverSession(trigger.sessionCallbackURL, publicKeyPem);
    assert.equal(session.methodType, 'authenticate');
    assert.equal(session.email, 'alice@example.com', "the enrolled user's address");
    const { authToken, requiredChecks } = await client.authenticate(registrationCode, 'phone-qr-alice');
    assert.deepEqual(requiredChecks, ['verifyDevice', 'verifyFace']);
    assert.deepEqual(await client.verifyDevice(authToken, 'phone-qr-alice', device), {
      message: 'device verified',
      authStatus: 1,
    });
    assert.equal((await portal.sessionStatus(trigger.sessionToken)).state, 'device-verified');
    const result = await client.verifyFace(authToken, frames.annaLater!, session.userName);
    assert.equal(result.authStatus, 2, JSON.stringify(result.faceMatchResults));
    assert.equal(result.matchResult, true);
    assert.equal((await portal.sessionStatus(trigger.sessionToken)).state, 'complete');
    await refused(client.verifyFace(authToken, frames.annaLater!, session.userName), 401);
  });

  it('refuses a replayed, superseded or expired session token, and a token of another session', async () => {
    const first = await portal.triggerEnroll('qr-bob', 'bob@example.com');
    const { host, apiKey, sessionToken } = openSessionData(first.sessionCallbackURL, publicKeyPem);
    const validate = (key: string, token: string, userAgent = 'phone-a') =>
      post(`${host}/tokenVerify/validateSession`, { apikey: key, 'user-agent': userAgent }, { sessionToken: token });

    // A newer trigger of the same user and method supersedes the unscanned session (the portal's QR refresh).
    const second = await portal.triggerEnroll('qr-bob', 'bob@example.com');
    const superseded = await validate(apiKey, sessionToken);
    assert.equal(superseded.status, 409);
    assert.match(JSON.stringify(superseded.body), /newer QR code/);

    const fresh = openSessionData(second.sessionCallbackURL, publicKeyPem);
    // The key of one session with the token of another: refused, and the token stays unused.
    assert.equal((await validate(fresh.apiKey, sessionToken)).status, 403);
    assert.equal((await validate(fresh.apiKey, fresh.sessionToken)).status, 200);
    assert.equal((await validate('qrsession.unknown', fresh.sessionToken)).status, 401);
    assert.equal(
      (await validate(acmeKeys.apiKey, fresh.sessionToken)).status,
      401,
      "a customer's key is no session key",
    );

    const shortLived = await testApp({ VERIPORT_SESSION_TTL_SECONDS: '1' }, { store, services: [onboardingService] });
    try {
      const shortUrl = await listen(shortLived);
      const shortPortal = new OnboardingClient({
        ...(await clientOptions('acme')),
        baseUrl: shortUrl,
      });
      const expiring = await shortPortal.triggerEnroll('qr-carl', 'carl@example.com');
      const data = openSessionData(expiring.sessionCallbackURL, publicKeyPem);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const late = await post(
        `${data.host}/tokenVerify/validateSession`,
        { apikey: data.apiKey },
        {
          sessionToken: data.sessionToken,
        },
      );
      assert.equal(late.status, 410, JSON.stringify(late.body));
      assert.equal((await shortPortal.sessionStatus(expiring.sessionToken)).state, 'expired');
    } finally {
      await shortLived.close();
    }
  });

  /** The OIDC client options of a customer, made fresh (its secret is shown only at creation). */
  const clientOptions = async (customer: string) => {
    const customers = customersRepository(store.db);
    const client = await customers.createClient(customer);
    const key = await customers.createApiKey(customer);
    return { customer, clientId: client.clientId, clientSecret: client.clientSecret, apiKey: key.apiKey };
  };

  it('lets one of two phones validating at once win; the same phone may retry until it used its token', async () => {
    const trigger = await portal.triggerEnroll('qr-dora', 'dora@example.com');
    const { host, apiKey, sessionToken } = openSessionData(trigger.sessionCallbackURL, publicKeyPem);
    const validate = (userAgent: string) =>
      post(`${host}/tokenVerify/validateSession`, { apikey: apiKey, 'user-agent': userAgent }, { sessionToken });
    const race = await Promise.all([validate('phone-1'), validate('phone-2'), validate('phone-3')]);
    const winners = race.filter((r) => r.status === 200);
    assert.equal(winners.length, 1, JSON.stringify(race.map((r) => r.status)));
    assert.deepEqual(
      race.filter((r) => r.status !== 200).map((r) => r.status),
      [409, 409],
    );
    const winner = race.findIndex((r) => r.status === 200);
    const phone = `phone-${winner + 1}`;
    const firstToken = String(winners[0]!.body.accessToken);

    // The winning phone lost the answer and asks again: a new token, the first one dead, the same match code.
    const retry = await validate(phone);
    assert.equal(retry.status, 200);
    assert.equal(retry.body.matchCode, winners[0]!.body.matchCode);
    const call = (token: string) =>
      post(
        `${host}/onboarding/enrollment/enroll`,
        { apikey: apiKey, authorization: `Bearer ${token}` },
        {
          username: 'qr-dora',
          email: 'dora@example.com',
          phoneNumber: '+15550101',
        },
      );
    assert.equal((await call(firstToken)).status, 401);
    assert.equal((await call(String(retry.body.accessToken))).status, 200);
    // Once the token was used, the session token is spent for good.
    assert.equal((await validate(phone)).status, 409);

    // Validations (the winner's and its retry) are the session's customer's calls in the usage report.
    await new Promise((resolve) => setTimeout(resolve, 1200));
    const counted = await store.db
      .selectFrom('usage_counters')
      .select(['customer', 'counter'])
      .where('endpoint', '=', '/tokenVerify/validateSession')
      .where('customer', '=', 'acme')
      .executeTakeFirst();
    assert.ok(Number(counted?.counter ?? 0) >= 2, JSON.stringify(counted));
  });

  it("confines the session's credentials to its user, its method and its own flow", async () => {
    const enroll = await takeOverSession(
      (await portal.triggerEnroll('qr-erin', 'erin@example.com')).sessionCallbackURL,
      publicKeyPem,
    );
    const phone = enroll.client;
    assert.match(
      await refused(phone.enroll({ username: 'qr-mallory', email: 'm@example.com', phoneNumber: '+1' }), 403),
      /not the session user/,
    );
    // An enrollment the portal's own credentials started is not this session's.
    const other = await portal.enroll({ username: 'qr-frank', email: 'f@example.com', phoneNumber: '+1' });
    assert.match(await refused(phone.addDevice(other.enrollmentToken, 'phone-x'), 403), /not the one of this session/);
    // An enrollment session does not authenticate.
    assert.match(await refused(phone.authenticate(bella.registrationCode, bella.deviceId), 403), /hands over enroll/);

    const auth = await takeOverSession((await portal.triggerAuthenticate('qr-paul')).sessionCallbackURL, publicKeyPem);
    // Paul's session cannot start an authentication of Bella, nor run one the portal started.
    assert.match(
      await refused(auth.client.authenticate(bella.registrationCode, bella.deviceId), 403),
      /not the session user's/,
    );
    const portalAuth = await portal.authenticate(paul.registrationCode, paul.deviceId);
    assert.match(
      await refused(auth.client.verifyDevice(portalAuth.authToken, paul.deviceId, paul.device), 403),
      /not the one of this session/,
    );
    await refused(auth.client.triggerAuthenticate('qr-paul'), 401);
    // Its own authentication runs: authenticate and verifyDevice on the QR-flow paths.
    const own = await auth.client.authenticate(paul.registrationCode, paul.deviceId);
    assert.deepEqual(await auth.client.verifyDevice(own.authToken, paul.deviceId, paul.device), {
      message: 'device verified',
      authStatus: 1,
    });
  });

  it("refuses the session's token outside its session: other key, customer key, trigger calls, biometric services", async () => {
    const trigger = await portal.triggerEnroll('qr-gina', 'gina@example.com');
    const { host, apiKey, sessionToken } = openSessionData(trigger.sessionCallbackURL, publicKeyPem);
    const validated = await post(`${host}/tokenVerify/validateSession`, { apikey: apiKey }, { sessionToken });
    const accessToken = String(validated.body.accessToken);
    const other = openSessionData(
      (await portal.triggerEnroll('qr-hana', 'hana@example.com')).sessionCallbackURL,
      publicKeyPem,
    );
    const get = (path: string, headers: Record<string, string>) =>
      fetch(`${host}${path}`, { headers }).then((r) => r.status);
    const bearer = `Bearer ${accessToken}`;
    assert.equal(await get('/getPublicKey', { apikey: apiKey, authorization: bearer }), 200);
    assert.equal(
      await get('/getPublicKey', { apikey: other.apiKey, authorization: bearer }),
      401,
      "another session's key",
    );
    assert.equal(
      await get('/getPublicKey', { apikey: acmeKeys.apiKey, authorization: bearer }),
      401,
      "the customer's key",
    );
    assert.equal(await get('/getPublicKey', { apikey: apiKey }), 401, 'no bearer token');
    assert.equal(
      await get('/getPublicKey', { apikey: apiKey, authorization: `Bearer ${await acmeKeys.token()}` }),
      401,
      "the customer's token with the session key",
    );
    assert.equal(await get('/transaction-report/fullReport', { authorization: bearer }), 401, 'a biometric service');
    assert.equal(await get('/transaction-report/fullReport', { apikey: apiKey }), 401);
    assert.equal(await get('/transaction-report/fullReport', { apikey: acmeKeys.apiKey }), 200, 'the control');
    const trigger2 = await post(
      `${host}/b2c/proxy/triggerEnroll`,
      { apikey: apiKey, authorization: bearer },
      { username: 'qr-ivan', email: 'ivan@example.com' },
    );
    assert.equal(trigger2.status, 401);
    assert.equal(trigger2.body.status, 'FAILURE');
  });

  it('answers trigger refusals in the trigger shape: enrolled user, unknown user, bad input, no credentials', async () => {
    const call = async (path: string, body: unknown, headers?: Record<string, string>) =>
      post(
        `${baseUrl}/b2c/proxy/${path}`,
        headers ?? { apikey: acmeKeys.apiKey, authorization: `Bearer ${await acmeKeys.token()}` },
        body,
      );
    const expectFailure = (answer: { status: number; body: Record<string, unknown> }, status: number, code: number) => {
      assert.equal(answer.status, status, JSON.stringify(answer.body));
      assert.equal(answer.body.status, 'FAILURE');
      assert.equal(answer.body.sessionToken, null);
      assert.equal(answer.body.sessionCallbackURL, null);
      assert.equal(answer.body.qrcodeImage, null);
      assert.equal(typeof answer.body.errorSummary, 'string');
      assert.deepEqual(answer.body.error, { code, description: answer.body.errorSummary });
    };
    expectFailure(await call('triggerEnroll', { username: 'qr-paul', email: 'paul@example.com' }), 409, 409);
    expectFailure(await call('triggerAuthenticate', { username: 'qr-nobody' }), 404, 404);
    expectFailure(await call('triggerEnroll', { email: 'x@example.com' }), 400, -3);
    expectFailure(await call('triggerEnroll', { username: 'qr-x', email: 'not-an-address' }), 400, -6);
    expectFailure(
      await call('triggerEnroll', {
        username: 'qr-x',
        email: 'x@example.com',
        notifyOptions: { notifyByEmail: 'yes' },
      }),
      400,
      -4,
    );
    expectFailure(await call('triggerEnroll', { username: 'qr-x', email: 'x@example.com' }, {}), 401, 401);
    // Another customer does not see acme's users or sessions.
    const acmeSession = await portal.triggerAuthenticate('qr-paul');
    await refused(globexPortal.triggerAuthenticate('qr-paul'), 404);
    await refused(globexPortal.sessionStatus(acmeSession.sessionToken), 404);
  });

  it('answers malformed requests to the QR routes with a 4xx and a coded error, never a 5xx', async () => {
    const customerHeaders = { apikey: acmeKeys.apiKey, authorization: `Bearer ${await acmeKeys.token()}` };
    const routes = [
      { path: '/b2c/proxy/triggerEnroll', headers: customerHeaders },
      { path: '/b2c/proxy/triggerAuthenticate', headers: customerHeaders },
      { path: '/b2c/proxy/sessionStatus', headers: customerHeaders },
      { path: '/tokenVerify/validateSession', headers: { apikey: 'qrsession.x' } },
    ];
    const bodies = [
      '',
      '{',
      '[]',
      'null',
      '{"sessionToken":5,"username":5}',
      JSON.stringify({ sessionToken: 'a\u0000b', username: 'a\u0000b', email: 'a@b' }),
      JSON.stringify({ sessionToken: 't'.repeat(129), username: 'u'.repeat(257), email: `${'e'.repeat(300)}@x` }),
      JSON.stringify({ sessionToken: '\ud800', username: 'x', email: 'x@y', notifyOptions: [] }),
    ];
    for (const { path, headers } of routes)
      for (const body of bodies) {
        const response = await fetch(`${baseUrl}${path}`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body,
        });
        const text = await response.text();
        assert.ok(response.status >= 400 && response.status < 500, `${path} ${body.slice(0, 40)}: ${response.status}`);
        const parsed = JSON.parse(text) as { error?: { code?: unknown } };
        assert.equal(typeof parsed.error?.code, 'number', `${path}: ${text.slice(0, 200)}`);
      }
  });

  it('says in errorSummary that no notification was sent when no channel is configured', async () => {
    const email = await portal.triggerEnroll('qr-jane', 'jane@example.com', true);
    assert.equal(email.status, 'SUCCESS');
    assert.match(email.errorSummary ?? '', /^notification not sent: no e-mail transport is configured/);
    const push = await portal.triggerAuthenticate('qr-paul', true);
    assert.match(push.errorSummary ?? '', /no push channel is configured/);
  });

  it('e-mails the link over SMTP and pushes it to the webhook, signed; a refused delivery is reported', async () => {
    const mail = await startMailSink();
    const refusingMail = await startMailSink({ reject: true });
    const hook = await webhookSink(204);
    const failingHook = await webhookSink(500);
    const secret = 'webhook-secret-0123456789';
    const notifying = await testApp(
      {
        VERIPORT_SMTP_URL: mail.url,
        VERIPORT_SMTP_FROM: 'ACME <id@acme.example>',
        VERIPORT_PUSH_WEBHOOK_URL: hook.url,
        VERIPORT_PUSH_WEBHOOK_SECRET: secret,
      },
      { store, services: [onboardingService] },
    );
    const failing = await testApp(
      {
        VERIPORT_SMTP_URL: refusingMail.url,
        VERIPORT_SMTP_FROM: 'id@acme.example',
        VERIPORT_PUSH_WEBHOOK_URL: failingHook.url,
      },
      { store, services: [onboardingService] },
    );
    try {
      const client = new OnboardingClient({ ...(await clientOptions('acme')), baseUrl: await listen(notifying) });
      const sent = await client.triggerEnroll('qr-kate', 'kate@example.com', true);
      assert.equal(sent.errorSummary, null);
      assert.equal(mail.messages.length, 1);
      const [message] = mail.messages;
      assert.deepEqual(message?.to, ['kate@example.com']);
      assert.equal(message?.from, 'id@acme.example');
      // The link as sent (quoted-printable soft line breaks undone).
      assert.ok(message?.data.replace(/=\r\n/g, '').replace(/=3D/g, '=').includes(sent.sessionCallbackURL));
      assert.match(message?.data ?? '', /Subject: ACME Bank: set up your face sign-in/);

      const pushed = await client.triggerAuthenticate('qr-paul', true);
      assert.equal(pushed.errorSummary, null);
      assert.equal(hook.received.length, 1);
      const [request] = hook.received;
      const body = JSON.parse(request?.body ?? '{}') as Record<string, unknown>;
      assert.equal(body.sessionCallbackURL, pushed.sessionCallbackURL);
      assert.equal(body.username, 'qr-paul');
      assert.equal(body.methodType, 'authenticate');
      assert.equal(
        request?.headers['x-veriport-signature'],
        `sha256=${createHmac('sha256', secret)
          .update(request?.body ?? '')
          .digest('hex')}`,
      );

      const failingClient = new OnboardingClient({ ...(await clientOptions('acme')), baseUrl: await listen(failing) });
      const notMailed: TriggerAnswer = await failingClient.triggerEnroll('qr-lena', 'lena@example.com', true);
      assert.equal(notMailed.status, 'SUCCESS');
      assert.match(notMailed.errorSummary ?? '', /could not be delivered/);
      const notPushed = await failingClient.triggerAuthenticate('qr-paul', true);
      assert.match(notPushed.errorSummary ?? '', /push service did not accept/);
      assert.equal(failingHook.received.length, 1);
    } finally {
      await notifying.close();
      await failing.close();
      await Promise.all([mail.close(), refusingMail.close(), hook.close(), failingHook.close()]);
    }
  });

  it('logs no secret of a session and no personal data: token, keys, data, access token, user, address', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const logged = await testApp(
      { LOG_LEVEL: 'trace' },
      { store, services: [onboardingService], logger: { level: 'trace', stream } },
    );
    try {
      const client = new OnboardingClient({ ...(await clientOptions('acme')), baseUrl: await listen(logged) });
      const trigger = await client.triggerEnroll('qr-olga.private', 'olga.private@example.org', true);
      const { host, apiKey, sessionToken } = openSessionData(trigger.sessionCallbackURL, publicKeyPem);
      const validated = await post(`${host}/tokenVerify/validateSession`, { apikey: apiKey }, { sessionToken });
      assert.equal(validated.status, 200);
      const accessToken = String(validated.body.accessToken);
      const refusedCall = await post(
        `${host}/onboarding/enrollment/enroll`,
        { apikey: apiKey, authorization: `Bearer ${accessToken}` },
        { username: 'qr-someone-else', email: 'x@example.org', phoneNumber: '+1' },
      );
      assert.equal(refusedCall.status, 403);
      // The token was used (even by a refused call): a replay is refused, and logged as refused.
      assert.equal(
        (await post(`${host}/tokenVerify/validateSession`, { apikey: apiKey }, { sessionToken })).status,
        409,
      );
      const log = lines.join('');
      assert.match(log, /email notification not sent: no e-mail transport is configured/);
      assert.match(log, /"link":"http:\/\/127\.0\.0\.1:\d+\/capture"/, 'the link is logged without its data');
      const data = new URL(trigger.sessionCallbackURL).searchParams.get('data') ?? '';
      for (const secret of [sessionToken, apiKey, data, accessToken, 'olga', 'qr-someone-else'])
        assert.ok(!log.includes(secret), `the log holds ${secret.slice(0, 12)}...`);
    } finally {
      await logged.close();
    }
  });

  it('throttles triggers per user and validations per address (429 with Retry-After)', async () => {
    const throttled = await testApp(
      { VERIPORT_THROTTLE_TRIGGER_PER_USER: '2', VERIPORT_THROTTLE_VALIDATE_PER_ADDRESS: '2' },
      { store, services: [onboardingService] },
    );
    try {
      const client = new OnboardingClient({ ...(await clientOptions('acme')), baseUrl: await listen(throttled) });
      await client.triggerEnroll('qr-max', 'max@example.com');
      const last = await client.triggerEnroll('qr-max', 'max@example.com');
      const response = await fetch(`${new URL(last.sessionCallbackURL).origin}/b2c/proxy/triggerEnroll`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${await client.token()}`,
          apikey: (await clientOptions('acme')).apiKey,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ username: 'qr-max', email: 'max@example.com' }),
      });
      assert.equal(response.status, 429);
      assert.ok(Number(response.headers.get('retry-after')) >= 1);
      assert.equal(((await response.json()) as { status: string }).status, 'FAILURE');
      // Another user of the customer is not held back.
      await client.triggerEnroll('qr-nina', 'nina@example.com');

      const { host, apiKey } = openSessionData(last.sessionCallbackURL, publicKeyPem);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++)
        statuses.push(
          (await post(`${host}/tokenVerify/validateSession`, { apikey: apiKey }, { sessionToken: 'wrong' })).status,
        );
      assert.deepEqual(statuses, [403, 403, 429]);
    } finally {
      await throttled.close();
    }
  });
});
