/**
 * Issue 18's "Done when": every endpoint of Doc 1 answers as specified, and the QR flows and the device check
 * pass a client written from the spec. The client (test/helpers/spec-client.ts) imports nothing from src/: it
 * speaks HTTP to a listening server and does its own cryptography. Only the set-up (the app, the customers,
 * a customer's policy: what an operator does with `veriport admin`) uses the project's code.
 *
 * Every field is held against Doc 1's text; where Doc 1 says nothing (error bodies, the token presentation
 * of the triggers, the envelope, the device-signal post) against docs/onboarding.md, and the members the
 * project adds beyond Doc 1 are listed as such (EXTENSIONS).
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import jsQR from 'jsqr';
import sharp from 'sharp';
import { faceLivenessService } from '../../src/services/face-liveness/index.js';
import { onboardingService } from '../../src/services/onboarding/index.js';
import { transactionReportService } from '../../src/services/transaction-report/index.js';
import { openStore, type Store } from '../../src/store/database.js';
import { onboardingEventsRepository } from '../../src/store/onboarding-events.js';
import { onboardingPoliciesRepository } from '../../src/store/onboarding-policies.js';
import { customersRepository } from '../../src/store/customers.js';
import { testApp } from '../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine, type Person } from '../helpers/faces.js';
import {
  androidPhoneSignals,
  decodeQrData,
  facePackage,
  specCall,
  specDeviceKey,
  specToken,
  type QrData,
  type SpecAnswer,
  type SpecCredentials,
  type SpecDeviceKey,
} from '../helpers/spec-client.js';

/** A field's JSON type as Doc 1's tables give it. */
type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'null' | 'string|null';

/**
 * The members a body may have beyond Doc 1's table, each documented in docs/onboarding.md (the "extension"
 * and "Decisions where Doc 1 is silent" entries).
 */
const EXTENSIONS = {
  validateSession: ['matchCode', 'expiresIn'],
  /** addFace / verifyFace say why the flow did not complete (only when it did not). */
  addFace: ['message'],
  verifyFace: ['message'],
  /** Endpoint 6: Doc 1 shows no body; the project answers the device-security result with enrollmentStatus. */
  acquiredAttributeTypes: ['TrueIPASN', 'TrueIPOrganization', 'VeriportScore'],
} as const;

/** Doc 1's acquired attribute types (Resources, "Device-security result"). */
const DOC1_ACQUIRED_TYPES = new Set(
  (
    'SmartIDBrowserstringPersonaAgeMonths TrueIPConnectionType TrueIPCity BiometricReasonCode BiometricAssessmentScore ' +
    'BiometricAnomalyScore TrueIPGeoCountry TrueIPLineSpeed DigitalID TrueIP SocialEngineeringScore Platform ' +
    'BiometricFraudScore HTMLLocationAccuracy ExactIDIPPersonaAgeMonths HTMLLocationLongitude FuzzyDeviceID ' +
    'OperatingSystem OperatingSystemVersion BrowserSpoofReason TrueIPLatitude OperatingSystemAnomaly ' +
    'HTMLLocationLatitude HoneypotFingerprintMatch ScreenResolution BiometricBotScore TrueIPLongitude ' +
    'NEATPersonaAgeMonths DigitalIDConfidence FuzzyDeviceIDConfidence'
  ).split(' '),
);

/** Doc 1's assertion names (Resources, "Assertion item"). */
const DOC1_ASSERTIONS = new Set(
  (
    'blacklist.ofacIP blacklist.device blacklist.ip detect.browserAnomaly detect.possibleVPNOrTunnel detect.vpn ' +
    'detect.proxyAnonymous detect.jailbreak detect.malware detect.torExitNode90d detect.mobileTethering ' +
    'detect.aggregator detect.unusualActivity detect.proxyOpenTransparent detect.proxyHidden detect.tor ' +
    'detect.torNode detect.knownVPNISP link.timeZone_TrueGeo link.proxyOrg_TrueOrg link.proxyISP_TrueISP ' +
    'link.proxyGeo_TrueGeo test.gte2Credential1d test.gte3Credential1d test.gte5Credential1d ' +
    'test.gte10Credential1d test.gte20Credential1d test.lte3ProxyToday test.trustedDevice ' +
    'test.trustedDevice28days test.trustedDevice6mo test.lte3CredentialsDevice7d test.gte5Device1d ' +
    'test.gte5CredentialDevice1d test.credentialLTE500mi1hr test.trueIPLTE500miInputIP test.exactIDAgeGTE7d ' +
    'test.smartIDAgeGTE7d test.apSessionIDNotReplay test.expectedLanguage'
  ).split(' '),
);

/** Doc 1's value-key rule for an attribute type (Resources, "Device-security result"). */
function valueKey(attributeType: string): string {
  const exceptions: Record<string, string> = {
    SmartIDBrowserstringPersonaAgeMonths: 'smartIDBrowserStringPersonaAge',
    ExactIDIPPersonaAgeMonths: 'exactIDIPPersonaAge',
    NEATPersonaAgeMonths: 'NEATPersonaAge',
  };
  const exception = exceptions[attributeType];
  if (exception !== undefined) return exception;
  if (attributeType.startsWith('HTMLLocation')) return `htmlLocation${attributeType.slice('HTMLLocation'.length)}`;
  // The provider score attribute: its type name ends in Score and is not one of Doc 1's named types.
  if (attributeType.endsWith('Score') && !DOC1_ACQUIRED_TYPES.has(attributeType)) return attributeType.toLowerCase();
  return `${attributeType.charAt(0).toLowerCase()}${attributeType.slice(1)}`;
}

/** Doc 1's date format of dateCreated / dateAsserted: a slash-separated date and a 24-hour time. */
const DOC1_DATE = /^\d\d\/\d\d\/\d{4} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

function typeOf(value: unknown): FieldType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  return 'object';
}

/**
 * Asserts a 200 whose JSON body has exactly Doc 1's fields (plus the listed extensions, each optional) with
 * Doc 1's types; returns the body.
 */
function specBody(
  answer: SpecAnswer,
  fields: Readonly<Record<string, FieldType>>,
  extensions: readonly string[] = [],
): Record<string, unknown> {
  assert.equal(answer.status, 200, answer.text);
  assert.match(answer.contentType, /^application\/json/);
  const body = answer.body;
  assert.ok(typeof body === 'object' && body !== null && !Array.isArray(body), answer.text);
  const record = body as Record<string, unknown>;
  for (const [name, type] of Object.entries(fields)) {
    const actual = typeOf(record[name]);
    const allowed = type === 'string|null' ? ['string', 'null'] : type === 'number' ? ['number', 'integer'] : [type];
    assert.ok(name in record, `missing ${name}: ${answer.text.slice(0, 300)}`);
    assert.ok(allowed.includes(actual), `${name} is ${actual}, Doc 1 says ${type}`);
  }
  const unexpected = Object.keys(record).filter((name) => !(name in fields) && !extensions.includes(name));
  assert.deepEqual(unexpected, [], 'members beyond Doc 1 and the documented extensions');
  return record;
}

