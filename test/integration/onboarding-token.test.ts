import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  generateKeyPair,
  jwtVerify,
  SignJWT,
  type JSONWebKeySet,
} from 'jose';
import { AccessDeniedError } from '../../src/server/access/access-denied.js';
import {
  KEY_CACHE_SECONDS,
  KEY_RELOAD_COOLDOWN_SECONDS,
  retiredKeyRetentionSeconds,
} from '../../src/server/access/signing-key-cache.js';
import { accessVerifier } from '../../src/services/onboarding/access.js';
import { tokenSigner } from '../../src/services/onboarding/token-signer.js';
import { openStore, type Store } from '../../src/store/database.js';
import { customersRepository, type IssuedApiKey, type IssuedClient } from '../../src/store/customers.js';
import { signingKeysRepository, type SigningKeysRepository } from '../../src/store/signing-keys.js';
import { onboardingService } from '../../src/services/onboarding/index.js';
import { testApp } from '../helpers/app.js';

const ORIGIN = 'http://localhost:80';
const tokenPath = (customer: string) => `/auth/realms/${customer}-consumers/protocol/openid-connect/token`;
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('onboarding token endpoint', () => {
  let store: Store;
  let app: FastifyInstance;
  let acme: IssuedClient;
  let acmeKey: IssuedApiKey;
  let globex: IssuedClient;
  let globexKey: IssuedApiKey;

  before(async () => {
    store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
    const customers = customersRepository(store.db);
    await customers.create({ name: 'acme', displayName: 'ACME Corp' });
    await customers.create({ name: 'globex' });
    acme = await customers.createClient('acme', 'acme-app');
    acmeKey = await customers.createApiKey('acme');
    globex = await customers.createClient('globex');
    globexKey = await customers.createApiKey('globex');
    app = await testApp({}, { store, services: [onboardingService] });
  });
  after(async () => {
    await app.close();
    await store.close();
  });

  const requestToken = (customer: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url: tokenPath(customer), headers: { ...FORM, ...headers }, payload: form(fields) });
  const jwks = async (customer: string): Promise<JSONWebKeySet> => {
    const discovery = await app.inject({
      method: 'GET',
      url: `/auth/realms/${customer}-consumers/.well-known/openid-configuration`,
    });
    assert.equal(discovery.statusCode, 200);
    const jwksUri = new URL(discovery.json<{ jwks_uri: string }>().jwks_uri);
    const certs = await app.inject({ method: 'GET', url: jwksUri.pathname });
    assert.equal(certs.statusCode, 200);
    return certs.json<JSONWebKeySet>();
  };
  const verifier = () => {
    const ttl = 300;
    return accessVerifier({
      customers: customersRepository(store.db),
      signer: tokenSigner(signingKeysRepository(store.db), ttl),
      publicUrl: undefined,
    });
  };
  const fakeRequest = (headers: Record<string, string>) =>
    ({ headers, protocol: 'http', host: 'localhost:80' }) as unknown as FastifyRequest;

  it('issues the Doc 1 token response by form fields, verifiable with the JWKS', async () => {
    const response = await requestToken('acme', {
      client_id: acme.clientId,
      client_secret: acme.clientSecret,
      scope: 'openid',
      grant_type: 'client_credentials',
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers['cache-control'], 'no-store');
    const body = response.json<Record<string, unknown>>();
    assert.deepEqual(Object.keys(body).sort(), [
      'access_token',
      'expires_in',
      'id_token',
      'not-before-policy',
      'refresh_expires_in',
      'scope',
      'token_type',
    ]);
    assert.equal(body.expires_in, 300);
    assert.equal(body.refresh_expires_in, 0);
    assert.equal(body.token_type, 'Bearer');
    assert.equal(body['not-before-policy'], 0);
    assert.equal(body.scope, 'openid');
    const keySet = createLocalJWKSet(await jwks('acme'));
    const issuer = `${ORIGIN}/auth/realms/acme-consumers`;
    const { payload, protectedHeader } = await jwtVerify(String(body.access_token), keySet, {
      issuer,
      audience: 'veriport-onboarding',
      algorithms: ['RS256'],
    });
    assert.equal(protectedHeader.alg, 'RS256');
    assert.equal(typeof protectedHeader.kid, 'string');
    assert.equal(payload.sub, 'acme-app');
    assert.equal(payload.customer, 'acme');
    assert.equal(typeof payload.jti, 'string');
    assert.equal((payload.exp ?? 0) - (payload.iat ?? 0), 300);
    const id = await jwtVerify(String(body.id_token), keySet, { issuer, audience: 'acme-app' });
    assert.equal(id.payload.sub, 'acme-app');
  });

  it('accepts HTTP Basic client authentication and the configured lifetime', async () => {
    const short = await testApp({ VERIPORT_TOKEN_TTL_SECONDS: '60' }, { store, services: [onboardingService] });
    try {
      const basic = `Basic ${Buffer.from(`${acme.clientId}:${acme.clientSecret}`).toString('base64')}`;
      const response = await short.inject({
        method: 'POST',
        url: tokenPath('acme'),
        headers: { ...FORM, authorization: basic },
        payload: form({ grant_type: 'client_credentials', scope: 'openid' }),
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json<{ expires_in: number }>().expires_in, 60);
    } finally {
      await short.close();
    }
  });

  it('answers RFC 6749 errors', async () => {
    const good = {
      client_id: acme.clientId,
      client_secret: acme.clientSecret,
      scope: 'openid',
      grant_type: 'client_credentials',
    };
    const wrongSecret = await requestToken('acme', { ...good, client_secret: 'nope' });
    assert.equal(wrongSecret.statusCode, 401);
    assert.deepEqual(wrongSecret.json(), { error: 'invalid_client', error_description: 'invalid client credentials' });
    assert.equal(wrongSecret.headers['www-authenticate'], undefined);

    const basicWrong = await requestToken(
      'acme',
      { grant_type: 'client_credentials' },
      { authorization: `Basic ${Buffer.from(`${acme.clientId}:bad`).toString('base64')}` },
    );
    assert.equal(basicWrong.statusCode, 401);
    assert.equal(basicWrong.headers['www-authenticate'], 'Basic realm="acme-consumers"');

    const grant = await requestToken('acme', { ...good, grant_type: 'password' });
    assert.equal(grant.statusCode, 400);
    assert.equal(grant.json<{ error: string }>().error, 'unsupported_grant_type');
    const scope = await requestToken('acme', { ...good, scope: 'openid admin' });
    assert.equal(scope.statusCode, 400);
    assert.equal(scope.json<{ error: string }>().error, 'invalid_scope');
    const noGrant = await requestToken('acme', { client_id: acme.clientId, client_secret: acme.clientSecret });
    assert.equal(noGrant.json<{ error: string }>().error, 'invalid_request');
    const empty = await app.inject({ method: 'POST', url: tokenPath('acme') });
    assert.equal(empty.statusCode, 400);
    assert.equal(empty.json<{ error: string }>().error, 'invalid_request');
    const unknownRealm = await requestToken('initech', good);
    assert.equal(unknownRealm.statusCode, 401);
    assert.equal(unknownRealm.json<{ error: string }>().error, 'invalid_client');
    // Another customer's client cannot get a token in this realm.
    const crossRealm = await requestToken('globex', good);
    assert.equal(crossRealm.statusCode, 401);
    assert.equal(
      (await app.inject({ method: 'GET', url: '/auth/realms/initech-consumers/protocol/openid-connect/certs' }))
        .statusCode,
      404,
    );
  });

  it('answers a body that is not form-encoded with 415 in the RFC 6749 shape', async () => {
    const good = {
      client_id: acme.clientId,
      client_secret: acme.clientSecret,
      scope: 'openid',
      grant_type: 'client_credentials',
    };
    const expected = {
      error: 'invalid_request',
      error_description: 'the body must be application/x-www-form-urlencoded',
    };
    const refused = [
      { headers: { 'content-type': 'application/json' }, payload: JSON.stringify(good) },
      { headers: { 'content-type': 'application/json' }, payload: '{not json' },
      { headers: { 'content-type': 'application/xml' }, payload: '<grant_type>client_credentials</grant_type>' },
      { headers: { 'content-type': 'text/plain' }, payload: form(good) },
      { headers: {}, payload: form(good) },
    ];
    for (const { headers, payload } of refused) {
      const response = await app.inject({ method: 'POST', url: tokenPath('acme'), headers, payload });
      assert.equal(response.statusCode, 415, `${JSON.stringify(headers)}: ${response.body}`);
      assert.deepEqual(response.json(), expected);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.equal(response.headers.accept, 'application/x-www-form-urlencoded');
    }
    const withCharset = await requestToken('acme', good, {
      'content-type': 'Application/X-WWW-Form-URLEncoded; charset=UTF-8',
    });
    assert.equal(withCharset.statusCode, 200, withCharset.body);
  });

  it('keeps tokens issued before a key rotation valid', async () => {
    const good = {
      client_id: acme.clientId,
      client_secret: acme.clientSecret,
      scope: 'openid',
      grant_type: 'client_credentials',
    };
    const before = (await requestToken('acme', good)).json<{ access_token: string }>().access_token;
    const oldKid = decodeProtectedHeader(before).kid;
    await signingKeysRepository(store.db).rotate();
    // Another replica, or this one once its key cache has expired, signs with the new key.
    const replica = tokenSigner(signingKeysRepository(store.db), 300);
    const afterRotation = (
      await replica.issue({ issuer: `${ORIGIN}/auth/realms/acme-consumers`, customer: 'acme', clientId: acme.clientId })
    ).access_token;
    assert.notEqual(decodeProtectedHeader(afterRotation).kid, oldKid);
    // The JWKS is read through, so it already holds the key the replica signs with.
    const keySet = createLocalJWKSet(await jwks('acme'));
    await jwtVerify(before, keySet);
    await jwtVerify(afterRotation, keySet);
    const verify = verifier();
    assert.equal(
      (await verify(fakeRequest({ authorization: `Bearer ${before}`, apikey: acmeKey.apiKey }))).name,
      'acme',
    );
    assert.equal(
      (await verify(fakeRequest({ authorization: `Bearer ${afterRotation}`, apikey: acmeKey.apiKey }))).name,
      'acme',
    );
  });

  it('caches the signing keys, reloading them for an unknown kid at most once per cooldown', async () => {
    const repository = signingKeysRepository(store.db);
    let reads = 0;
    const counted: SigningKeysRepository = {
      active: () => repository.active(),
      rotate: () => repository.rotate(),
      published: (since) => {
        reads += 1;
        return repository.published(since);
      },
    };
    let clock = Date.now();
    const ttl = 300;
    const signer = tokenSigner(counted, ttl, () => new Date(clock));
    const claims = { issuer: `${ORIGIN}/auth/realms/acme-consumers`, customer: 'acme', clientId: acme.clientId };
    const verify = async (token: string) => jwtVerify(token, await signer.keyResolver(), { algorithms: ['RS256'] });
    const kidOf = (token: string) => decodeProtectedHeader(token).kid;

    const first = (await signer.issue(claims)).access_token;
    await verify(first);
    await verify((await signer.issue(claims)).access_token);
    assert.equal(reads, 1, 'signing and verifying share one read');

    // Rotated elsewhere (another replica, the CLI): a token with the new kid reloads the keys at once.
    const rotated = await repository.rotate();
    const fromReplica = (await tokenSigner(repository, ttl).issue(claims)).access_token;
    assert.equal(kidOf(fromReplica), rotated.kid);
    assert.equal(
      kidOf((await signer.issue(claims)).access_token),
      kidOf(first),
      'signing keeps the cached key until the keys are read again',
    );
    clock += KEY_RELOAD_COOLDOWN_SECONDS * 1000;
    await verify(fromReplica);
    assert.equal(reads, 2);
    await verify(first);
    assert.equal(reads, 2, 'the retired key is still in the cache');
    assert.equal(
      kidOf((await signer.issue(claims)).access_token),
      rotated.kid,
      'that read moved signing to the new key too',
    );

    // Unknown kids: at most one read per cooldown, and each is refused.
    const { privateKey } = await generateKeyPair('RS256');
    const forged = (kid: string) => new SignJWT({}).setProtectedHeader({ alg: 'RS256', kid }).sign(privateKey);
    for (let i = 0; i < 20; i += 1)
      await assert.rejects(verify(await forged(`forged-${i}`)), joseErrors.JWKSNoMatchingKey);
    assert.equal(reads, 2, 'within the cooldown of the last read');
    clock += KEY_RELOAD_COOLDOWN_SECONDS * 1000;
    for (let i = 0; i < 20; i += 1)
      await assert.rejects(verify(await forged(`forged-${i}`)), joseErrors.JWKSNoMatchingKey);
    assert.equal(reads, 3, 'one read for the whole flood');

    clock += KEY_CACHE_SECONDS * 1000;
    await signer.issue(claims);
    assert.equal(reads, 4, 'the expired cache is read again');

    // Past the retention the retired key leaves the JWKS.
    assert.ok((await signer.jwks()).keys.some((key) => key.kid === kidOf(first)));
    clock = rotated.createdAt.getTime() + (retiredKeyRetentionSeconds(ttl) + 1) * 1000;
    assert.deepEqual(
      (await signer.jwks()).keys.map((key) => key.kid),
      [rotated.kid],
    );
  });

  it('lets a token and API key reach only their own customer', async () => {
    const good = {
      client_id: acme.clientId,
      client_secret: acme.clientSecret,
      scope: 'openid',
      grant_type: 'client_credentials',
    };
    const acmeToken = (await requestToken('acme', good)).json<{ access_token: string }>().access_token;
    const globexToken = (
      await requestToken('globex', { ...good, client_id: globex.clientId, client_secret: globex.clientSecret })
    ).json<{ access_token: string }>().access_token;
    const verify = verifier();
    assert.equal(
      (await verify(fakeRequest({ authorization: `Bearer ${acmeToken}`, apikey: acmeKey.apiKey }))).displayName,
      'ACME Corp',
    );
    assert.equal(
      (await verify(fakeRequest({ authorization: `Bearer ${globexToken}`, apikey: globexKey.apiKey }))).name,
      'globex',
    );
    const refused = async (headers: Record<string, string>, reason: RegExp) => {
      await assert.rejects(
        verify(fakeRequest(headers)),
        (error: unknown) =>
          error instanceof AccessDeniedError && error.statusCode === 401 && reason.test(error.description),
      );
    };
    await refused({ authorization: `Bearer ${acmeToken}`, apikey: globexKey.apiKey }, /different customers/);
    await refused({ authorization: `Bearer ${globexToken}`, apikey: acmeKey.apiKey }, /different customers/);
    await refused({ authorization: `Bearer ${acmeToken}` }, /apikey/);
    await refused({ apikey: acmeKey.apiKey }, /bearer/);
    await refused({ authorization: `Bearer ${acmeToken}`, apikey: `${acmeKey.keyId}.forged` }, /api key/);
    const [header, payload, signature] = acmeToken.split('.');
    const tampered = JSON.stringify({
      ...JSON.parse(Buffer.from(payload ?? '', 'base64url').toString()),
      customer: 'globex',
    });
    await refused(
      {
        authorization: `Bearer ${header}.${Buffer.from(tampered).toString('base64url')}.${signature}`,
        apikey: globexKey.apiKey,
      },
      /invalid bearer token/,
    );
    // A token of this server presented to another host is refused (issuer pinned).
    await assert.rejects(
      verify({
        headers: { authorization: `Bearer ${acmeToken}`, apikey: acmeKey.apiKey },
        protocol: 'https',
        host: 'evil.example',
      } as unknown as FastifyRequest),
      AccessDeniedError,
    );
    await customersRepository(store.db).revokeApiKey('acme', acmeKey.keyId);
    await refused({ authorization: `Bearer ${acmeToken}`, apikey: acmeKey.apiKey }, /revoked/);
  });
});
