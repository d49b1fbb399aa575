/**
 * An onboarding client written from the spec (Doc 1) and the project's documentation of what Doc 1 leaves
 * open (docs/onboarding.md, docs/decisions.md "Envelope and keys"), for the independent-client test. It
 * imports nothing from src/: it speaks HTTP with `fetch` and does its cryptography with `node:crypto`, as a
 * third party's phone app or portal would. Its calls return the answer as it comes (status, headers, body),
 * so the test can hold every field against the spec text.
 */
import {
  constants,
  createCipheriv,
  generateKeyPairSync,
  publicDecrypt,
  publicEncrypt,
  randomBytes,
  sign,
  type KeyObject,
} from 'node:crypto';

/** An HTTP answer: status, the headers the test reads, the body as text and parsed when JSON. */
export interface SpecAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly retryAfter: string | null;
  readonly text: string;
  /** The parsed body when it is JSON; undefined otherwise. */
  readonly body: unknown;
}

/** The credentials a call carries (Doc 1, "Authentication"): bearer token and API key, either may be absent. */
export interface SpecCredentials {
  readonly bearer?: string | undefined;
  readonly apikey?: string | undefined;
  /** The phone's User-Agent (the server tells phones apart by it for the validateSession retry allowance). */
  readonly userAgent?: string | undefined;
}

/**
 * A call to `url`: a GET without `body`, else a POST of `body` as JSON with Doc 1's
 * `application/json; charset=UTF-8` (or the form-encoded string given with its content type).
 *
 * @example
 * const answer = await specCall(`${host}/tokenVerify/validateSession`, { apikey }, { sessionToken });
 */
export async function specCall(
  url: string,
  credentials: SpecCredentials = {},
  body?: unknown,
  contentType = 'application/json; charset=UTF-8',
): Promise<SpecAnswer> {
  const headers: Record<string, string> = {};
  if (credentials.bearer !== undefined) headers.authorization = `Bearer ${credentials.bearer}`;
  if (credentials.apikey !== undefined) headers.apikey = credentials.apikey;
  if (credentials.userAgent !== undefined) headers['user-agent'] = credentials.userAgent;
  const init: RequestInit =
    body === undefined
      ? { method: 'GET', headers }
      : {
          method: 'POST',
          headers: { ...headers, 'content-type': contentType },
          body: typeof body === 'string' ? body : JSON.stringify(body),
        };
  const response = await fetch(url, init);
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let parsed: unknown;
  if (type.includes('json')) parsed = JSON.parse(text);
  return {
    status: response.status,
    contentType: type,
    retryAfter: response.headers.get('retry-after'),
    text,
    body: parsed,
  };
}

/**
 * Doc 1 endpoint 1: the client-credentials token, form-encoded (the only form-encoded call).
 *
 * @example
 * const token = await specToken(base, 'acme', clientId, clientSecret); // token.body.access_token
 */
export function specToken(base: string, customer: string, clientId: string, clientSecret: string): Promise<SpecAnswer> {
  const form = new URLSearchParams({
    client_id: clientId,
    client_secret: clientSecret,
    scope: 'openid',
    grant_type: 'client_credentials',
  });
  return specCall(
    `${base}/auth/realms/${customer}-consumers/protocol/openid-connect/token`,
    {},
    form.toString(),
    'application/x-www-form-urlencoded',
  );
}

/** The three items of the decoded QR data (Doc 1, "Decoded QR data"), in the spec's order. */
export interface QrData {
  readonly host: string;
  readonly apikey: string;
  readonly sessionToken: string;
}

/**
 * Decodes a QR URL's `data` parameter with the onboarding public key: `crypto.publicDecrypt`, PKCS#1 v1.5
 * (docs/onboarding.md: one RSA block, base64url), then the three items separated by `&`.
 *
 * @example
 * const { host, apikey, sessionToken } = decodeQrData(trigger.sessionCallbackURL, publicKeyPem);
 * @throws {Error} when the URL has no `data`, it does not decrypt, or it does not hold three items
 */
export function decodeQrData(sessionCallbackURL: string, publicKeyPem: string): QrData {
  const data = new URL(sessionCallbackURL).searchParams.get('data');
  if (data === null || data === '') throw new Error('the session URL has no data parameter');
  const plain = publicDecrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING },
    Buffer.from(data, 'base64url'),
  ).toString('utf8');
  const items = plain.split('&');
  const [host, apikey, sessionToken] = items;
  if (items.length !== 3 || host === undefined || apikey === undefined || sessionToken === undefined)
    throw new Error(`the session data holds ${items.length} items, not 3`);
  return { host, apikey, sessionToken };
}

