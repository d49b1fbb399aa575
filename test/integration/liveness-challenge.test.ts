/**
 * Issue 16: server-issued challenges of face liveness through HTTP, as a client would use them —
 * POST /face-liveness/challenge, then a liveness request that carries the nonce and follows it.
 */
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import { encryptEnvelope } from '../../src/client/envelope.js';
import { challengeColourSchedule, type LivenessChallenge } from '../../src/client/liveness-challenge.js';
import { screenColourOf } from '../../src/engines/liveness/light-trace.js';
import { openStore, type Store } from '../../src/store/database.js';
import { testApp, testEnvelopeKeys } from '../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine } from '../helpers/faces.js';
import { assertCodedError, httpPost } from '../helpers/http.js';
import { testCustomer } from '../helpers/stores.js';

let app: FastifyInstance;
let strict: FastifyInstance;
let scoped: FastifyInstance;
let scopedStore: Store;
const keys = { acme: '', globex: '' };
/** Five frames of one person with the small motion of a hand-held phone, as JPEG. */
let moving: Buffer[] = [];

before(async () => {
  const engine = testFaceEngine();
  app = await testApp({}, { faceEngine: engine });
  strict = await testApp(
    {
      VERIPORT_LIVENESS_CHALLENGE: 'required',
      VERIPORT_LIVENESS_CHALLENGE_MAX_OPEN: '2',
      VERIPORT_LIVENESS_CHALLENGE_TTL_SECONDS: '1',
    },
    { faceEngine: engine },
  );
  scopedStore = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  keys.acme = (await testCustomer(scopedStore, 'acme')).apiKey;
  keys.globex = (await testCustomer(scopedStore, 'globex')).apiKey;
  scoped = await testApp({ VERIPORT_AUTH: 'required' }, { store: scopedStore, faceEngine: engine });
  const motions = [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }, { dx: 3, dy: 4 }, { dx: -5 }];
  moving = await Promise.all(motions.map((m) => selfieFrame('anna', m)));
});
after(async () => {
  await Promise.all([app.close(), strict.close(), scoped.close()]);
  await scopedStore.close();
  await closeTestFaceEngine();
});

/** A frame lit by the screen: a tenth of the screen colour over the whole frame (the light trace reads it). */
async function lit(frame: Buffer, tag: string | undefined): Promise<string> {
  const rgb = screenColourOf(tag === undefined ? [] : [tag]);
  if (rgb === undefined) return frame.toString('base64');
  const [r, g, b] = rgb;
  const tint = { create: { width: 480, height: 640, channels: 4 as const, background: { r, g, b, alpha: 0.12 } } };
  return (
    await sharp(frame)
      .composite([{ input: tint }])
      .jpeg({ quality: 90 })
      .toBuffer()
  ).toString('base64');
}

/** A liveness request of `workflow` whose frames carry `tags` (one list per frame), optionally a nonce. */
async function request(workflow: string, tags: ReadonlyArray<readonly string[]>, nonce?: string) {
  const frames = await Promise.all(
    tags.map(async (frameTags, i) => ({
      data: await lit(moving[i % moving.length]!, frameTags[0]),
      timestamp: 1000 + i * 100,
      tags: [...frameTags],
    })),
  );
  return {
    video: {
      workflow_data: { workflow, frames, timestamp: Date.now(), ...(nonce === undefined ? {} : { challenge: nonce }) },
    },
  };
}

async function issue(target: FastifyInstance, body: object, apikey?: string): Promise<LivenessChallenge> {
  const response = await target.inject({
    method: 'POST',
    url: '/face-liveness/challenge',
    headers: apikey === undefined ? {} : { apikey },
    payload: body,
  });
  assert.equal(response.statusCode, 200, response.body);
  return response.json<LivenessChallenge>();
}

const check = (target: FastifyInstance, body: object, apikey?: string): Promise<LightMyRequestResponse> =>
  target.inject({
    method: 'POST',
    url: '/face-liveness/checkLiveness',
    headers: apikey === undefined ? {} : { apikey },
    payload: body,
  });

interface Result {
  decision: string;
  decision_info: { IAD: { signals: Record<string, { status: string }> } };
}
const resultOf = (response: LightMyRequestResponse) =>
  response.json<{ video: { liveness_result: Result } }>().video.liveness_result;