/**
 * Asserts a refusal in the onboarding error body (docs/onboarding.md "Errors": `{"error":{"code","description"}}`,
 * the HTTP status as the code outside the 400 codes); returns the description.
 */
function refusal(answer: SpecAnswer, status: number, code = status): string {
  assert.equal(answer.status, status, answer.text);
  const body = answer.body as { error?: { code?: unknown; description?: unknown } } | undefined;
  assert.equal(body?.error?.code, code, answer.text);
  assert.equal(typeof body.error.description, 'string');
  return String(body.error.description);
}

/** A short sequence of hand-held selfie frames of one person (small motion between frames), as a phone takes them. */
async function liveFrames(
  person: Person,
  capture: { brightness?: number; margin?: number } = {},
): Promise<Array<{ image: Buffer; timestamp: number }>> {
  const motions = [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }];
  const t0 = Date.now();
  return Promise.all(
    motions.map(async (m, i) => ({ image: await selfieFrame(person, m, capture), timestamp: t0 + i * 100 })),
  );
}

const LIVENESS_SUMMARY = (result: unknown): void => {
  const video = (result as { video?: { liveness_result?: Record<string, unknown> } }).video;
  const summary = video?.liveness_result;
  assert.ok(summary !== undefined, JSON.stringify(result));
  assert.equal(typeof summary.decision, 'string');
  assert.ok(Array.isArray(summary.feedback));
  assert.equal(typeof summary.score_frr, 'number');
};