/**
 * One frame sealed as docs/decisions.md "Envelope and keys" says: a fresh AES-256-GCM key and 12-byte IV,
 * the additional data `veriport envelope v1 onboarding`, the ciphertext followed by its tag, the AES key
 * wrapped with RSA-OAEP-SHA-256 under the `GET /getPublicKey` key; `{key, iv, p}` in base64, sent as the
 * envelope's JSON text.
 *
 * @example
 * const data = sealFrame(jpeg, publicKeyPem);
 */
export function sealFrame(image: Buffer, publicKeyPem: string): string {
  const aesKey = randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', aesKey, iv);
  cipher.setAAD(Buffer.from('veriport envelope v1 onboarding', 'utf8'));
  const p = Buffer.concat([cipher.update(image), cipher.final(), cipher.getAuthTag()]);
  const key = publicEncrypt(
    { key: publicKeyPem, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
    aesKey,
  );
  return JSON.stringify({ key: key.toString('base64'), iv: iv.toString('base64'), p: p.toString('base64') });
}

/**
 * Doc 1's face data package `faceLivenessData`: `video` with `workflow_data` (`workflow`, `rotation`,
 * `frames` of sealed `data`, `tags`, `timestamp`), `meta_data` and `client_version`.
 *
 * @example
 * const faceLivenessData = facePackage(frames, publicKeyPem, 'alice');
 */
export function facePackage(
  frames: ReadonlyArray<{ readonly image: Buffer; readonly timestamp: number }>,
  publicKeyPem: string,
  username: string,
): object {
  return {
    video: {
      workflow_data: {
        workflow: 'hotel2',
        rotation: 0,
        frames: frames.map((frame) => ({
          data: sealFrame(frame.image, publicKeyPem),
          tags: [],
          timestamp: frame.timestamp,
        })),
      },
      meta_data: { client_device_brand: 'spec-client', username, client_version: '1.0.0' },
      client_version: '1.0.0',
    },
  };
}

/** A device key of the phone: P-256, its public half sent to adddevice, its signature sent to verifyDevice. */
export interface SpecDeviceKey {
  /** SPKI PEM, for adddevice's `devicePublicKey` (docs/onboarding.md, "Device key"). */
  readonly publicKeyPem: string;
  /** The signature of the `authToken` (its UTF-8 bytes), ECDSA-SHA256 DER in base64. */
  signAuthToken(authToken: string): string;
}

/**
 * A fresh P-256 device key made with `node:crypto`.
 *
 * @example
 * const device = specDeviceKey();
 * const signature = device.signAuthToken(authToken);
 * await specCall(`${base}/onboarding/authentication/verifyDevice`, creds, { authToken, signature, deviceId });
 */
export function specDeviceKey(): SpecDeviceKey {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const privateKeyObject: KeyObject = privateKey;
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    signAuthToken: (authToken) => sign('sha256', Buffer.from(authToken, 'utf8'), privateKeyObject).toString('base64'),
  };
}

/**
 * The device signals (wire format 1 of docs/onboarding.md, "Device security") of an ordinary Android phone
 * as a browser collector would post them: Chrome on a Pixel, a touch before the collection, its own
 * FingerprintJS `visitorId`.
 *
 * @example
 * const posted = await specCall(`${base}/onboarding/deviceProfile/signals`, creds, androidPhoneSignals('phone-1'));
 */
export function androidPhoneSignals(visitorId: string): object {
  return {
    version: 1,
    collectedAt: Date.now(),
    userAgent:
      'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Mobile Safari/537.36',
    clientHints: {
      brands: [
        { brand: 'Chromium', version: '142' },
        { brand: 'Google Chrome', version: '142' },
        { brand: 'Not_A Brand', version: '99' },
      ],
      mobile: true,
      platform: 'Android',
      platformVersion: '15.0.0',
      architecture: '',
      bitness: '',
      model: 'Pixel 8',
      fullVersionList: null,
    },
    platform: 'Linux armv81',
    vendor: 'Google Inc.',
    languages: ['en-GB', 'en'],
    timeZone: 'Europe/London',
    timeZoneOffset: 0,
    screen: { width: 412, height: 915, availWidth: 412, availHeight: 915, colorDepth: 24, pixelRatio: 2.625 },
    viewport: { innerWidth: 412, innerHeight: 789, outerWidth: 412, outerHeight: 789 },
    hardwareConcurrency: 8,
    deviceMemory: 8,
    maxTouchPoints: 5,
    pluginsLength: 0,
    webgl: { vendor: 'Qualcomm', renderer: 'Adreno (TM) 740' },
    webdriver: false,
    botd: { bot: false, botKind: null },
    automationTraces: [],
    interaction: {
      pointerMoves: 0,
      mouseDowns: 0,
      mouseDownsWithoutPath: 0,
      touchDowns: 3,
      keyDowns: 0,
      untrustedEvents: 0,
    },
    fingerprint: { visitorId, confidence: 0.6, version: '5.2.0' },
    geolocation: null,
  };
}
