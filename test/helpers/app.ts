import { generateKeyPairSync } from 'node:crypto';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { encryptEnvelope, type Envelope } from '../../src/client/envelope.js';
import { ENVELOPE_PURPOSES, type EnvelopePurpose } from '../../src/lib/envelope-purpose.js';
import type { EnvelopeKeyRing } from '../../src/crypto/envelope-key-ring.js';
import type { ServerKeyPair } from '../../src/crypto/server-key-pair.js';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';

const sharedKeys = new Map<EnvelopePurpose, ServerKeyPair>();

const TEST_RING: EnvelopeKeyRing = {
  purposes: ENVELOPE_PURPOSES,
  key(purpose) {
    let pair = sharedKeys.get(purpose);
    if (pair === undefined) {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', {
        modulusLength: 2048,
        publicKeyEncoding: { type: 'spki', format: 'pem' },
        privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      });
      pair = {
        purpose,
        keyId: `test-${purpose}`,
        publicKeyPem: publicKey,
        publicKey: createPublicKey(publicKey),
        privateKey: createPrivateKey(privateKey),
      };
      sharedKeys.set(purpose, pair);
    }
    return pair;
  },
};

/**
 * The test key ring: one RSA-2048 pair per envelope purpose, each generated on its first use and shared by
 * the whole test process (generating the production 3072-bit keys per app is slow).
 *
 * @example
 * encryptEnvelope(json, testEnvelopeKeys().key('face-liveness').publicKey, 'face-liveness');
 */
export function testEnvelopeKeys(): EnvelopeKeyRing {
  return TEST_RING;
}

/**
 * `payload` sealed for `purpose` under the test ring's key of that purpose, as a client SDK would.
 *
 * @example
 * await app.inject({ method: 'POST', url: '/face-liveness/decrypt', payload: testSeal('{"a":1}', 'face-liveness') });
 */
export function testSeal(payload: string | Uint8Array, purpose: EnvelopePurpose): Envelope {
  return encryptEnvelope(payload, TEST_RING.key(purpose).publicKey, purpose);
}

/**
 * An app on a throw-away in-memory PGlite store, silent, with the test key ring.
 * `env` adds or overrides configuration variables.
 *
 * Liveness decides with the hand-made PAD classifier here (`VERIPORT_PAD_MODEL=handmade`): the synthetic live
 * frames (faces.ts: a portrait pasted on a flat grey canvas) are, to the default ONNX model, what they are, a
 * photo held up in front of a wall, and it refuses them. The ONNX default is tested through HTTP on frames cut
 * from whole photos (test/integration/pad-model.test.ts, and the replayed-still and camera sequences of
 * test/integration/liveness-replay.test.ts); pass `VERIPORT_PAD_MODEL: 'onnx'` to use it. An app's own face engine
 * computes what its PAD model needs; the shared `testFaceEngine()` runs the ONNX model and computes the hand-made
 * features, so it serves apps of either model.
 *
 * The engines start cold, as buildApp's default: a test pays for loading models only when it sends the first
 * request that needs them. `options.warmEngines: true` warms them at build, as `veriport serve` does.
 */
export async function testApp(
  env: Record<string, string> = {},
  options: Partial<Omit<AppOptions, 'config'>> = {},
): Promise<FastifyInstance> {
  return buildApp({
    config: loadConfig({ VERIPORT_DATA_DIR: 'memory://', LOG_LEVEL: 'silent', VERIPORT_PAD_MODEL: 'handmade', ...env }),
    envelopeKeys: testEnvelopeKeys(),
    logger: false,
    ...options,
  });
}

/** The current UTC year and month, as the usage counters record them. */
export function currentPeriod(): { year: number; month: number } {
  const now = new Date();
  return { year: now.getUTCFullYear(), month: now.getUTCMonth() + 1 };
}

/** Parses the report CSV into rows keyed by column name. */
export function parseCsv(csv: string): Array<Record<string, string>> {
  const [header, ...lines] = csv.trimEnd().split('\r\n');
  const columns = (header ?? '').split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, i) => [columns[i] ?? '', value])));
}

/**
 * A client-credentials token request (Doc 1 endpoint 1) of a customer's OIDC client, from `remoteAddress`
 * (the throttles count per source address); the answer as it comes, refusals included.
 *
 * @example
 * const response = await tokenRequest(app, 'acme', { clientId, clientSecret: 'wrong' }, '10.0.0.1'); // 401
 */
export function tokenRequest(
  app: FastifyInstance,
  customer: string,
  client: { readonly clientId: string; readonly clientSecret: string },
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: `/auth/realms/${customer}-consumers/protocol/openid-connect/token`,
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      grant_type: 'client_credentials',
      scope: 'openid',
    }).toString(),
  });
}

/**
 * An onboarding access token (Doc 1 endpoint 1, client credentials) of a customer's OIDC client.
 *
 * @example
 * const bearer = await accessToken(app, 'acme', await customers.createClient('acme'));
 */
export async function accessToken(
  app: FastifyInstance,
  customer: string,
  client: { readonly clientId: string; readonly clientSecret: string },
): Promise<string> {
  const response = await tokenRequest(app, customer, client);
  const token: unknown = response.json<{ access_token?: unknown }>().access_token;
  if (response.statusCode !== 200 || typeof token !== 'string') throw new Error(`no access token: ${response.body}`);
  return token;
}
