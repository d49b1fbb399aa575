import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { runCli, runCliInProcess, startServer } from '../helpers/process.js';

const dataDir = mkdtempSync(path.join(tmpdir(), 'veriport-admin-'));
const demoDir = mkdtempSync(path.join(tmpdir(), 'veriport-demo-'));
const keysDir = mkdtempSync(path.join(tmpdir(), 'veriport-keys-'));
after(() => {
  for (const dir of [dataDir, demoDir, keysDir]) rmSync(dir, { recursive: true, force: true });
});

const field = (output: string, name: string): string => {
  const value = new RegExp(`^${name}=(\\S+)$`, 'm').exec(output)?.[1];
  assert.ok(value !== undefined, `no ${name} in:\n${output}`);
  return value;
};

// The first two commands run the binary in a process of its own (exit codes, streams); the rest run its entry
// in-process (runCliInProcess): the same code on the same data directory, without a process start each.
describe('veriport admin', () => {
  it('manages customers, clients and API keys whose secrets work on the token endpoint', async () => {
    const env = { VERIPORT_DATA_DIR: dataDir };
    const created = await runCli(['admin', 'customers', 'create', 'acme', '--display-name', 'ACME Corp'], env);
    assert.equal(created.code, 0, created.stderr);
    const duplicate = await runCli(['admin', 'customers', 'create', 'acme'], env);
    assert.equal(duplicate.code, 2);
    assert.match(duplicate.stderr, /exists already/);
    const client = await runCliInProcess(['admin', 'clients', 'create', 'acme', 'acme-app'], env);
    assert.equal(client.code, 0, client.stderr);
    const secret = field(client.stdout, 'client_secret');
    const key = await runCliInProcess(['admin', 'apikeys', 'create', 'acme'], env);
    assert.match(field(key.stdout, 'apikey'), new RegExp(`^${field(key.stdout, 'key_id')}\\.`));
    assert.equal((await runCliInProcess(['admin', 'customers', 'list'], env)).stdout, 'acme\tACME Corp\n');
    const bad = await runCliInProcess(['admin', 'clients', 'frobnicate', 'acme'], env);
    assert.equal(bad.code, 2);

    const server = await startServer(env, ['onboarding']);
    const call = (url: string, clientSecret: string) =>
      fetch(`${url}/auth/realms/acme-consumers/protocol/openid-connect/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: 'openid',
          client_id: 'acme-app',
          client_secret: clientSecret,
        }),
      });
    let current = server.url;
    const token = (clientSecret: string) => call(current, clientSecret);
    try {
      assert.equal((await token(secret)).status, 200);
    } finally {
      assert.equal(await server.stop(), 0);
    }
    // A customer existed already, so no demo customer was made.
    assert.equal((await runCliInProcess(['admin', 'customers', 'list'], env)).stdout, 'acme\tACME Corp\n');

    const rotated = await runCliInProcess(['admin', 'clients', 'rotate', 'acme', 'acme-app'], env);
    const newSecret = field(rotated.stdout, 'client_secret');
    assert.notEqual(newSecret, secret);
    const again = await startServer(env, ['onboarding']);
    current = again.url;
    try {
      assert.equal((await token(secret)).status, 401);
      assert.equal((await token(newSecret)).status, 200);
    } finally {
      assert.equal(await again.stop(), 0);
    }
    assert.equal((await runCliInProcess(['admin', 'clients', 'revoke', 'acme', 'acme-app'], env)).code, 0);
  });

  it('rotates the token signing key; tokens signed before stay verifiable through the JWKS', async () => {
    const env = { VERIPORT_DATA_DIR: keysDir };
    assert.equal((await runCliInProcess(['admin', 'customers', 'create', 'acme'], env)).code, 0);
    const secret = field(
      (await runCliInProcess(['admin', 'clients', 'create', 'acme', 'acme-app'], env)).stdout,
      'client_secret',
    );
    const realm = '/auth/realms/acme-consumers/protocol/openid-connect';
    const accessToken = async (url: string): Promise<string> => {
      const body = new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'acme-app',
        client_secret: secret,
      });
      const response = await fetch(`${url}${realm}/token`, { method: 'POST', body });
      assert.equal(response.status, 200);
      return ((await response.json()) as { access_token: string }).access_token;
    };

    const first = await startServer(env, ['onboarding']);
    let before: string;
    try {
      before = await accessToken(first.url);
    } finally {
      assert.equal(await first.stop(), 0);
    }
    const oldKid = decodeProtectedHeader(before).kid;

    const rotation = await runCliInProcess(['admin', 'rotate-signing-key'], env);
    assert.equal(rotation.code, 0, rotation.stderr);
    const newKid = field(rotation.stdout, 'kid');
    assert.equal(field(rotation.stdout, 'retired_kid'), oldKid);
    assert.notEqual(newKid, oldKid);
    assert.equal((await runCliInProcess(['admin', 'rotate-signing-key', 'now'], env)).code, 2);

    const second = await startServer(env, ['onboarding']);
    try {
      const after = await accessToken(second.url);
      assert.equal(decodeProtectedHeader(after).kid, newKid);
      const keySet = createRemoteJWKSet(new URL(`${second.url}${realm}/certs`));
      for (const token of [before, after])
        await jwtVerify(token, keySet, { audience: 'veriport-onboarding', algorithms: ['RS256'] });
    } finally {
      assert.equal(await second.stop(), 0);
    }
  });

  it('makes a demo customer on the first start of an empty embedded store', async () => {
    const server = await startServer({ VERIPORT_DATA_DIR: demoDir }, ['onboarding']);
    assert.equal(await server.stop(), 0);
    const list = await runCliInProcess(['admin', 'customers', 'list'], { VERIPORT_DATA_DIR: demoDir });
    assert.equal(list.stdout, 'demo\tDemo customer\n');
    assert.match(
      (await runCliInProcess(['admin', 'clients', 'list', 'demo'], { VERIPORT_DATA_DIR: demoDir })).stdout,
      /^demo-client\tactive\n$/,
    );
  });

  it("shows and sets a customer's onboarding policy, refusing bad settings", async () => {
    const env = { VERIPORT_DATA_DIR: demoDir };
    assert.match(
      (await runCliInProcess(['admin', 'policy', 'show', 'demo'], env)).stdout,
      /^finalCheck=verifyFace\nlivenessWorkflow=hotel2\nmatchFmrScore=3\nmaxAttempts=3\n$/,
    );
    const set = await runCliInProcess(['admin', 'policy', 'set', 'demo', 'workflow=foxtrot4', 'max-attempts=5'], env);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /livenessWorkflow=foxtrot4\nmatchFmrScore=3\nmaxAttempts=5/);
    for (const bad of [
      'workflow=active_up',
      'workflow=zulu9',
      'match-fmr-score=0',
      'max-attempts=2.5',
      'colour=blue',
    ]) {
      const refused = await runCliInProcess(['admin', 'policy', 'set', 'demo', bad], env);
      assert.equal(refused.code, 2, `${bad}: ${refused.stdout}`);
    }
    assert.equal((await runCliInProcess(['admin', 'policy', 'show', 'nobody'], env)).code, 2);
  });
});
