import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import { AccessDeniedError } from '../../../../src/server/access/access-denied.js';
import { credentialCheck } from '../../../../src/server/access/credentials.js';
import { signingKeyCache } from '../../../../src/server/access/signing-key-cache.js';
import type { SigningKey, SigningKeysRepository } from '../../../../src/store/signing-keys.js';

const ORIGIN = 'http://localhost:80';
const pair = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  publicKeyEncoding: { type: 'spki', format: 'pem' },
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
});
const KEY: SigningKey = {
  kid: 'k1',
  publicKeyPem: pair.publicKey,
  privateKeyPem: pair.privateKey,
  createdAt: new Date(0),
  retiredAt: undefined,
};
const keys: SigningKeysRepository = {
  active: () => Promise.reject(new Error('a verifier never makes a key')),
  rotate: () => Promise.reject(new Error('not used')),
  published: () => Promise.resolve([KEY]),
};

const CUSTOMER_KEYS: Readonly<Record<string, string>> = {
  'acme-key': 'acme',
  'globex-key': 'globex',
  'gone-key': 'gone',
};
const ADMIN_KEY = 'veriport_admin_id.secret';

const check = credentialCheck({
  customers: {
    customerOfApiKey: (apiKey) => Promise.resolve(CUSTOMER_KEYS[apiKey]),
    find: (name) =>
      Promise.resolve(['acme', 'globex'].includes(name) ? { name, displayName: name, logo: '' } : undefined),
  },
  adminKeys: { keyIdOf: (apiKey) => Promise.resolve(apiKey === ADMIN_KEY ? 'id' : undefined) },
  tokenKeys: signingKeyCache(keys, 300),
  publicUrl: undefined,
});

const request = (headers: Record<string, string | string[]>) =>
  ({ headers, protocol: 'http', host: 'localhost:80' }) as unknown as FastifyRequest;

const tokenOf = (customer: string, issuer = `${ORIGIN}/auth/realms/${customer}-consumers`) =>
  new SignJWT({ customer })
    .setProtectedHeader({ alg: 'RS256', kid: KEY.kid })
    .setIssuer(issuer)
    .setAudience('veriport-onboarding')
    .setIssuedAt()
    .setExpirationTime('5m')
    .sign(createPrivateKey(KEY.privateKeyPem));

const denied = (headers: Record<string, string | string[]>, why: RegExp) =>
  assert.rejects(
    check(request(headers)),
    (error: unknown) =>
      error instanceof AccessDeniedError &&
      error.statusCode === 401 &&
      error.headers['www-authenticate'] === 'Bearer' &&
      why.test(error.description),
  );

describe('credential check of the biometric services', () => {
  it('takes a token alone, a key alone, or both of one customer', async () => {
    const bearer = `Bearer ${await tokenOf('acme')}`;
    const acme = { kind: 'customer', customer: 'acme' };
    assert.deepEqual(await check(request({ authorization: bearer })), acme);
    assert.deepEqual(await check(request({ apikey: 'acme-key' })), acme);
    assert.deepEqual(await check(request({ authorization: bearer, apikey: 'acme-key' })), acme);
  });

  it('refuses a token and a key of two customers, and a token of a customer that is gone', async () => {
    await denied({ authorization: `Bearer ${await tokenOf('acme')}`, apikey: 'globex-key' }, /different customers/);
    await denied({ authorization: `Bearer ${await tokenOf('gone')}` }, /no longer exists/);
  });

  it('refuses missing, malformed and unknown credentials', async () => {
    await denied({}, /missing credentials/);
    await denied({ authorization: 'Basic YTpi' }, /not a bearer token/);
    await denied({ apikey: ['acme-key', 'acme-key'] }, /one key/);
    await denied({ apikey: '' }, /one key/);
    await denied({ apikey: 'nobody-key' }, /unknown or revoked api key/);
    await denied({ authorization: 'Bearer x.y.z' }, /invalid bearer token/);
    await denied(
      { authorization: `Bearer ${await tokenOf('acme', `${ORIGIN}/auth/realms/globex-consumers`)}` },
      /another realm/,
    );
  });

  it('takes the admin key alone as the operator, never with a bearer token', async () => {
    assert.deepEqual(await check(request({ apikey: ADMIN_KEY })), { kind: 'admin', keyId: 'id' });
    await denied({ apikey: 'veriport_admin_id.wrong' }, /unknown or revoked admin key/);
    await denied({ apikey: ADMIN_KEY, authorization: `Bearer ${await tokenOf('acme')}` }, /admin key is sent alone/);
  });
});
