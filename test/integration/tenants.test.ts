import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { customersRepository, CustomerError } from '../../src/store/customers.js';
import { signingKeysRepository } from '../../src/store/signing-keys.js';
import { storeBackends, withStore } from '../helpers/stores.js';

for (const backend of storeBackends()) {
  describe(`tenants on ${backend.name}`, () => {
    it('creates customers, clients and API keys, storing no secret in clear', async () => {
      await withStore(backend, async (store) => {
        const customers = customersRepository(store.db);
        assert.equal(await customers.count(), 0);
        assert.deepEqual(await customers.create({ name: 'acme', displayName: 'ACME' }), {
          name: 'acme',
          displayName: 'ACME',
          logo: '',
        });
        await assert.rejects(customers.create({ name: 'acme' }), CustomerError);
        await assert.rejects(customers.create({ name: 'Bad Name' }), CustomerError);
        await assert.rejects(customers.createClient('nobody'), CustomerError);
        await customers.create({ name: 'globex' });
        assert.deepEqual(
          (await customers.list()).map((c) => c.name),
          ['acme', 'globex'],
        );

        const client = await customers.createClient('acme', 'acme-app');
        await assert.rejects(customers.createClient('globex', 'acme-app'), CustomerError);
        assert.equal(await customers.authenticateClient('acme-app', client.clientSecret), 'acme');
        assert.equal(await customers.authenticateClient('acme-app', 'wrong'), undefined);
        assert.equal(await customers.authenticateClient('ghost', client.clientSecret), undefined);
        const stored = await store.db.selectFrom('oidc_clients').select('secret_hash').executeTakeFirstOrThrow();
        assert.ok(stored.secret_hash.startsWith('scrypt$') && !stored.secret_hash.includes(client.clientSecret));

        assert.equal(
          await customers.rotateClient('globex', 'acme-app'),
          undefined,
          'another customer cannot rotate it',
        );
        const rotated = await customers.rotateClient('acme', 'acme-app');
        assert.ok(rotated !== undefined);
        assert.equal(await customers.authenticateClient('acme-app', client.clientSecret), undefined);
        assert.equal(await customers.authenticateClient('acme-app', rotated.clientSecret), 'acme');
        assert.equal(await customers.revokeClient('acme', 'acme-app'), true);
        assert.equal(await customers.authenticateClient('acme-app', rotated.clientSecret), undefined);
        assert.deepEqual(
          (await customers.listClients('acme')).map((c) => [c.clientId, c.revoked]),
          [['acme-app', true]],
        );

        const key = await customers.createApiKey('acme');
        assert.ok(key.apiKey.startsWith(`${key.keyId}.`));
        assert.equal(await customers.customerOfApiKey(key.apiKey), 'acme');
        assert.equal(await customers.customerOfApiKey(`${key.keyId}.guess`), undefined);
        const keyRow = await store.db.selectFrom('api_keys').selectAll().executeTakeFirstOrThrow();
        assert.equal(keyRow.key_hash.length, 64);
        assert.equal(await customers.revokeApiKey('globex', key.keyId), false);
        assert.equal(await customers.revokeApiKey('acme', key.keyId), true);
        assert.equal(await customers.customerOfApiKey(key.apiKey), undefined);
        assert.deepEqual(
          (await customers.listApiKeys('acme')).map((k) => [k.keyId, k.revoked]),
          [[key.keyId, true]],
        );
      });
    });

    it('rotates signing keys and keeps retired ones published for a while', async () => {
      await withStore(backend, async (store) => {
        const keys = signingKeysRepository(store.db);
        const first = await keys.active();
        assert.equal((await keys.active()).kid, first.kid, 'the active key is reused');
        const second = await keys.rotate();
        assert.notEqual(second.kid, first.kid);
        assert.equal((await keys.active()).kid, second.kid);
        const anHourAgo = new Date(Date.now() - 3_600_000);
        assert.deepEqual((await keys.published(anHourAgo)).map((k) => k.kid).sort(), [first.kid, second.kid].sort());
        assert.deepEqual(
          (await keys.published(new Date(Date.now() + 60_000))).map((k) => k.kid),
          [second.kid],
          'long-retired keys drop out',
        );
      });
    });
  });
}