describe('face liveness challenge: issue and follow', () => {
  it('issues a charlie challenge that a request following it passes, once', async () => {
    const before = Date.now();
    const challenge = await issue(app, { workflow: 'charlie4' });
    assert.match(challenge.challenge, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(challenge.workflow, 'charlie4');
    assert.equal(challenge.screenColours.length, 5);
    assert.deepEqual(challenge.activeWorkflows, []);
    assert.equal(challenge.expiresIn, 60);
    assert.ok(challenge.issuedAt >= before && challenge.expiresAt === challenge.issuedAt + 60_000);

    const body = await request('charlie4', challengeColourSchedule(challenge, 5), challenge.challenge);
    const response = await check(app, body);
    assert.equal(response.statusCode, 200, response.body);
    // The face follows the drawn colours: the light trace passes.
    assert.equal(resultOf(response).decision_info.IAD.signals.optical_analysis?.status, 'PASS', response.body);

    assertCodedError(await check(app, body), 400, -6, /challenge already used/);
  });

  it('refuses colours in another order, and the nonce is spent by that request', async () => {
    const challenge = await issue(app, { workflow: 'charlie4' });
    const schedule = challengeColourSchedule(challenge, 5);
    // The first two colours swapped: never the drawn order (no colour follows itself).
    const swapped = await request('charlie4', [schedule[1]!, schedule[0]!, ...schedule.slice(2)], challenge.challenge);
    assertCodedError(await check(app, swapped), 400, -6, /challenge not followed: .*in that order/);
    const following = await request('charlie4', schedule, challenge.challenge);
    assertCodedError(await check(app, following), 400, -6, /challenge already used/);
  });

  it('refuses another workflow and an unknown nonce', async () => {
    const challenge = await issue(app, { workflow: 'hotel4' });
    assertCodedError(
      await check(app, await request('hotel2', [[]], challenge.challenge)),
      400,
      -6,
      /issued for workflow hotel4, the request is hotel2/,
    );
    assertCodedError(await check(app, await request('hotel4', [[]], 'x'.repeat(43))), 400, -6, /challenge unknown/);
  });

  it('lets one of two simultaneous requests with one nonce through', async () => {
    const challenge = await issue(app, { workflow: 'hotel4' });
    const body = await request('hotel4', [[]], challenge.challenge);
    const answers = await Promise.all([check(app, body), check(app, body)]);
    assert.deepEqual(answers.map((a) => a.statusCode).sort(), [200, 400], answers.map((a) => a.body).join('\n'));
    assertCodedError(
      answers.find((a) => a.statusCode === 400)!,
      400,
      -6,
      /already used/,
    );
  });

  it('takes the nonce inside an encrypted package and on /analyze', async () => {
    const sealed = await issue(app, { workflow: 'hotel4' });
    const key = testEnvelopeKeys().key('face-liveness').publicKeyPem;
    const package_ = encryptEnvelope(
      JSON.stringify(await request('hotel4', [[]], sealed.challenge)),
      key,
      'face-liveness',
    );
    const first = await httpPost(app, '/face-liveness/checkLivenessEncrypted', package_);
    assert.equal(first.statusCode, 200, first.body);
    assertCodedError(await httpPost(app, '/face-liveness/checkLivenessEncrypted', package_), 400, -6, /already used/);

    const analyzed = await issue(app, { workflow: 'hotel4' });
    const body = await request('hotel4', [[]], analyzed.challenge);
    assert.equal((await httpPost(app, '/face-liveness/analyze', body)).statusCode, 200);
    assertCodedError(await httpPost(app, '/face-liveness/analyze', body), 400, -6, /already used/);
  });

  it('holds /checkActiveLiveness to the drawn head moves in the drawn order', async () => {
    const active = async (challenge: LivenessChallenge, order: readonly string[]) => [
      await request(challenge.workflow, [[]], challenge.challenge),
      await request(order[0]!, [[], []]),
      await request(order[1]!, [[], []]),
    ];
    const challenge = await issue(app, { workflow: 'hotel4', active: true });
    assert.equal(challenge.activeWorkflows?.length, 2);
    const moves = challenge.activeWorkflows ?? [];
    assert.notEqual(moves[0], moves[1]);
    const followed = await httpPost(app, '/face-liveness/checkActiveLiveness', await active(challenge, moves));
    assert.equal(followed.statusCode, 200, followed.body);

    const again = await issue(app, { workflow: 'hotel4', active: true });
    const swapped = [...(again.activeWorkflows ?? [])].reverse();
    assertCodedError(
      await httpPost(app, '/face-liveness/checkActiveLiveness', await active(again, swapped)),
      400,
      -6,
      /the active requests must be/,
    );
    const twice = await active(await issue(app, { workflow: 'hotel4', active: true }), moves);
    twice[1]!.video.workflow_data = { ...twice[1]!.video.workflow_data, challenge: 'another' };
    assertCodedError(await httpPost(app, '/face-liveness/checkActiveLiveness', twice), 400, -6, /different challenges/);
    const plain = await issue(app, { workflow: 'hotel4' });
    assertCodedError(
      await httpPost(app, '/face-liveness/checkActiveLiveness', await active(plain, moves)),
      400,
      -6,
      /active: true/,
    );
  });

  it('refuses a challenge request for no passive workflow', async () => {
    const post = (body: object) => httpPost(app, '/face-liveness/challenge', body);
    assertCodedError(await post({ workflow: 'active_up' }), 400, -6, /passive workflow/);
    assertCodedError(await post({ workflow: 'delta4' }), 400, -6, /workflow must be one of/);
    assertCodedError(await post({}), 400, -3, /workflow/);
  });
});

describe('face liveness challenge: customers, limits, lifetime', () => {
  it("refuses another customer's nonce, which stays good for its owner", async () => {
    const challenge = await issue(scoped, { workflow: 'hotel4' }, keys.acme);
    const body = await request('hotel4', [[]], challenge.challenge);
    assertCodedError(await check(scoped, body, keys.globex), 400, -6, /challenge unknown: not issued to this customer/);
    assert.equal((await check(scoped, body, keys.acme)).statusCode, 200);
    const anonymous = await scoped.inject({ method: 'POST', url: '/face-liveness/challenge', payload: {} });
    assert.equal(anonymous.statusCode, 401, 'behind the service authentication');
  });

  it('requires a challenge when configured, caps open ones with 429, and refuses one past its lifetime', async () => {
    assertCodedError(await check(strict, await request('hotel4', [[]])), 400, -3, /workflow_data\.challenge/);
    const first = await issue(strict, { workflow: 'hotel4' });
    await issue(strict, { workflow: 'hotel4' });
    const third = await httpPost(strict, '/face-liveness/challenge', { workflow: 'hotel4' });
    assertCodedError(third, 429, 429, /too many open challenges \(2\)/);
    assert.equal(third.headers['retry-after'], '1');
    await sleep(1_100);
    assertCodedError(await check(strict, await request('hotel4', [[]], first.challenge)), 400, -6, /challenge expired/);
    const fresh = await issue(strict, { workflow: 'hotel4' });
    assert.equal((await check(strict, await request('hotel4', [[]], fresh.challenge))).statusCode, 200);
  });
});
