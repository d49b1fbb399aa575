/**
 * Issue 14, authentication and scoping: guesses are throttled. The token endpoint counts per source
 * address and per client id (OAuth-shaped 429), registration codes per source address and per device
 * id (coded 429); every 429 carries Retry-After, and other addresses, clients and devices go on.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { testCustomer } from '../../helpers/stores.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { testApp, tokenRequest as clientTokenRequest } from '../../helpers/app.js';
import { assertCodedError } from '../../helpers/http.js';

const TOKEN_URL = '/auth/realms/acme-consumers/protocol/openid-connect/token';
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
/** The address the setup token comes from, so it counts against no limit under test. */
const SETUP_ADDRESS = '10.9.9.9';

let store: Store;
let app: FastifyInstance;
let headers: Record<string, string>;
let client: { clientId: string; clientSecret: string };

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const customer = await testCustomer(store, 'acme');
  client = customer.client;
  const { apiKey } = customer;
  app = await testApp(
    {
      VERIPORT_THROTTLE_TOKEN_PER_ADDRESS: '3',
      VERIPORT_THROTTLE_TOKEN_PER_CLIENT: '4',
      VERIPORT_THROTTLE_CODE_PER_ADDRESS: '5',
      VERIPORT_THROTTLE_CODE_PER_DEVICE: '3',
    },
    { store },
  );
  const token = await tokenRequest(SETUP_ADDRESS, client.clientId, client.clientSecret);
  assert.equal(token.statusCode, 200, token.body);
  headers = { authorization: `Bearer ${token.json<{ access_token: string }>().access_token}`, apikey: apiKey };
});

after(async () => {
  await app.close();
  await store.close();
});

function tokenRequest(address: string, clientId: string, secret = 'wrong'): Promise<LightMyRequestResponse> {
  return clientTokenRequest(app, 'acme', { clientId, clientSecret: secret }, address);
}

function authenticate(address: string, deviceId: string): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/onboarding/authentication/authenticate',
    remoteAddress: address,
    headers,
    payload: { registrationCode: 'a-guessed-registration-code', deviceId },
  });
}

/** Asserts a 429 with a Retry-After of whole seconds within the window. */
function assertThrottled(response: LightMyRequestResponse): void {
  assert.equal(response.statusCode, 429, response.body);
  const retryAfter = Number(response.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
}

describe('throttling: token endpoint', () => {
  it('answers the request past the per-address limit with an OAuth 429; another address goes on', async () => {
    for (let i = 0; i < 3; i += 1) assert.equal((await tokenRequest('10.0.0.1', `probe-${i}`)).statusCode, 401);
    const refused = await tokenRequest('10.0.0.1', 'probe-3');
    assertThrottled(refused);
    assert.equal(refused.headers['cache-control'], 'no-store');
    const body = refused.json<{ error: string; error_description: string }>();
    assert.equal(body.error, 'slow_down');
    assert.match(body.error_description, /too many token requests/);
    assert.equal((await tokenRequest('10.0.0.2', 'probe-4')).statusCode, 401);
  });

  it('counts a client id across addresses, in the form or HTTP Basic; another client goes on', async () => {
    for (let i = 0; i < 3; i += 1) assert.equal((await tokenRequest(`10.0.1.${i}`, 'victim')).statusCode, 401);
    const basic = await app.inject({
      method: 'POST',
      url: TOKEN_URL,
      remoteAddress: '10.0.1.3',
      headers: { ...FORM, authorization: `Basic ${Buffer.from('victim:wrong').toString('base64')}` },
      payload: 'grant_type=client_credentials',
    });
    assert.equal(basic.statusCode, 401, basic.body);
    const refused = await tokenRequest('10.0.1.4', 'victim');
    assertThrottled(refused);
    assert.equal(refused.json<{ error: string }>().error, 'slow_down');
    assert.equal((await tokenRequest('10.0.1.4', 'someone-else')).statusCode, 401);
  });
});

describe('throttling: registration codes', () => {
  it('answers the guess past the per-device limit with a coded 429; another device goes on', async () => {
    for (let i = 0; i < 3; i += 1) assertCodedError(await authenticate(`10.1.0.${i}`, 'device-1'), 403, 403);
    const refused = await authenticate('10.1.0.3', 'device-1');
    assertThrottled(refused);
    assertCodedError(refused, 429, 429, /too many registration code attempts/);
    assertCodedError(await authenticate('10.1.0.3', 'device-2'), 403, 403);
  });

  it('counts guesses per address across devices (re-enrollments too); another address goes on', async () => {
    for (let i = 0; i < 4; i += 1) assertCodedError(await authenticate('10.2.0.1', `device-a${i}`), 403, 403);
    const reenroll = await app.inject({
      method: 'POST',
      url: '/onboarding/enrollment/enroll',
      remoteAddress: '10.2.0.1',
      headers,
      payload: { username: 'u', email: 'u@example.com', phoneNumber: '1', registrationCode: 'guess' },
    });
    assert.notEqual(reenroll.statusCode, 429, reenroll.body);
    assertThrottled(await authenticate('10.2.0.1', 'device-a5'));
    assertCodedError(await authenticate('10.2.0.2', 'device-a6'), 403, 403);
  });
});
