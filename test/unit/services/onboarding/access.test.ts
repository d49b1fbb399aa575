import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { SignJWT } from 'jose';
import { AccessDeniedError } from '../../../../src/server/access/access-denied.js';
import { accessVerifier } from '../../../../src/services/onboarding/access.js';
import { tokenSigner } from '../../../../src/services/onboarding/token-signer.js';
import type { Customer, CustomersRepository } from '../../../../src/store/customers.js';
import type { SigningKey, SigningKeysRepository } from '../../../../src/store/signing-keys.js';

const ORIGIN = 'http://localhost:80';
const issuerOf = (customer: string) => `${ORIGIN}/auth/realms/${customer}-consumers`;

// One RSA key for the file: the signer and the hand-made tokens below share it.
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
  active: () => Promise.resolve(KEY),
  rotate: () => Promise.reject(new Error('not used')),
  published: () => Promise.resolve([KEY]),
};

/** The two calls the access check makes, over a fixed table of customers and API keys. */
function customersWith(apiKeys: Record<string, string>, names: readonly string[]): CustomersRepository {
  const notUsed = () => Promise.reject(new Error('not used'));
  const find = (name: string) =>
    Promise.resolve(names.includes(name) ? ({ name, displayName: name, logo: '' } satisfies Customer) : undefined);
  return {
    create: notUsed,
    find,
    list: notUsed,
    count: notUsed,
    createClient: notUsed,
    rotateClient: notUsed,
    revokeClient: notUsed,
    listClients: notUsed,
    authenticateClient: notUsed,
    createApiKey: notUsed,
    revokeApiKey: notUsed,
    listApiKeys: notUsed,
    customerOfApiKey: (apiKey) => Promise.resolve(apiKeys[apiKey]),
  };
}

const request = (headers: Record<string, string>) =>
  ({ headers, protocol: 'http', host: 'localhost:80' }) as unknown as FastifyRequest;

describe('onboarding access check', () => {
  const signer = tokenSigner(keys, 300);
  const verify = accessVerifier({
    customers: customersWith({ 'acme-key': 'acme', 'globex-key': 'globex', 'gone-key': 'gone' }, ['acme', 'globex']),
    signer,
    publicUrl: undefined,
  });
  const tokenOf = async (customer: string) =>
    (await signer.issue({ issuer: issuerOf(customer), customer, clientId: `${customer}-app` })).access_token;
  /** A token signed with the published key, with the claims given (a token of another shape). */
  const handMade = (claims: Record<string, unknown>, issuer: string) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: KEY.kid })
      .setIssuer(issuer)
      .setAudience('veriport-onboarding')
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(createPrivateKey(KEY.privateKeyPem));
  const denied = async (headers: Record<string, string>, why: RegExp) =>
    assert.rejects(
      verify(request(headers)),
      (error: unknown) => error instanceof AccessDeniedError && error.statusCode === 401 && why.test(error.description),
    );

  it('accepts the token and API key of one customer and answers that customer', async () => {
    const customer = await verify(request({ authorization: `Bearer ${await tokenOf('acme')}`, apikey: 'acme-key' }));
    assert.equal(customer.name, 'acme');
  });

  it("refuses another customer's API key, an unknown key, and a customer that is gone", async () => {
    const acme = `Bearer ${await tokenOf('acme')}`;
    await denied({ authorization: acme, apikey: 'globex-key' }, /different customers/);
    await denied({ authorization: acme, apikey: 'nobody-key' }, /unknown or revoked/);
    await denied({ authorization: `Bearer ${await tokenOf('gone')}`, apikey: 'gone-key' }, /no longer exists/);
  });

  it('refuses a token that names no customer: none, an empty one, or the pre-rename `realm` claim', async () => {
    for (const claims of [{}, { customer: '' }, { customer: 42 }, { realm: 'acme' }]) {
      const token = await handMade(claims, issuerOf('acme'));
      await denied({ authorization: `Bearer ${token}`, apikey: 'acme-key' }, /names no customer/);
    }
  });

  it("refuses a token whose issuer is not the named customer's realm on this server", async () => {
    const token = await handMade({ customer: 'acme' }, issuerOf('globex'));
    await denied({ authorization: `Bearer ${token}`, apikey: 'acme-key' }, /another realm or server/);
  });
});
