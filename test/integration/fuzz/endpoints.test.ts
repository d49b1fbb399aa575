/**
 * Issue 14, the project's own fuzz suite: for every operation of the app's OpenAPI document (a new route
 * is covered without editing this file), a fixed-seed run of malformed requests (fuzz/requests.ts) must
 * answer without a 5xx, with the service's error shape and a code from the spec's set (fuzz/oracle.ts).
 * Onboarding's routes are fuzzed with and without valid credentials. `npm run fuzz` is the long run.
 */
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { badImages } from '../../../fuzz/bad-images.js';
import { checkAnswer } from '../../../fuzz/oracle.js';
import { fuzzRequests, type FuzzRequest } from '../../../fuzz/requests.js';
import { send, startTarget, type Outcome } from '../../../fuzz/target.js';
import { closeTestFaceEngine } from '../../helpers/faces.js';

const SEED = 14;
/** Requests per operation: about 6,000 in all, within half a minute on two cores. */
const RUNS = 100;

/**
 * Failures known and not yet fixed, each named precisely (operation, request, answer) so that only that
 * case is excused; every other failure of the same operation still fails the test.
 */
const KNOWN_EXCEPTIONS: ReadonlyArray<{
  readonly operation: string;
  readonly matches: (request: FuzzRequest, outcome: Outcome) => boolean;
}> = [];

function isKnownException(operation: string, request: FuzzRequest, outcome: Outcome): boolean {
  return KNOWN_EXCEPTIONS.some((known) => known.operation === operation && known.matches(request, outcome));
}

/** The request as JSON, its payload cut to 200 characters (the long run writes whole cases to files). */
function describeRequest(request: FuzzRequest): string {
  const payload = request.payload === undefined ? undefined : request.payload.slice(0, 200);
  return JSON.stringify({ ...request, payload });
}

const images = await badImages({ large: false });
const target = await startTarget(images.cheap);
after(async () => {
  await target.close();
  await closeTestFaceEngine();
});

describe('fuzz oracle: what counts as a failure', () => {
  const coded = (code: number, description = 'x') => JSON.stringify({ error: { code, description } });
  it('refuses 5xx, bodies in another shape, codes outside the spec set', () => {
    assert.equal(checkAnswer('coded', { statusCode: 500, body: coded(1) }), 'HTTP 500');
    assert.match(checkAnswer('coded', { statusCode: 400, body: '' }) ?? '', /not JSON/);
    const fastifyDefault = '{"error":"Bad Request","message":"Client Error","statusCode":400}';
    assert.match(checkAnswer('coded', { statusCode: 400, body: fastifyDefault }) ?? '', /not a coded error/);
    assert.match(checkAnswer('coded', { statusCode: 400, body: coded(-10) }) ?? '', /not a spec code/);
    assert.match(checkAnswer('coded', { statusCode: 404, body: coded(-6) }) ?? '', /not a spec code/);
    assert.match(checkAnswer('spring', { statusCode: 400, body: coded(-2) }) ?? '', /spring/);
    const half = JSON.stringify({ status: 'FAILURE', error: { code: 409, description: 'x' } });
    assert.match(checkAnswer('trigger', { statusCode: 409, body: half }) ?? '', /not a trigger error body/);
  });
  it('accepts 2xx and the error shapes of the spec', () => {
    assert.equal(checkAnswer('coded', { statusCode: 200, body: 'anything' }), undefined);
    assert.equal(checkAnswer('coded', { statusCode: 400, body: coded(139) }), undefined);
    assert.equal(checkAnswer('coded', { statusCode: 415, body: coded(415) }), undefined);
    const trigger = { status: 'FAILURE', sessionCallbackURL: null, qrcodeImage: null, sessionToken: null };
    const why = { errorSummary: 'why', error: { code: 409, description: 'why' } };
    assert.equal(checkAnswer('trigger', { statusCode: 409, body: JSON.stringify({ ...trigger, ...why }) }), undefined);
    const spring = { timestamp: 't', status: 400, path: '/p', error: 'Bad Request', message: 'm' };
    assert.equal(checkAnswer('spring', { statusCode: 400, body: JSON.stringify(spring) }), undefined);
    const oauth = JSON.stringify({ error: 'invalid_client', error_description: 'd' });
    assert.equal(checkAnswer('oauth', { statusCode: 401, body: oauth }), undefined);
  });
});

describe('fuzz: malformed requests to every route get a 4xx in the service error shape', () => {
  it('finds the routes of every service in the OpenAPI document', () => {
    const prefixes = new Set(target.operations.map((o) => o.path.split('/')[1]));
    for (const prefix of ['face-matching', 'face-liveness', 'face-analysis', 'transaction-report', 'onboarding'])
      assert.ok(prefixes.has(prefix), `no route under /${prefix}`);
    assert.ok(target.operations.length >= 50, `only ${target.operations.length} operations`);
  });

  for (const operation of target.operations) {
    it(operation.key, async () => {
      const failures: string[] = [];
      for (const request of fc.sample(fuzzRequests(operation, target.context), { seed: SEED, numRuns: RUNS })) {
        const outcome = await send(target, operation, request);
        if (outcome.failure !== undefined && !isKnownException(operation.key, request, outcome))
          failures.push(
            `${outcome.failure}\n  request: ${describeRequest(request)}\n  answer: ${outcome.body.slice(0, 300)}`,
          );
      }
      assert.deepEqual(failures, [], `${failures.length} of ${RUNS} requests failed:\n${failures.join('\n')}`);
    });
  }
});
