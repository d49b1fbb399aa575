/**
 * Issue 14, item 7: a number beyond the double range (`1e309`, which JSON.parse reads as Infinity) and
 * fused scores that overflow are 400 -6, not 500. Item 11: a `text/plain` body is 415 on the services
 * whose spec sends only JSON (face liveness, onboarding) and is still parsed as JSON
 * where the spec's examples label it `text/plain`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { testCustomer } from '../../helpers/stores.js';
import { openStore, type Store } from '../../../src/store/database.js';
import { accessToken, testApp } from '../../helpers/app.js';
import { assertCodedError, httpPost } from '../../helpers/http.js';

let store: Store;
let app: FastifyInstance;

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  app = await testApp({}, { store });
});
after(async () => {
  await app.close();
  await store.close();
});

/** Sends `json` as written: JSON.stringify cannot write 1e309. */
const postRaw = (url: string, json: string, contentType = 'application/json') => httpPost(app, url, json, contentType);

describe('hardening: numbers beyond the double range in fusion', () => {
  it('answers 400 -6 for a score of 1e309 or -1e309', async () => {
    assertCodedError(
      await postRaw('/face-matching/fuseScores', '{"scores":[1e309,2]}'),
      400,
      -6,
      /'scores\[0\]'.*finite/,
    );
    assertCodedError(await postRaw('/face-matching/fuseScores', '{"scores":[2,-1e309]}'), 400, -6, /scores\[1\]/);
    // The same as text/plain, as the spec's examples send it.
    assertCodedError(
      await postRaw('/face-matching/fuseScores', '{"scores":[1e309]}', 'text/plain'),
      400,
      -6,
      /scores\[0\]/,
    );
  });

  it('answers 400 -6 for finite scores whose sum overflows', async () => {
    assertCodedError(
      await postRaw('/face-matching/fuseScores', '{"scores":[1.7e308,1.7e308]}'),
      400,
      -6,
      /more than a double/,
    );
    assertCodedError(
      await postRaw(
        '/face-matching/fuseScoresForIdentification',
        '{"scores":[[{"scoreFmr":1.7e308,"encounterCount":2},{"scoreFmr":1.7e308,"encounterCount":2}]]}',
      ),
      400,
      -6,
      /more than a double/,
    );
  });

  it('answers 400 -6 for scoreFmr or encounterCount of 1e309 in fuseScoresForIdentification', async () => {
    const url = '/face-matching/fuseScoresForIdentification';
    assertCodedError(
      await postRaw(url, '{"scores":[[{"scoreFmr":1e309,"encounterCount":10}]]}'),
      400,
      -6,
      /scores\[0\]\[0\]\.scoreFmr/,
    );
    assertCodedError(
      await postRaw(url, '{"scores":[[{"scoreFmr":3,"encounterCount":10}],[{"scoreFmr":3,"encounterCount":1e309}]]}'),
      400,
      -6,
      /scores\[1\]\[0\]\.encounterCount/,
    );
  });

  it('still fuses finite scores and still answers -4 for a number sent as a string', async () => {
    const fused = await postRaw('/face-matching/fuseScores', '{"scores":[3,2.5]}');
    assert.equal(fused.statusCode, 200, fused.body);
    assert.deepEqual(fused.json(), { scoreFused: 5.5 });
    assertCodedError(await postRaw('/face-matching/fuseScores', '{"scores":["1e309"]}'), 400, -4, /scores\[0\]/);
  });
});

describe('hardening: text/plain bodies', () => {
  const liveness = '{"video":{"workflow_data":{"workflow":"hotel4","frames":[]}}}';

  it('are 415 in face liveness, whose spec sends application/json', async () => {
    for (const url of ['/checkLiveness', '/analyze', '/checkActiveLiveness', '/checkLivenessEncrypted', '/decrypt']) {
      assertCodedError(await postRaw(`/face-liveness${url}`, liveness, 'text/plain'), 415, 415, /Content-Type/);
    }
    // With a charset too; application/json is still parsed (an empty frame list is -6, not 415).
    assertCodedError(await postRaw('/face-liveness/checkLiveness', liveness, 'text/plain; charset=utf-8'), 415, 415);
    const json = await postRaw('/face-liveness/checkLiveness', liveness);
    assert.notEqual(json.statusCode, 415, json.body);
  });

  it('are 415 in onboarding, whose spec sends application/json', async () => {
    const { client, apiKey } = await testCustomer(store, 'acme');
    const token = await accessToken(app, 'acme', client);
    const headers = { authorization: `Bearer ${token}`, apikey: apiKey };
    const enroll = JSON.stringify({ username: 'ada', email: 'ada@example.com', phoneNumber: '+15550100' });
    const plain = await app.inject({
      method: 'POST',
      url: '/onboarding/enrollment/enroll',
      headers: { ...headers, 'content-type': 'text/plain' },
      payload: enroll,
    });
    assertCodedError(plain, 415, 415, /Content-Type/);
    const json = await app.inject({
      method: 'POST',
      url: '/onboarding/enrollment/enroll',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: enroll,
    });
    assert.equal(json.statusCode, 200, json.body);
  });

  it('are still JSON where the spec labels JSON text/plain (face matching, transaction report)', async () => {
    const fused = await postRaw('/face-matching/fuseScores', '{"scores":[3]}', 'text/plain');
    assert.deepEqual(fused.json(), { scoreFused: 3 });
  });
});