describe('onboarding through HTTP with a client written from Doc 1 alone', () => {
  let store: Store;
  let app: FastifyInstance;
  let base: string;
  let publicKeyPem: string;
  /** acme: final check verifyFace (the default); initech: deviceSecurity (its policy). */
  const customer: Record<'acme' | 'initech', { clientId: string; clientSecret: string; apiKey: string }> = {
    acme: { clientId: '', clientSecret: '', apiKey: '' },
    initech: { clientId: '', clientSecret: '', apiKey: '' },
  };
  const frames: Record<string, Array<{ image: Buffer; timestamp: number }>> = {};

  /** A fresh access token of a customer (endpoint 1) with its API key: the credentials of the portal. */
  const portal = async (name: 'acme' | 'initech'): Promise<SpecCredentials> => {
    const c = customer[name];
    const token = await specToken(base, name, c.clientId, c.clientSecret);
    return { bearer: String((token.body as { access_token: unknown }).access_token), apikey: c.apiKey };
  };

  const listen = async (instance: FastifyInstance): Promise<string> => {
    await instance.listen({ port: 0, host: '127.0.0.1' });
    const address = instance.server.address();
    assert.ok(address !== null && typeof address === 'object');
    return `http://127.0.0.1:${address.port}`;
  };

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const customers = customersRepository(store.db);
    for (const name of ['acme', 'initech'] as const) {
      await customers.create({ name, displayName: name === 'acme' ? 'ACME Bank' : 'Initech' });
      const client = await customers.createClient(name);
      const { apiKey } = await customers.createApiKey(name);
      customer[name] = { clientId: client.clientId, clientSecret: client.clientSecret, apiKey };
    }
    // `veriport admin policy set initech final-check=deviceSecurity`
    await onboardingPoliciesRepository(store.db).set('initech', { finalCheck: 'deviceSecurity' });
    app = await testApp(
      { VERIPORT_AUTH: 'required', VERIPORT_THROTTLE_TRIGGER_PER_USER: '1000' },
      { store, services: [onboardingService, transactionReportService], faceEngine: testFaceEngine() },
    );
    base = await listen(app);
    frames.anna = await liveFrames('anna');
    frames.annaLater = await liveFrames('anna', { brightness: 1.15, margin: 0.35 });
    frames.bella = await liveFrames('bella');
  });
  after(async () => {
    await app.close();
    await store.close();
    await closeTestFaceEngine();
  });

  it('1 token: the client-credentials grant answers Doc 1 token response', async () => {
    const c = customer.acme;
    const answer = await specToken(base, 'acme', c.clientId, c.clientSecret);
    const body = specBody(answer, {
      access_token: 'string',
      expires_in: 'integer',
      refresh_expires_in: 'integer',
      token_type: 'string',
      id_token: 'string',
      'not-before-policy': 'integer',
      scope: 'string',
    });
    assert.match(String(body.access_token), /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a JWT');
    assert.match(String(body.id_token), /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a JWT');
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body.scope, 'openid');
    assert.ok(Number(body.expires_in) > 0);
    // A wrong secret is refused (OAuth's error body on this endpoint: docs/decisions.md).
    const wrong = await specToken(base, 'acme', c.clientId, 'not-the-secret');
    assert.equal(wrong.status, 401, wrong.text);
  });

  it('2 getPublicKey: a PEM public key as text, with Authorization and apikey only', async () => {
    const credentials = await portal('acme');
    const answer = await specCall(`${base}/getPublicKey`, credentials);
    assert.equal(answer.status, 200);
    assert.match(answer.contentType, /^text\/plain/);
    assert.match(answer.text, /^-----BEGIN PUBLIC KEY-----\n[\s\S]+\n-----END PUBLIC KEY-----\n?$/);
    publicKeyPem = answer.text;
    refusal(await specCall(`${base}/getPublicKey`, { apikey: credentials.apikey }), 401);
    refusal(await specCall(`${base}/getPublicKey`, { bearer: credentials.bearer }), 401);
  });

  let direct: { registrationCode: string; deviceId: string; device: SpecDeviceKey };

  it('client-initiated enrollment (1, 2, 3, 4, 5): enroll, adddevice, addFace as Doc 1 states them', async () => {
    const credentials = await portal('acme');
    const enroll = specBody(
      await specCall(`${base}/onboarding/enrollment/enroll`, credentials, {
        username: 'ic-alice',
        firstName: 'Alice',
        lastName: 'Liddell',
        email: 'alice@example.com',
        phoneNumber: '+15550100',
      }),
      { enrollmentToken: 'string', userExistsAlready: 'boolean', requiredChecks: 'array' },
    );
    assert.equal(enroll.userExistsAlready, false);
    assert.deepEqual(enroll.requiredChecks, ['addDevice', 'addFace']);
    const enrollmentToken = String(enroll.enrollmentToken);

    const device = specDeviceKey();
    const added = specBody(
      await specCall(`${base}/onboarding/enrollment/adddevice`, credentials, {
        enrollmentToken,
        deviceId: 'ic-phone-alice',
        // The device key (docs/onboarding.md "Device key"): Doc 1 does not say how the signature is made.
        devicePublicKey: device.publicKeyPem,
      }),
      { enrollmentStatus: 'integer', registrationCode: 'string' },
    );
    assert.deepEqual(added, { enrollmentStatus: 1, registrationCode: '' }, 'Doc 1: 1 pending, code empty');

    const face = specBody(
      await specCall(`${base}/onboarding/enrollment/addFace`, credentials, {
        enrollmentToken,
        faceLivenessData: facePackage(frames.anna ?? [], publicKeyPem, 'ic-alice'),
      }),
      { livenessResult: 'boolean', enrollmentStatus: 'integer', registrationCode: 'string', livenessResults: 'object' },
      EXTENSIONS.addFace,
    );
    assert.equal(face.livenessResult, true, JSON.stringify(face.livenessResults));
    assert.equal(face.enrollmentStatus, 2, 'Doc 1: 2 complete');
    assert.notEqual(face.registrationCode, '', 'filled when the face step completes');
    LIVENESS_SUMMARY(face.livenessResults);
    assert.equal(
      (face.livenessResults as { video: { liveness_result: { decision: string } } }).video.liveness_result.decision,
      'LIVE',
    );
    direct = { registrationCode: String(face.registrationCode), deviceId: 'ic-phone-alice', device };

    // Order and single use (docs/onboarding.md "Errors"): a completed enrollment takes no further step.
    refusal(
      await specCall(`${base}/onboarding/enrollment/adddevice`, credentials, {
        enrollmentToken,
        deviceId: 'ic-phone-alice',
      }),
      409,
    );
    refusal(
      await specCall(`${base}/onboarding/enrollment/addFace`, credentials, {
        enrollmentToken: 'never-issued',
        faceLivenessData: facePackage(frames.anna ?? [], publicKeyPem, 'ic-alice'),
      }),
      404,
    );
  });

  it('client-initiated authentication (10, 11, 12): authToken, verifyDevice authStatus 1, verifyFace authStatus 2', async () => {
    const credentials = await portal('acme');
    const started = specBody(
      await specCall(`${base}/onboarding/authentication/authenticate`, credentials, {
        registrationCode: direct.registrationCode,
        deviceId: direct.deviceId,
      }),
      { authToken: 'string', requiredChecks: 'array' },
    );
    assert.deepEqual(started.requiredChecks, ['verifyDevice', 'verifyFace']);
    const authToken = String(started.authToken);
    // Face before device: out of order.
    refusal(
      await specCall(`${base}/onboarding/authentication/verifyFace`, credentials, {
        authToken,
        faceLivenessData: facePackage(frames.annaLater ?? [], publicKeyPem, 'ic-alice'),
      }),
      409,
    );
    const verified = specBody(
      await specCall(`${base}/onboarding/authentication/verifyDevice`, credentials, {
        authToken,
        signature: direct.device.signAuthToken(authToken),
        deviceId: direct.deviceId,
      }),
      { message: 'string', authStatus: 'integer' },
    );
    assert.equal(verified.authStatus, 1);
    const result = specBody(
      await specCall(`${base}/onboarding/authentication/verifyFace`, credentials, {
        authToken,
        faceLivenessData: facePackage(frames.annaLater ?? [], publicKeyPem, 'ic-alice'),
      }),
      {
        livenessResult: 'boolean',
        matchResult: 'boolean',
        matchScore: 'number',
        authStatus: 'integer',
        faceLivenessResults: 'object',
        faceMatchResults: 'object',
      },
      EXTENSIONS.verifyFace,
    );
    assert.equal(result.livenessResult, true);
    assert.equal(result.matchResult, true);
    assert.equal(result.authStatus, 2);
    LIVENESS_SUMMARY(result.faceLivenessResults);
    const match = result.faceMatchResults as Record<string, unknown>;
    specBody(
      { ...SYNTHETIC_OK, body: match, text: JSON.stringify(match) },
      {
        statusMessages: 'array',
        verifyResult: 'boolean',
        matchScore: 'number',
        biometricMatchedCount: 'integer',
        biometricsOnServer: 'string',
        biometricMatchResultList: 'array',
        matchingMinutia: 'null',
      },
    );
    const [item, ...others] = match.biometricMatchResultList as unknown[];
    assert.deepEqual(others, []);
    const listed = specBody(
      { ...SYNTHETIC_OK, body: item, text: JSON.stringify(item) },
      {
        verifyResult: 'boolean',
        modality: 'string',
        fmrScore: 'number',
        biometricMatchedCount: 'integer',
        biometricsOnServer: 'string',
        matchResultReference: 'null',
      },
    );
    assert.equal(listed.modality, 'FACE');
    assert.equal(listed.verifyResult, true);
  });

  it('refuses another device at authentication (Doc 1 "What the service does" 6) and a signature of another key', async () => {
    const credentials = await portal('acme');
    refusal(
      await specCall(`${base}/onboarding/authentication/authenticate`, credentials, {
        registrationCode: direct.registrationCode,
        deviceId: 'some-other-phone',
      }),
      403,
    );
    const started = await specCall(`${base}/onboarding/authentication/authenticate`, credentials, {
      registrationCode: direct.registrationCode,
      deviceId: direct.deviceId,
    });
    const authToken = String((started.body as { authToken: unknown }).authToken);
    refusal(
      await specCall(`${base}/onboarding/authentication/verifyDevice`, credentials, {
        authToken,
        signature: specDeviceKey().signAuthToken(authToken),
        deviceId: direct.deviceId,
      }),
      403,
    );
  });

  /** Endpoint 7 as a portal calls it; the trigger response checked against Doc 1 "Session (QR flows)". */
  const triggerEnroll = async (username: string, credentials?: SpecCredentials): Promise<Record<string, unknown>> => {
    const body = specBody(
      await specCall(`${base}/b2c/proxy/triggerEnroll`, credentials ?? (await portal('acme')), {
        username,
        email: `${username}@example.com`,
        notifyOptions: { notifyByEmail: false },
      }),
      {
        status: 'string',
        sessionCallbackURL: 'string',
        qrcodeImage: 'string',
        sessionToken: 'string',
        errorSummary: 'string|null',
      },
    );
    assert.equal(body.status, 'SUCCESS');
    assert.equal(body.errorSummary, null);
    return body;
  };

  /** Endpoint 9 with the decoded QR data; the answer checked against Doc 1's validate-session response. */
  const validate = async (qr: QrData, userAgent = 'phone-of-the-user'): Promise<Record<string, unknown>> =>
    specBody(
      await specCall(
        `${qr.host}/tokenVerify/validateSession`,
        { apikey: qr.apikey, userAgent },
        {
          sessionToken: qr.sessionToken,
        },
      ),
      {
        accessToken: 'string',
        methodType: 'string',
        customerName: 'string',
        customerLogo: 'string',
        userName: 'string',
        email: 'string',
      },
      EXTENSIONS.validateSession,
    );

  let qrUser: { registrationCode: string; deviceId: string; device: SpecDeviceKey };

  it('QR enrollment (7, decode, 9, 2, 3, 4, 5): the QR image, the data publicDecrypt opens, then the enrollment', async () => {
    const trigger = await triggerEnroll('ic-qr-carol');
    // qrcodeImage: "base64-encoded image of the QR code": a PNG that decodes to the sessionCallbackURL.
    const png = Buffer.from(String(trigger.qrcodeImage), 'base64');
    const { data: pixels, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    assert.equal(
      jsQR.default(new Uint8ClampedArray(pixels), info.width, info.height)?.data,
      trigger.sessionCallbackURL,
    );

    const qr = decodeQrData(String(trigger.sessionCallbackURL), publicKeyPem);
    assert.equal(qr.host, base, 'the host for all later calls');
    assert.equal(qr.sessionToken, trigger.sessionToken);
    assert.notEqual(qr.apikey, customer.acme.apiKey, "never the customer's long-lived key");

    const session = await validate(qr);
    assert.equal(session.methodType, 'enroll');
    assert.equal(session.customerName, 'ACME Bank');
    assert.equal(session.userName, 'ic-qr-carol');
    assert.equal(session.email, 'ic-qr-carol@example.com');
    const phone: SpecCredentials = { bearer: String(session.accessToken), apikey: qr.apikey };

    // Doc 1 flow "QR enrollment": 9, then 2, 3, 4, 5 with the session's bearer token and the QR's apikey.
    const key = await specCall(`${qr.host}/getPublicKey`, phone);
    assert.equal(key.text, publicKeyPem);
    const enroll = specBody(
      await specCall(`${qr.host}/onboarding/enrollment/enroll`, phone, {
        username: String(session.userName),
        email: String(session.email),
        phoneNumber: '+15550101',
      }),
      { enrollmentToken: 'string', userExistsAlready: 'boolean', requiredChecks: 'array' },
    );
    const device = specDeviceKey();
    specBody(
      await specCall(`${qr.host}/onboarding/enrollment/adddevice`, phone, {
        enrollmentToken: enroll.enrollmentToken,
        deviceId: 'ic-phone-carol',
        devicePublicKey: device.publicKeyPem,
      }),
      { enrollmentStatus: 'integer', registrationCode: 'string' },
    );
    const face = specBody(
      await specCall(`${qr.host}/onboarding/enrollment/addFace`, phone, {
        enrollmentToken: enroll.enrollmentToken,
        faceLivenessData: facePackage(frames.anna ?? [], key.text, 'ic-qr-carol'),
      }),
      { livenessResult: 'boolean', enrollmentStatus: 'integer', registrationCode: 'string', livenessResults: 'object' },
      EXTENSIONS.addFace,
    );
    assert.equal(face.enrollmentStatus, 2, JSON.stringify(face));
    qrUser = { registrationCode: String(face.registrationCode), deviceId: 'ic-phone-carol', device };
    // The session ended with the enrollment: its credentials open nothing more.
    refusal(await specCall(`${qr.host}/getPublicKey`, phone), 401);
  });

  it('QR authentication (8, decode, 9, 10, 11, 12 on the QR-flow paths /authenticate, /verifyDevice, /verifyFace)', async () => {
    const trigger = specBody(
      await specCall(`${base}/b2c/proxy/triggerAuthenticate`, await portal('acme'), {
        username: 'ic-qr-carol',
        notifyOptions: { notifyByPush: false },
      }),
      {
        status: 'string',
        sessionCallbackURL: 'string',
        qrcodeImage: 'string',
        sessionToken: 'string',
        errorSummary: 'string|null',
      },
    );
    assert.equal(trigger.status, 'SUCCESS');
    const qr = decodeQrData(String(trigger.sessionCallbackURL), publicKeyPem);
    const session = await validate(qr);
    assert.equal(session.methodType, 'authenticate');
    const phone: SpecCredentials = { bearer: String(session.accessToken), apikey: qr.apikey };
    const started = specBody(
      await specCall(`${qr.host}/authenticate`, phone, {
        registrationCode: qrUser.registrationCode,
        deviceId: qrUser.deviceId,
      }),
      { authToken: 'string', requiredChecks: 'array' },
    );
    assert.deepEqual(started.requiredChecks, ['verifyDevice', 'verifyFace']);
    const authToken = String(started.authToken);
    const verified = specBody(
      await specCall(`${qr.host}/verifyDevice`, phone, {
        authToken,
        signature: qrUser.device.signAuthToken(authToken),
        deviceId: qrUser.deviceId,
      }),
      { message: 'string', authStatus: 'integer' },
    );
    assert.equal(verified.authStatus, 1);
    const result = specBody(
      await specCall(`${qr.host}/verifyFace`, phone, {
        authToken,
        faceLivenessData: facePackage(frames.annaLater ?? [], publicKeyPem, 'ic-qr-carol'),
      }),
      {
        livenessResult: 'boolean',
        matchResult: 'boolean',
        matchScore: 'number',
        authStatus: 'integer',
        faceLivenessResults: 'object',
        faceMatchResults: 'object',
      },
      EXTENSIONS.verifyFace,
    );
    assert.equal(result.authStatus, 2, JSON.stringify(result.faceMatchResults));
    assert.equal(result.matchResult, true);
  });

  it('QR authentication of another face: live, no match, authStatus stays 1 (the same authToken may try again)', async () => {
    const trigger = await specCall(`${base}/b2c/proxy/triggerAuthenticate`, await portal('acme'), {
      username: 'ic-qr-carol',
    });
    const qr = decodeQrData(String((trigger.body as { sessionCallbackURL: unknown }).sessionCallbackURL), publicKeyPem);
    const session = await validate(qr);
    const phone: SpecCredentials = { bearer: String(session.accessToken), apikey: qr.apikey };
    const started = await specCall(`${qr.host}/authenticate`, phone, {
      registrationCode: qrUser.registrationCode,
      deviceId: qrUser.deviceId,
    });
    const authToken = String((started.body as { authToken: unknown }).authToken);
    await specCall(`${qr.host}/verifyDevice`, phone, {
      authToken,
      signature: qrUser.device.signAuthToken(authToken),
      deviceId: qrUser.deviceId,
    });
    const result = specBody(
      await specCall(`${qr.host}/verifyFace`, phone, {
        authToken,
        faceLivenessData: facePackage(frames.bella ?? [], publicKeyPem, 'ic-qr-carol'),
      }),
      {
        livenessResult: 'boolean',
        matchResult: 'boolean',
        matchScore: 'number',
        authStatus: 'integer',
        faceLivenessResults: 'object',
        faceMatchResults: 'object',
      },
      EXTENSIONS.verifyFace,
    );
    assert.equal(result.livenessResult, true);
    assert.equal(result.matchResult, false);
    assert.equal(result.authStatus, 1);
  });

  /** The device-security result (Doc 1 Resources) checked member by member; returns its responseDetail. */
  const deviceSecurityResult = (
    answer: SpecAnswer,
    statusField: 'authStatus' | 'enrollmentStatus',
    apSessionId: string,
  ): Record<string, unknown> => {
    const result = specBody(answer, {
      errorCode: 'string|null',
      errorMsg: 'string|null',
      responseDetail: 'object',
      [statusField]: 'integer',
    });
    const detail = specBody(
      { ...SYNTHETIC_OK, body: result.responseDetail, text: JSON.stringify(result.responseDetail) },
      {
        errorCode: 'string',
        errorDescription: 'string',
        transaction_id: 'string',
        userAttributes: 'array',
        acquiredAttributes: 'array',
        userAssertionList: 'array',
        mbun: 'string',
        forwardApiKey: 'string',
        policyObligation: 'boolean',
        policyDecision: 'string',
      },
    );
    assert.ok(['approve', 'review', 'reject'].includes(String(detail.policyDecision)));
    if (detail.policyDecision === 'approve') {
      // Doc 1 "Errors": all null or empty in a passing result.
      assert.equal(result.errorCode, null);
      assert.equal(result.errorMsg, null);
      assert.equal(detail.errorCode, '');
      assert.equal(detail.errorDescription, '');
    }
    // userAttributes: APSessionID with the value key apSessionId; provider and serviceOffering: acquired only.
    const [user, ...moreUsers] = detail.userAttributes as Array<Record<string, unknown>>;
    assert.deepEqual(moreUsers, []);
    specBody(
      { ...SYNTHETIC_OK, body: user, text: JSON.stringify(user) },
      { attributeType: 'string', dateCreated: 'string', values: 'object' },
    );
    assert.equal(user?.attributeType, 'APSessionID');
    assert.deepEqual(user?.values, { apSessionId });
    assert.match(String(user?.dateCreated), DOC1_DATE);
    for (const attribute of detail.acquiredAttributes as Array<Record<string, unknown>>) {
      specBody(
        { ...SYNTHETIC_OK, body: attribute, text: JSON.stringify(attribute) },
        {
          provider: 'string',
          serviceOffering: 'string',
          attributeType: 'string',
          dateCreated: 'string',
          values: 'object',
        },
      );
      const type = String(attribute.attributeType);
      assert.ok(
        DOC1_ACQUIRED_TYPES.has(type) || (EXTENSIONS.acquiredAttributeTypes as readonly string[]).includes(type),
        `${type}: neither Doc 1's nor a documented extension`,
      );
      const values = attribute.values as Record<string, unknown>;
      assert.deepEqual(Object.keys(values), [valueKey(type)], `${type}: Doc 1's value-key rule`);
      assert.equal(typeof values[valueKey(type)], 'string', 'numeric values are sent as strings');
      assert.match(String(attribute.dateCreated), DOC1_DATE);
    }
    const [assertionItem, ...moreItems] = detail.userAssertionList as Array<Record<string, unknown>>;
    assert.deepEqual(moreItems, []);
    specBody(
      { ...SYNTHETIC_OK, body: assertionItem, text: JSON.stringify(assertionItem) },
      { provider: 'string', serviceOffering: 'string', dateAsserted: 'string', assertions: 'object' },
    );
    assert.match(String(assertionItem?.dateAsserted), DOC1_DATE);
    for (const [name, value] of Object.entries(assertionItem?.assertions as Record<string, unknown>)) {
      assert.ok(DOC1_ASSERTIONS.has(name), `${name} is not a Doc 1 assertion`);
      assert.ok(value === 'pass' || value === 'fail', `${name}: ${String(value)}`);
    }
    return { ...detail, assertions: assertionItem?.assertions };
  };

  /** The collector post (extension: Doc 1 leaves the apSessionId to a vendor SDK). */
  const collect = async (credentials: SpecCredentials, visitorId: string): Promise<string> => {
    const body = specBody(
      await specCall(`${base}/onboarding/deviceProfile/signals`, credentials, androidPhoneSignals(visitorId)),
      { apSessionId: 'string', expiresIn: 'integer' },
    );
    return String(body.apSessionId);
  };

  let secured: { registrationCode: string; deviceId: string; device: SpecDeviceKey };

  it('6 enrollment device check: reEnrollmentToken + apSessionId answer the device-security result, then addFace', async () => {
    const credentials = await portal('initech');
    const enroll = await specCall(`${base}/onboarding/enrollment/enroll`, credentials, {
      username: 'ic-dave',
      email: 'dave@example.com',
      phoneNumber: '+15550102',
    });
    const enrollmentToken = String((enroll.body as { enrollmentToken: unknown }).enrollmentToken);
    const device = specDeviceKey();
    await specCall(`${base}/onboarding/enrollment/adddevice`, credentials, {
      enrollmentToken,
      deviceId: 'ic-phone-dave',
      devicePublicKey: device.publicKeyPem,
    });
    const apSessionId = await collect(credentials, 'ic-visitor-dave');
    const checked = await specCall(`${base}/onboarding/enrollment/deviceProfile/checkDevice`, credentials, {
      reEnrollmentToken: enrollmentToken,
      apSessionId,
    });
    const detail = deviceSecurityResult(checked, 'enrollmentStatus', apSessionId);
    assert.equal(detail.policyDecision, 'approve', JSON.stringify(detail));
    assert.equal((checked.body as { enrollmentStatus: number }).enrollmentStatus, 1, 'the enrollment goes on');
    assert.equal(detail.mbun, 'ic-dave');
    const assertions = detail.assertions as Record<string, string>;
    assert.equal(assertions['test.apSessionIDNotReplay'], 'pass');
    assert.equal(assertions['detect.browserAnomaly'], 'pass');
    // 127.0.0.1 is never located: no assertion is made up from a place the data cannot give.
    assert.equal(assertions['link.timeZone_TrueGeo'], undefined);
    assert.equal(assertions['detect.knownVPNISP'], undefined);
    // The apSessionId is single use: a second check with it is a replay.
    const replay = deviceSecurityResult(
      await specCall(`${base}/onboarding/enrollment/deviceProfile/checkDevice`, credentials, {
        reEnrollmentToken: enrollmentToken,
        apSessionId,
      }),
      'enrollmentStatus',
      apSessionId,
    );
    assert.equal((replay.assertions as Record<string, string>)['test.apSessionIDNotReplay'], 'fail');
    assert.equal(replay.policyDecision, 'reject');
    // Rejected: the enrollment failed (enrollmentStatus 0 was answered, later calls 409).
    refusal(
      await specCall(`${base}/onboarding/enrollment/addFace`, credentials, {
        enrollmentToken,
        faceLivenessData: facePackage(frames.anna ?? [], publicKeyPem, 'ic-dave'),
      }),
      409,
    );
    // A fresh enrollment with a fresh apSessionId goes through to the face.
    const again = await specCall(`${base}/onboarding/enrollment/enroll`, credentials, {
      username: 'ic-dave',
      email: 'dave@example.com',
      phoneNumber: '+15550102',
    });
    const token = String((again.body as { enrollmentToken: unknown }).enrollmentToken);
    await specCall(`${base}/onboarding/enrollment/adddevice`, credentials, {
      enrollmentToken: token,
      deviceId: 'ic-phone-dave',
      devicePublicKey: device.publicKeyPem,
    });
    const fresh = await collect(credentials, 'ic-visitor-dave');
    const approved = await specCall(`${base}/onboarding/enrollment/deviceProfile/checkDevice`, credentials, {
      reEnrollmentToken: token,
      apSessionId: fresh,
    });
    assert.equal(deviceSecurityResult(approved, 'enrollmentStatus', fresh).policyDecision, 'approve');
    const face = await specCall(`${base}/onboarding/enrollment/addFace`, credentials, {
      enrollmentToken: token,
      faceLivenessData: facePackage(frames.anna ?? [], publicKeyPem, 'ic-dave'),
    });
    assert.equal((face.body as { enrollmentStatus: number }).enrollmentStatus, 2, face.text);
    secured = {
      registrationCode: String((face.body as { registrationCode: unknown }).registrationCode),
      deviceId: 'ic-phone-dave',
      device,
    };
  });

  it('13 authentication device check: requiredChecks verifyDevice + deviceSecurity, approve gives authStatus 2', async () => {
    const credentials = await portal('initech');
    const started = specBody(
      await specCall(`${base}/onboarding/authentication/authenticate`, credentials, {
        registrationCode: secured.registrationCode,
        deviceId: secured.deviceId,
      }),
      { authToken: 'string', requiredChecks: 'array' },
    );
    assert.deepEqual(started.requiredChecks, ['verifyDevice', 'deviceSecurity']);
    const authToken = String(started.authToken);
    const apSessionId = await collect(credentials, 'ic-visitor-dave');
    // Before verifyDevice the device check is out of order.
    refusal(
      await specCall(`${base}/onboarding/authentication/deviceProfile/checkDevice`, credentials, {
        authToken,
        apSessionId,
      }),
      409,
    );
    await specCall(`${base}/onboarding/authentication/verifyDevice`, credentials, {
      authToken,
      signature: secured.device.signAuthToken(authToken),
      deviceId: secured.deviceId,
    });
    refusal(
      await specCall(`${base}/onboarding/authentication/deviceProfile/checkDevice`, credentials, {
        authToken,
        apSessionId: 'never-issued',
      }),
      404,
    );
    const fresh = await collect(credentials, 'ic-visitor-dave');
    const answer = await specCall(`${base}/onboarding/authentication/deviceProfile/checkDevice`, credentials, {
      authToken,
      apSessionId: fresh,
    });
    const detail = deviceSecurityResult(answer, 'authStatus', fresh);
    assert.equal(detail.policyDecision, 'approve', JSON.stringify(detail));
    assert.equal((answer.body as { authStatus: number }).authStatus, 2);
    // The device enrolled through an approved check is trusted for this user now.
    assert.equal((detail.assertions as Record<string, string>)['test.trustedDevice'], 'pass');
    // Completed: the authToken takes no further check.
    refusal(
      await specCall(`${base}/onboarding/authentication/deviceProfile/checkDevice`, credentials, {
        authToken,
        apSessionId: await collect(credentials, 'ic-visitor-dave'),
      }),
      409,
    );
  });

  it('13 through a QR authentication session: the phone posts its signals and runs the device check', async () => {
    const trigger = await specCall(`${base}/b2c/proxy/triggerAuthenticate`, await portal('initech'), {
      username: 'ic-dave',
    });
    const qr = decodeQrData(String((trigger.body as { sessionCallbackURL: unknown }).sessionCallbackURL), publicKeyPem);
    const session = await validate(qr);
    const phone: SpecCredentials = { bearer: String(session.accessToken), apikey: qr.apikey };
    const started = await specCall(`${qr.host}/authenticate`, phone, {
      registrationCode: secured.registrationCode,
      deviceId: secured.deviceId,
    });
    assert.deepEqual((started.body as { requiredChecks: unknown }).requiredChecks, ['verifyDevice', 'deviceSecurity']);
    const authToken = String((started.body as { authToken: unknown }).authToken);
    await specCall(`${qr.host}/verifyDevice`, phone, {
      authToken,
      signature: secured.device.signAuthToken(authToken),
      deviceId: secured.deviceId,
    });
    const apSessionId = await collect(phone, 'ic-visitor-dave');
    const answer = await specCall(`${qr.host}/onboarding/authentication/deviceProfile/checkDevice`, phone, {
      authToken,
      apSessionId,
    });
    // Dave's fifth device check on this device today (two enrollment checks, the replay, the authentication):
    // test.gte5CredentialDevice1d fails, whose default action is review: the face is the obligation.
    const detail = deviceSecurityResult(answer, 'authStatus', apSessionId);
    assert.equal(detail.policyDecision, 'review', JSON.stringify(detail));
    assert.equal((detail.assertions as Record<string, string>)['test.gte5CredentialDevice1d'], 'fail');
    assert.equal(detail.policyObligation, true);
    assert.equal(detail.errorCode, 'POLICY_REVIEW');
    assert.equal((answer.body as { errorCode: unknown }).errorCode, 'POLICY_REVIEW');
    assert.match(String((answer.body as { errorMsg: unknown }).errorMsg), /test\.gte5CredentialDevice1d/);
    assert.equal((answer.body as { authStatus: number }).authStatus, 1);
    const face = await specCall(`${qr.host}/verifyFace`, phone, {
      authToken,
      faceLivenessData: facePackage(frames.annaLater ?? [], publicKeyPem, 'ic-dave'),
    });
    assert.equal((face.body as { authStatus: number }).authStatus, 2, face.text);
  });

  describe('attacks on the QR hand-over', () => {
    it('a replayed session token: 409 for another phone; the first phone keeps its match code (retry allowance)', async () => {
      const trigger = await triggerEnroll('ic-qr-erin');
      const qr = decodeQrData(String(trigger.sessionCallbackURL), publicKeyPem);
      const first = await validate(qr, 'phone-a');
      const replay = await specCall(
        `${qr.host}/tokenVerify/validateSession`,
        { apikey: qr.apikey, userAgent: 'phone-b' },
        {
          sessionToken: qr.sessionToken,
        },
      );
      assert.match(refusal(replay, 409), /already/);
      // The documented retry allowance: the same phone, before any call with the access token.
      const retry = await validate(qr, 'phone-a');
      assert.equal(retry.matchCode, first.matchCode);
      assert.notEqual(retry.accessToken, first.accessToken);
      // The previous access token died with the retry.
      refusal(await specCall(`${qr.host}/getPublicKey`, { bearer: String(first.accessToken), apikey: qr.apikey }), 401);
      // Once the session's token was used, even the same phone is refused.
      await specCall(`${qr.host}/getPublicKey`, { bearer: String(retry.accessToken), apikey: qr.apikey });
      refusal(
        await specCall(
          `${qr.host}/tokenVerify/validateSession`,
          { apikey: qr.apikey, userAgent: 'phone-a' },
          {
            sessionToken: qr.sessionToken,
          },
        ),
        409,
      );
    });

    it("a hijacked session shows the hijacker's match code on the portal, and the user's phone is refused", async () => {
      const credentials = await portal('acme');
      const trigger = await triggerEnroll('ic-qr-fay', credentials);
      const qr = decodeQrData(String(trigger.sessionCallbackURL), publicKeyPem);
      // Someone who photographed the QR code validates first.
      const hijacker = await validate(qr, 'attacker-phone');
      assert.match(String(hijacker.matchCode), /^\d{6}$/);
      const victim = await specCall(
        `${qr.host}/tokenVerify/validateSession`,
        { apikey: qr.apikey, userAgent: 'fay-phone' },
        {
          sessionToken: qr.sessionToken,
        },
      );
      refusal(victim, 409);
      // The portal's code is the hijacker's: the user's phone shows none, so the operator sees the mismatch.
      const status = specBody(
        await specCall(`${base}/b2c/proxy/sessionStatus`, credentials, { sessionToken: trigger.sessionToken }),
        {
          status: 'string',
          methodType: 'string',
          userName: 'string',
          state: 'string',
          matchCode: 'string|null',
          expiresAt: 'string',
          errorSummary: 'null',
        },
      );
      assert.equal(status.state, 'scanned');
      assert.equal(status.matchCode, hijacker.matchCode);
    });

    it('an expired session token (410) and an expired access token (401)', async () => {
      const shortLived = await testApp(
        { VERIPORT_AUTH: 'required', VERIPORT_SESSION_TTL_SECONDS: '1' },
        { store, services: [onboardingService] },
      );
      try {
        const host = await listen(shortLived);
        const c = customer.acme;
        const token = await specToken(host, 'acme', c.clientId, c.clientSecret);
        const credentials = {
          bearer: String((token.body as { access_token: unknown }).access_token),
          apikey: c.apiKey,
        };
        const call = (username: string) =>
          specCall(`${host}/b2c/proxy/triggerEnroll`, credentials, { username, email: `${username}@example.com` });
        const stale = decodeQrData(
          String(((await call('ic-qr-gus')).body as Record<string, unknown>).sessionCallbackURL),
          publicKeyPem,
        );
        const live = decodeQrData(
          String(((await call('ic-qr-hal')).body as Record<string, unknown>).sessionCallbackURL),
          publicKeyPem,
        );
        const session = await validate(live);
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        refusal(
          await specCall(
            `${stale.host}/tokenVerify/validateSession`,
            { apikey: stale.apikey },
            {
              sessionToken: stale.sessionToken,
            },
          ),
          410,
        );
        refusal(
          await specCall(
            `${live.host}/onboarding/enrollment/enroll`,
            { bearer: String(session.accessToken), apikey: live.apikey },
            {
              username: 'ic-qr-hal',
              email: 'ic-qr-hal@example.com',
              phoneNumber: '+15550103',
            },
          ),
          401,
        );
      } finally {
        await shortLived.close();
      }
    });

    it("a session's token for another user: enroll of another username, another user's registration code (403)", async () => {
      const enrollQr = decodeQrData(String((await triggerEnroll('ic-qr-ida')).sessionCallbackURL), publicKeyPem);
      const session = await validate(enrollQr);
      const phone = { bearer: String(session.accessToken), apikey: enrollQr.apikey };
      refusal(
        await specCall(`${base}/onboarding/enrollment/enroll`, phone, {
          username: 'ic-qr-mallory',
          email: 'mallory@example.com',
          phoneNumber: '+15550104',
        }),
        403,
      );
      // An authentication session of carol presenting alice's registration code.
      const trigger = await specCall(`${base}/b2c/proxy/triggerAuthenticate`, await portal('acme'), {
        username: 'ic-qr-carol',
      });
      const qr = decodeQrData(
        String((trigger.body as { sessionCallbackURL: unknown }).sessionCallbackURL),
        publicKeyPem,
      );
      const auth = await validate(qr);
      refusal(
        await specCall(
          `${base}/authenticate`,
          { bearer: String(auth.accessToken), apikey: qr.apikey },
          {
            registrationCode: direct.registrationCode,
            deviceId: direct.deviceId,
          },
        ),
        403,
      );
      // A session token presented with another session's key.
      const other = decodeQrData(String((await triggerEnroll('ic-qr-jo')).sessionCallbackURL), publicKeyPem);
      const crossed = decodeQrData(String((await triggerEnroll('ic-qr-kim')).sessionCallbackURL), publicKeyPem);
      refusal(
        await specCall(
          `${base}/tokenVerify/validateSession`,
          { apikey: crossed.apikey },
          { sessionToken: other.sessionToken },
        ),
        403,
      );
    });

    it("keeps the QR link's credentials and the phone's address out of the access log", async () => {
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      const logged = await testApp(
        { VERIPORT_AUTH: 'required', LOG_LEVEL: 'info' },
        { store, services: [onboardingService], logger: { level: 'info', stream } },
      );
      try {
        const trigger = await triggerEnroll('ic-qr-logged');
        const data = new URL(String(trigger.sessionCallbackURL)).searchParams.get('data') ?? '';
        const qr = decodeQrData(String(trigger.sessionCallbackURL), publicKeyPem);
        // The phone's browser opens the link (GET /capture?data=...), then validates, from a public address.
        const phone = '81.2.69.142';
        await logged.inject({ method: 'GET', url: `/capture?data=${data}`, remoteAddress: phone });
        const validated = await logged.inject({
          method: 'POST',
          url: '/tokenVerify/validateSession',
          headers: { apikey: qr.apikey },
          payload: { sessionToken: qr.sessionToken },
          remoteAddress: phone,
        });
        assert.equal(validated.statusCode, 200, validated.body);
        const log = lines.join('');
        assert.match(log, /"url":"\/capture\?data="/, 'the request is logged, without the query value');
        assert.match(log, /"remoteNetwork":"81\.2\.69\.0\/24"/, 'with the network it came from');
        for (const secret of [data, qr.apikey, qr.sessionToken, phone])
          assert.ok(!log.includes(secret), `the log holds ${secret.slice(0, 16)}`);
      } finally {
        await logged.close();
      }
    });

    it("caps a session's live guidance (face liveness /analyze, an extension): 429 after VERIPORT_SESSION_GUIDANCE_MAX", async () => {
      const capped = await testApp(
        { VERIPORT_AUTH: 'required', VERIPORT_SESSION_GUIDANCE_MAX: '2' },
        { store, services: [onboardingService, faceLivenessService], faceEngine: testFaceEngine() },
      );
      try {
        const host = await listen(capped);
        const c = customer.acme;
        const token = await specToken(host, 'acme', c.clientId, c.clientSecret);
        const credentials = {
          bearer: String((token.body as { access_token: unknown }).access_token),
          apikey: c.apiKey,
        };
        const phoneAtFaceStep = async (username: string): Promise<SpecCredentials> => {
          const trigger = await specCall(`${host}/b2c/proxy/triggerEnroll`, credentials, {
            username,
            email: `${username}@example.com`,
          });
          const qr = decodeQrData(String((trigger.body as Record<string, unknown>).sessionCallbackURL), publicKeyPem);
          const session = await validate(qr);
          const phone = { bearer: String(session.accessToken), apikey: qr.apikey };
          const enroll = await specCall(`${host}/onboarding/enrollment/enroll`, phone, {
            username,
            email: `${username}@example.com`,
            phoneNumber: '+15550105',
          });
          await specCall(`${host}/onboarding/enrollment/adddevice`, phone, {
            enrollmentToken: (enroll.body as { enrollmentToken: unknown }).enrollmentToken,
            deviceId: `ic-phone-${username}`,
            devicePublicKey: specDeviceKey().publicKeyPem,
          });
          return phone;
        };
        const preview = {
          video: {
            workflow_data: {
              workflow: 'hotel2',
              frames: [{ data: (frames.anna?.[0]?.image ?? Buffer.alloc(0)).toString('base64'), timestamp: 1000 }],
            },
          },
        };
        const phone = await phoneAtFaceStep('ic-qr-guided');
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++)
          statuses.push((await specCall(`${host}/face-liveness/analyze`, phone, preview)).status);
        assert.deepEqual(statuses, [200, 200, 429, 429]);
        const refused = await specCall(`${host}/face-liveness/analyze`, phone, preview);
        assert.match(refusal(refused, 429), /2 live-guidance frames are used up/);
        // The refusal is in the audit log once, not once per frame.
        const events = await onboardingEventsRepository(store.db).list('acme', 'ic-qr-guided');
        assert.equal(events.filter((e) => e.event === 'session /face-liveness/analyze').length, 1);
        // The session goes on (the capture does not need guidance), and another session has its own frames.
        assert.equal((await specCall(`${host}/getPublicKey`, phone)).status, 200);
        const other = await phoneAtFaceStep('ic-qr-guided-2');
        assert.equal((await specCall(`${host}/face-liveness/analyze`, other, preview)).status, 200);
      } finally {
        await capped.close();
      }
    });

    it("the QR-scoped apikey outside its session: other routes, the triggers, a biometric service, the customer's token (401)", async () => {
      const credentials = await portal('acme');
      const qr = decodeQrData(String((await triggerEnroll('ic-qr-lee', credentials)).sessionCallbackURL), publicKeyPem);
      const session = await validate(qr);
      const phone = { bearer: String(session.accessToken), apikey: qr.apikey };
      const triggered = await specCall(`${base}/b2c/proxy/triggerEnroll`, phone, {
        username: 'ic-qr-other',
        email: 'other@example.com',
      });
      assert.equal(triggered.status, 401);
      assert.equal((triggered.body as { status: unknown }).status, 'FAILURE');
      refusal(await specCall(`${base}/b2c/proxy/sessionStatus`, phone, { sessionToken: qr.sessionToken }), 401);
      refusal(await specCall(`${base}/transaction-report/fullReport`, { apikey: qr.apikey }), 401);
      refusal(await specCall(`${base}/transaction-report/fullReport`, { bearer: phone.bearer }), 401);
      // The key with the customer's own token, and the session's token with the customer's key.
      refusal(await specCall(`${base}/getPublicKey`, { bearer: credentials.bearer, apikey: qr.apikey }), 401);
      refusal(await specCall(`${base}/getPublicKey`, { bearer: phone.bearer, apikey: customer.acme.apiKey }), 401);
      // An enrollment session does not authenticate (another method: 403).
      refusal(
        await specCall(`${base}/authenticate`, phone, {
          registrationCode: direct.registrationCode,
          deviceId: direct.deviceId,
        }),
        403,
      );
    });
  });
});

/** A stand-in answer so that nested objects are checked with {@link specBody} like whole bodies. */
const SYNTHETIC_OK = { status: 200, contentType: 'application/json', retryAfter: null } as const;
