import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AdminKeyError, adminKeysCommand } from '../../../src/cli/admin-keys.js';
import type { AdminKeyListing, AdminKeysRepository } from '../../../src/store/admin-keys.js';

/** A repository in memory (the store's own is tested through HTTP and the CLI). */
function memoryKeys(): AdminKeysRepository {
  const keys: AdminKeyListing[] = [];
  return {
    create(label = '') {
      const keyId = `id${keys.length}`;
      keys.push({ keyId, label, revoked: false, createdAt: new Date(0) });
      return Promise.resolve({ keyId, apiKey: `veriport_admin_${keyId}.secret`, label });
    },
    revoke(keyId) {
      const index = keys.findIndex((k) => k.keyId === keyId);
      const key = keys[index];
      if (key !== undefined) keys[index] = { ...key, revoked: true };
      return Promise.resolve(key !== undefined);
    },
    list: () => Promise.resolve([...keys]),
    keyIdOf: () => Promise.resolve(undefined),
  };
}

describe('veriport admin admin-keys', () => {
  it('prints a new key once, lists ids, states and labels, and revokes by id', async () => {
    const keys = memoryKeys();
    const created = await adminKeysCommand(keys, ['create', 'ops on-call']);
    assert.match(created, /^key_id=id0\nadmin_key=veriport_admin_id0\.secret\n/);
    assert.equal(await adminKeysCommand(keys, ['revoke', 'id0']), 'admin key id0 revoked\n');
    const listed = await adminKeysCommand(keys, ['list']);
    assert.equal(listed, 'id0\trevoked\t1970-01-01T00:00:00.000Z\tops on-call\n');
    assert.ok(!listed.includes('secret'));
  });

  it('refuses unknown ids, labels of several lines and malformed command lines', async () => {
    const keys = memoryKeys();
    const refused = (args: string[], why: RegExp) =>
      assert.rejects(adminKeysCommand(keys, args), (e: unknown) => e instanceof AdminKeyError && why.test(e.message));
    await refused(['revoke', 'nope'], /no admin key 'nope'/);
    await refused(['revoke'], /needs <key id>/);
    await refused(['create', 'two\nlines'], /one line/);
    await refused(['create', 'x'.repeat(101)], /at most 100/);
    await refused(['list', 'extra'], /no arguments/);
    await refused(['rotate'], /unknown admin-keys command/);
    assert.deepEqual(await keys.list(), []);
  });
});
