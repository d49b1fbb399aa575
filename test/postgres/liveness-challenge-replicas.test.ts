import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { selfieFrame } from '../helpers/faces.js';
import { startServer, type ServerProcess } from '../helpers/process.js';
import { dropSchema, uniqueSchema } from '../helpers/stores.js';

// This suite exists to exercise PostgreSQL: without DATABASE_URL it fails rather than passing empty.
const url = process.env.DATABASE_URL ?? '';
const schema = uniqueSchema();

describe('liveness challenges across two server processes sharing one PostgreSQL', () => {
  before(() =>
    assert.notEqual(url, '', 'npm run test:postgres needs DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test)'),
  );
  let servers: ServerProcess[] = [];
  let frame = '';
  before(async () => {
    const env = { DATABASE_URL: url, VERIPORT_DATABASE_SCHEMA: schema, VERIPORT_FACE_WORKERS: '1' };
    servers = await Promise.all([0, 1].map(() => startServer(env)));
    frame = (await selfieFrame('anna')).toString('base64');
  });
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await dropSchema(url, schema);
  });

  const post = (server: ServerProcess, path: string, body: unknown) =>
    fetch(`${server.url}/face-liveness${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const issue = async (server: ServerProcess) =>
    ((await (await post(server, '/challenge', { workflow: 'hotel4' })).json()) as { challenge: string }).challenge;
  const carrying = (challenge: string) => ({
    video: { workflow_data: { workflow: 'hotel4', frames: [{ data: frame, timestamp: 1000 }], challenge } },
  });

  it('takes a challenge issued by one replica on the other, once', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const challenge = await issue(a);
    const first = await post(b, '/checkLiveness', carrying(challenge));
    assert.equal(first.status, 200, await first.text());
    const replay = await post(a, '/checkLiveness', carrying(challenge));
    assert.equal(replay.status, 400);
    assert.match(await replay.text(), /challenge already used/);
  });

  it('lets exactly one of simultaneous uses on both replicas through', async () => {
    for (let round = 0; round < 3; round++) {
      const challenge = await issue(servers[round % 2]!);
      const answers = await Promise.all(
        [...servers, ...servers].map((s) => post(s, '/checkLiveness', carrying(challenge))),
      );
      const statuses = answers.map((r) => r.status).sort();
      assert.deepEqual(statuses, [200, 400, 400, 400], `round ${round}`);
      await Promise.all(answers.map((r) => r.text()));
    }
  });
});
