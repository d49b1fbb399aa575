/**
 * Issue 14, defect 4: a failing request never writes personal data to the log. Database errors
 * carry the statement, its parameters (username, e-mail, phone, names, the enrollment-token hash) and
 * the failing row; the log keeps their SQLSTATE, severity and the names of table and constraint only.
 */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../../../src/server/app.js';
import { loadConfig } from '../../../src/server/config.js';
import { serializeErrorForLog } from '../../../src/server/errors/error-log-serializer.js';
import { testCustomer } from '../../helpers/stores.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { accessToken, testEnvelopeKeys } from '../../helpers/app.js';
import { assertCodedError } from '../../helpers/http.js';

const person = {
  username: 'ottilie.probe',
  email: 'ottilie.probe@example.org',
  phoneNumber: '+15550199',
  firstName: 'Ottilie',
  lastName: 'Quaxley',
};
/** Anything of the person, and what a leaked statement or row looks like. */
const PERSONAL = /ottilie|probe|15550199|quaxley|[0-9a-f]{64}|insert into|failing row|"params"|"query"|"detail"/i;

let store: Store;
let app: FastifyInstance;
let headers: Record<string, string>;
const lines: string[] = [];

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const { client, apiKey } = await testCustomer(store, 'acme');
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  app = await buildApp({
    config: loadConfig({ VERIPORT_DATA_DIR: 'memory://', LOG_LEVEL: 'trace' }),
    envelopeKeys: testEnvelopeKeys(),
    store,
    logger: { level: 'trace', stream },
  });
  headers = { authorization: `Bearer ${await accessToken(app, 'acme', client)}`, apikey: apiKey };
});

after(async () => {
  await app.close();
  await store.close();
});

function enroll(body: object): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/onboarding/enrollment/enroll', headers, payload: body });
}

/** The log lines written while `work` ran. */
async function logOf(work: () => Promise<void>): Promise<string> {
  const from = lines.length;
  await work();
  return lines.slice(from).join('');
}

describe('the log of a failing request', () => {
  it('holds no personal data when the database refuses the row (a 500)', async () => {
    // Every new enrollment now violates a constraint: the error carries the statement, its parameters
    // and the failing row, all of them the person's data.
    await sql`alter table onboarding_enrollments add constraint refuse_all check (false) not valid`.execute(store.db);
    try {
      const log = await logOf(async () => {
        const response = await enroll(person);
        assertCodedError(response, 500, 1);
        assert.doesNotMatch(response.body, PERSONAL);
      });
      const failed = log.split('\n').find((line) => line.includes('request failed'));
      assert.ok(failed !== undefined, `the failure is logged:\n${log}`);
      assert.doesNotMatch(log, PERSONAL);
      // What helps an operator stays: the SQLSTATE and the constraint's name.
      assert.match(failed, /"code":"23514"/);
      assert.match(failed, /"constraint":"refuse_all"/);
    } finally {
      await sql`alter table onboarding_enrollments drop constraint refuse_all`.execute(store.db);
    }
  });

  it('holds no personal data when validation refuses a field (a 400)', async () => {
    const log = await logOf(async () => {
      assertCodedError(await enroll({ ...person, username: 'ottilie.probe\u0000' }), 400, -6, /'username'/);
    });
    assert.ok(log.includes('request rejected'), log);
    assert.doesNotMatch(log, PERSONAL);
  });
});

describe('the error serializer', () => {
  it("drops node-postgres' statement fields and quoted values, keeps names and codes", () => {
    // The fields of pg-protocol's DatabaseError as node-postgres raises it.
    const error = Object.assign(new Error('invalid input syntax for type integer: "ottilie.probe"'), {
      severity: 'ERROR',
      code: '22P02',
      detail: 'Key (email)=(ottilie.probe@example.org) already exists.',
      where: "unnamed portal parameter $2 = '...'",
      internalQuery: 'select 1',
      table: 'onboarding_users',
      column: 'username',
      parameters: ['ottilie.probe'],
    });
    const logged = serializeErrorForLog(new Error('enroll failed', { cause: error }));
    const text = JSON.stringify(logged);
    assert.doesNotMatch(text, PERSONAL);
    assert.doesNotMatch(text, /portal|select 1/);
    assert.match(text, /"code":"22P02"/);
    assert.match(text, /"table":"onboarding_users"/);
    assert.match(text, /invalid input syntax for type integer: \\"…\\"/);
  });
});
