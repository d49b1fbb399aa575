import { generateKeyPairSync } from 'node:crypto';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServerKeyPair } from '../../src/crypto/server-key-pair.js';
import { buildApp, type AppOptions } from '../../src/server/app.js';
import { loadConfig } from '../../src/server/config.js';

let sharedKeys: ServerKeyPair | undefined;

/** One RSA-2048 pair per test process: generating the production 3072-bit key per app is slow. */
export function testServerKeys(): ServerKeyPair {
  if (sharedKeys === undefined) {
    const { publicKey, privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { type: 'spki', format: 'pem' },
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
    });
    sharedKeys = {
      keyId: 'test',
      publicKeyPem: publicKey,
      publicKey: createPublicKey(publicKey),
      privateKey: createPrivateKey(privateKey),
    };
  }
  return sharedKeys;
}

/**
 * An app on a throw-away in-memory PGlite store, silent, with the test key pair.
 * `env` adds or overrides configuration variables.
 */
export async function testApp(
  env: Record<string, string> = {},
  options: Partial<Omit<AppOptions, 'config'>> = {},
): Promise<FastifyInstance> {
  return buildApp({
    config: loadConfig({ VERIPORT_DATA_DIR: 'memory://', LOG_LEVEL: 'silent', ...env }),
    serverKeys: testServerKeys(),
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
  const response = await app.inject({
    method: 'POST',
    url: `/auth/realms/${customer}-consumers/protocol/openid-connect/token`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      grant_type: 'client_credentials',
      scope: 'openid',
    }).toString(),
  });
  const token: unknown = response.json<{ access_token?: unknown }>().access_token;
  if (response.statusCode !== 200 || typeof token !== 'string') throw new Error(`no access token: ${response.body}`);
  return token;
}
