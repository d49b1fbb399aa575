/**
 * Failed credentials are throttled per client id (or API key id) and per source network (IPv4 /24,
 * IPv6 /48): past the limit the token endpoint answers an OAuth 429 `slow_down` and the services a coded
 * 429, both with Retry-After, before the secret is checked, so even the right secret is refused there;
 * another client from another network goes on. (The window's end is tested with a clock in
 * test/unit/server/access/failed-credentials.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { ALL_SERVICES } from '../../../src/services/index.js';
import { customersRepository } from '../../../src/store/customers.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { testApp, tokenRequest } from '../../helpers/app.js';
import { assertCodedError } from '../../helpers/http.js';
import { testCustomer } from '../../helpers/stores.js';

type Client = { clientId: string; clientSecret: string };

let store: Store;
let app: FastifyInstance;
let acme: { client: Client; apiKey: string };
let globex: { client: Client; apiKey: string };
let acme2: Client;
let acmeKey2: string;

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  acme = await testCustomer(store, 'acme');
  globex = await testCustomer(store, 'globex');
  const customers = customersRepository(store.db);
  acme2 = await customers.createClient('acme');
  acmeKey2 = (await customers.createApiKey('acme')).apiKey;
  app = await testApp(
    {
      VERIPORT_AUTH: 'required',
      VERIPORT_THROTTLE_FAILURES_PER_CLIENT: '3',
      VERIPORT_THROTTLE_FAILURES_PER_NETWORK: '6',
    },
    {
      store,
      // The failure throttle sits in the token endpoint and the shared credential check: two services show both.
      services: ALL_SERVICES.filter((service) => ['onboarding', 'transaction-report'].includes(service.name)),
    },
  );
});

after(async () => {
  await app.close();
  await store.close();
});

function token(customer: string, client: Client, address: string, secret = client.clientSecret) {
  return tokenRequest(app, customer, { clientId: client.clientId, clientSecret: secret }, address);
}

function report(apikey: string, address: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'GET',
    url: '/transaction-report/fullReport',
    remoteAddress: address,
    headers: { apikey },
  });
}

function retryAfterOf(response: LightMyRequestResponse): number {
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 900, `Retry-After ${retryAfter}`);
  return retryAfter;
}

describe('failed credentials: token endpoint', () => {
  it('refuses the right secret after N wrong ones for that client id, from any network; another client goes on', async () => {
    for (let i = 0; i < 3; i += 1)
      assert.equal((await token('acme', acme.client, '10.1.0.1', 'wrong')).statusCode, 401);
    const refused = await token('acme', acme.client, '10.1.0.1');
    assert.equal(refused.statusCode, 429, refused.body);
    retryAfterOf(refused);
    assert.equal(refused.headers['cache-control'], 'no-store');
    const body = refused.json<{ error: string; error_description: string }>();
    assert.equal(body.error, 'slow_down');
    assert.match(body.error_description, /too many failed credential checks/);
    assert.ok(!body.error_description.includes(acme.client.clientId));
    // The client id is what counts: another network gets no further with it.
    assert.equal((await token('acme', acme.client, '10.2.0.1')).statusCode, 429);
    // Another client id from another network is unaffected, and so is a client of the same network's neighbour.
    assert.equal((await token('globex', globex.client, '10.3.0.1')).statusCode, 200);
    assert.equal((await token('acme', acme2, '10.1.0.2')).statusCode, 200);
  });

  it('counts per network: failures against many client ids block every login from that /24', async () => {
    for (let i = 0; i < 6; i += 1)
      assert.equal((await token('acme', { clientId: `probe-${i}`, clientSecret: 'x' }, `10.4.0.${i}`)).statusCode, 401);
    const refused = await token('globex', globex.client, '10.4.0.200');
    assert.equal(refused.statusCode, 429, refused.body);
    assert.equal(refused.json<{ error: string }>().error, 'slow_down');
    assert.equal((await token('globex', globex.client, '10.5.0.1')).statusCode, 200);
  });
});

describe('failed credentials: API keys', () => {
  it('refuses the right key after N wrong ones for its key id (coded 429, Retry-After); another key goes on', async () => {
    const [keyId] = acme.apiKey.split('.');
    for (let i = 0; i < 3; i += 1) assert.equal((await report(`${keyId}.wrong-${i}`, '10.6.0.1')).statusCode, 401);
    const refused = await report(acme.apiKey, '10.7.0.1');
    assertCodedError(refused, 429, 429, /too many failed credential checks/);
    retryAfterOf(refused);
    assert.equal((await report(acmeKey2, '10.8.0.1')).statusCode, 200);
    assert.equal((await report(globex.apiKey, '10.6.0.9')).statusCode, 200);
  });

  it('counts unknown keys per IPv6 /48 and shares the network count with the token endpoint', async () => {
    for (let i = 0; i < 4; i += 1) assert.equal((await report(`nokey${i}`, `2001:db8:5:${i}::1`)).statusCode, 401);
    for (let i = 0; i < 2; i += 1)
      assert.equal(
        (await token('acme', { clientId: `guess-${i}`, clientSecret: 'x' }, '2001:db8:5::9')).statusCode,
        401,
      );
    assert.equal((await report(globex.apiKey, '2001:db8:5:ffff::1')).statusCode, 429);
    assert.equal((await token('globex', globex.client, '2001:db8:5::10')).statusCode, 429);
    assert.equal((await report(globex.apiKey, '2001:db8:6::1')).statusCode, 200);
  });

  it("throttles onboarding's API key (after its bearer token) per key id as well", async () => {
    const bearer = (await token('globex', globex.client, '10.10.0.1')).json<{ access_token: string }>().access_token;
    const [keyId] = globex.apiKey.split('.');
    const authenticate = (apikey: string, address: string) =>
      app.inject({
        method: 'POST',
        url: '/onboarding/authentication/authenticate',
        remoteAddress: address,
        headers: { authorization: `Bearer ${bearer}`, apikey },
        payload: { registrationCode: 'a-guessed-registration-code', deviceId: 'device-1' },
      });
    for (let i = 0; i < 3; i += 1) assertCodedError(await authenticate(`${keyId}.wrong`, `10.11.${i}.1`), 401, 401);
    const refused = await authenticate(globex.apiKey, '10.12.0.1');
    assertCodedError(refused, 429, 429, /too many failed credential checks/);
    retryAfterOf(refused);
  });
});
