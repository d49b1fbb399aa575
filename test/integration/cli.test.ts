import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { currentPeriod, parseCsv } from '../helpers/app.js';
import { runCli, runCliInProcess, startServer } from '../helpers/process.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'veriport-cli-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

// Two commands run the binary in a process of its own (a report, a refused configuration); the rest run its
// entry in-process (runCliInProcess): the same code, without a process start each.
describe('veriport CLI', () => {
  it('serves one service, stops gracefully, and `report` prints what it counted', async () => {
    const server = await startServer({ VERIPORT_DATA_DIR: dataDir, VERIPORT_ADMIN_CONFIRM: '246813579' }, [
      'face-matching',
    ]);
    for (let i = 0; i < 3; i += 1) assert.equal((await fetch(`${server.url}/face-matching/version`)).status, 200);
    assert.equal((await fetch(`${server.url}/transaction-report/version`)).status, 404);
    assert.equal(await server.stop(), 0);

    const { year, month } = currentPeriod();
    const run = await runCli(
      ['report', '--server', 'face-matching', '--year', String(year), '--month', String(month)],
      { VERIPORT_DATA_DIR: dataDir },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(parseCsv(run.stdout), [
      { server_name: 'face-matching', year: String(year), month: String(month), endpoint: '/version', counter: '3' },
    ]);
  });

  it('stops when the report service is asked to shut down with the right confirm', async () => {
    const server = await startServer({ VERIPORT_DATA_DIR: dataDir, VERIPORT_ADMIN_CONFIRM: '246813579' });
    const wrong = await fetch(`${server.url}/transaction-report/shutdown`, {
      method: 'POST',
      body: '{"confirm":1}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(wrong.status, 400);
    assert.equal((await fetch(`${server.url}/health`)).status, 200);
    const right = await fetch(`${server.url}/transaction-report/shutdown`, {
      method: 'POST',
      body: '{"confirm":246813579}',
      headers: { 'content-type': 'text/plain' },
    });
    assert.equal(right.status, 204);
    assert.equal(await server.exited(), 0);
    // The counts of the calls made just before the stop were written on the way out.
    const run = await runCliInProcess(['report', '--server', 'transaction-report'], { VERIPORT_DATA_DIR: dataDir });
    assert.ok(
      parseCsv(run.stdout).some((r) => r.endpoint === '/shutdown' && r.counter === '2'),
      run.stdout,
    );
  });

  it('refuses to open a data directory a running server holds, and reports through --url instead', async () => {
    const server = await startServer({ VERIPORT_DATA_DIR: dataDir });
    try {
      const direct = await runCliInProcess(['report'], { VERIPORT_DATA_DIR: dataDir });
      assert.equal(direct.code, 2);
      assert.match(direct.stderr, /is in use by process \d+.*--url/);
      const remote = await runCliInProcess(['report', '--server', 'face-matching', '--url', server.url], {});
      assert.equal(remote.code, 0, remote.stderr);
      assert.ok(
        parseCsv(remote.stdout).some((r) => r.endpoint === '/version'),
        remote.stdout,
      );
    } finally {
      assert.equal(await server.stop(), 0);
    }
  });

  it('exits 2 with a clear message on bad configuration or usage', async () => {
    const badPort = await runCli(['serve', '--port', 'eighty'], { VERIPORT_DATA_DIR: dataDir });
    assert.equal(badPort.code, 2);
    assert.match(badPort.stderr, /^veriport: PORT \(--port\) must be an integer from 0 to 65535 \(got 'eighty'\)/);
    const badService = await runCliInProcess(['serve', 'teleport'], { VERIPORT_DATA_DIR: dataDir });
    assert.equal(badService.code, 2);
    assert.match(badService.stderr, /unknown service 'teleport'/);
    const badMonth = await runCliInProcess(['report', '--month', '13'], { VERIPORT_DATA_DIR: dataDir });
    assert.equal(badMonth.code, 2);
    assert.match(badMonth.stderr, /month must be from 1 to 12/);
    const help = await runCliInProcess(['--help'], {});
    assert.equal(help.code, 0);
    assert.match(help.stdout, /veriport serve \[service\]/);
  });
});
