/**
 * Issue 14, defect 3: strings that reach the store are checked at the edge. A NUL character (which
 * PostgreSQL and PGlite refuse), another control character or a lone surrogate in an id or a name is a
 * 400 -6 naming the field, never a 500; and a value the database still refuses is a 400, not a 500.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { testCustomer } from '../../helpers/stores.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { testApp } from '../../helpers/app.js';
import { assertCodedError, httpPost } from '../../helpers/http.js';

const REFUSED = /must not contain control characters/;
/** Characters refused in stored strings: NUL, another C0, DEL, a C1, lone surrogates. */
const BAD = ['\u0000', '\u0009', '\u001f', '\u007f', '\u0085', '\ud800', '\udc00'];

let store: Store;
let app: FastifyInstance;
let headers: Record<string, string>;
let client: { clientId: string; clientSecret: string };

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const customer = await testCustomer(store, 'acme');
  client = customer.client;
  const { apiKey } = customer;
  app = await testApp({}, { store });
  const token = await tokenRequest(
    `grant_type=client_credentials&client_id=${client.clientId}&client_secret=${client.clientSecret}`,
  );
  assert.equal(token.statusCode, 200, token.body);
  const { access_token: accessToken } = token.json<{ access_token: string }>();
  headers = { authorization: `Bearer ${accessToken}`, apikey: apiKey };
});

after(async () => {
  await app.close();
  await store.close();
});

function tokenRequest(form: string, extra: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/auth/realms/acme-consumers/protocol/openid-connect/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...extra },
    payload: form,
  });
}

function onboarding(path: string, body: object): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: `/onboarding/${path}`, headers, payload: body });
}

const person = { username: 'alice', email: 'alice@example.com', phoneNumber: '+15550100', firstName: 'Alice' };

describe('face matching: encounter ids', () => {
  it('refuses a NUL character in the id of delete with 400 -6 (was 500)', async () => {
    assertCodedError(await httpPost(app, '/face-matching/delete/c', { id: '\u0000' }), 400, -6, /'id'/);
  });

  it('refuses every control character and lone surrogate, in every call that takes an id', async () => {
    for (const bad of BAD) {
      const id = `a${bad}b`;
      const calls: Array<[string, object, RegExp]> = [
        ['/face-matching/delete/c', { id }, /'id'/],
        ['/face-matching/add/c', { encounter: { id, import: 'AAAA' } }, /'encounter\.id'/],
        ['/face-matching/update/c', { encounter: { id, import: 'AAAA' } }, /'encounter\.id'/],
        [
          '/face-matching/addBatch/c',
          [
            { id: 'ok', import: 'AAAA' },
            { id, import: 'AAAA' },
          ],
          /'\[1\]\.id'/,
        ],
        ['/face-matching/verify/c', { id, probe: { import: 'AAAA' } }, /'id'/],
        ['/face-matching/identifyPartial/c', { probe: { import: 'AAAA' }, idList: [id] }, /'idList\[0\]'/],
      ];
      for (const [url, body, field] of calls) {
        const response = await httpPost(app, url, body);
        assertCodedError(response, 400, -6, REFUSED);
        assert.match(response.json<{ error: { description: string } }>().error.description, field, url);
      }
    }
  });

  it('accepts letters of any script and emoji, and bounds the length (1-256)', async () => {
    // Past validation: the store is asked and answers that there is no such encounter.
    assertCodedError(
      await httpPost(app, '/face-matching/delete/c', { id: 'Zoë-Ærø 山田 😀' }),
      400,
      -6,
      /no encounter/,
    );
    assertCodedError(await httpPost(app, '/face-matching/delete/c', { id: 'x'.repeat(257) }), 400, -6, /'id'/);
    assertCodedError(await httpPost(app, '/face-matching/delete/c', { id: '' }), 400, -6, /'id'/);
  });
});

describe('onboarding: user data and device ids', () => {
  it('refuses a NUL character in each stored field of enroll with 400 -6 naming it (was 500)', async () => {
    for (const field of ['username', 'email', 'phoneNumber', 'firstName', 'lastName']) {
      const response = await onboarding('enrollment/enroll', { ...person, [field]: 'x\u0000y' });
      assertCodedError(response, 400, -6, new RegExp(`'${field}' must not contain control characters`));
    }
  });

  it('refuses a NUL character in deviceId of adddevice, authenticate and verifyDevice', async () => {
    const enrolled = await onboarding('enrollment/enroll', person);
    assert.equal(enrolled.statusCode, 200, enrolled.body);
    const { enrollmentToken } = enrolled.json<{ enrollmentToken: string }>();
    const deviceId = 'phone\u0000';
    assertCodedError(await onboarding('enrollment/adddevice', { enrollmentToken, deviceId }), 400, -6, /'deviceId'/);
    assertCodedError(
      await onboarding('authentication/authenticate', { registrationCode: 'code', deviceId }),
      400,
      -6,
      /'deviceId'/,
    );
    assertCodedError(
      await onboarding('authentication/verifyDevice', { authToken: 'token', signature: 'c2ln', deviceId }),
      400,
      -6,
      /'deviceId'/,
    );
    // The enrollment is untouched: a valid device id still binds.
    const added = await onboarding('enrollment/adddevice', { enrollmentToken, deviceId: 'phone-1' });
    assert.equal(added.statusCode, 200, added.body);
  });

  it('answers a client id or a realm with a NUL character like an unknown one, without a 500', async () => {
    const form = await tokenRequest(`grant_type=client_credentials&client_id=%00&client_secret=x`);
    assert.equal(form.statusCode, 401, form.body);
    assert.equal(form.json<{ error: string }>().error, 'invalid_client');
    const basic = await tokenRequest('grant_type=client_credentials', {
      authorization: `Basic ${Buffer.from('a\u0000:secret').toString('base64')}`,
    });
    assert.equal(basic.statusCode, 401, basic.body);
    for (const leaf of ['.well-known/openid-configuration', 'protocol/openid-connect/certs']) {
      const response = await app.inject({ method: 'GET', url: `/auth/realms/a%00-consumers/${leaf}` });
      assertCodedError(response, 404, 404);
    }
  });
});

describe('a value the database refuses', () => {
  it('is a 400 -6 naming the SQLSTATE, never a 500 (the net behind validation)', async () => {
    // A column narrower than the schema allows stands for any check validation might miss.
    await sql`alter table onboarding_enrollments alter column last_name type varchar(2)`.execute(store.db);
    try {
      const response = await onboarding('enrollment/enroll', { ...person, username: 'bob', lastName: 'Smith' });
      assertCodedError(response, 400, -6, /cannot be stored \(SQLSTATE 22001\)/);
      assert.doesNotMatch(response.body, /insert|onboarding_enrollments|Smith/);
    } finally {
      await sql`alter table onboarding_enrollments alter column last_name type text`.execute(store.db);
    }
  });
});
