import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { customersRepository } from '../../src/store/customers.js';
import { onboardingSessionsRepository, type SessionValidation } from '../../src/store/onboarding-sessions.js';
import { storeBackends, withStore } from '../helpers/stores.js';

const now = () => new Date();
const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000);

for (const backend of storeBackends()) {
  describe(`QR sessions repository on ${backend.name}`, () => {
    const open = (tokenHash: string, apiKeyHash: string, username = 'alice') => ({
      tokenHash,
      customer: 'acme',
      username,
      email: `${username}@example.com`,
      method: 'enroll' as const,
      apiKeyHash,
      expiresAt: inMinutes(5),
      now: now(),
    });
    const validation = (phoneHash: string, accessTokenHash: string): SessionValidation => ({
      apiKeyHash: 'k1',
      tokenHash: 's1',
      phoneHash,
      accessTokenHash,
      accessExpiresAt: inMinutes(5),
      now: now(),
      maxValidations: 3,
    });

    it('consumes a session token once, however many validations race (conditional update)', async () => {
      await withStore(backend, async (store) => {
        await customersRepository(store.db).create({ name: 'acme' });
        const sessions = onboardingSessionsRepository(store.db);
        await sessions.create(open('s1', 'k1'));
        const phones = Array.from({ length: 8 }, (_, i) => `phone-${i}`);
        const results = await Promise.all(phones.map((phone, i) => sessions.validate(validation(phone, `a${i}`))));
        const won = results.filter((r) => r !== undefined);
        assert.equal(won.length, 1, 'one phone wins');
        assert.equal(won[0]?.state, 'scanned');
        assert.equal((await sessions.find('acme', 's1'))?.accessTokenHash, won[0]?.accessTokenHash);
        assert.equal(await sessions.find('globex', 's1'), undefined, 'another customer does not see it');
      });
    });

    it('lets the same phone validate again until its token was used, up to the limit; refuses other keys and late ones', async () => {
      await withStore(backend, async (store) => {
        await customersRepository(store.db).create({ name: 'acme' });
        const sessions = onboardingSessionsRepository(store.db);
        await sessions.create(open('s1', 'k1'));
        assert.equal(await sessions.validate({ ...validation('p', 'a0'), apiKeyHash: 'k2' }), undefined);
        assert.equal(await sessions.validate({ ...validation('p', 'a0'), now: inMinutes(6) }), undefined, 'expired');
        assert.equal((await sessions.validate(validation('p', 'a1')))?.validations, 1);
        assert.equal(await sessions.validate(validation('other phone', 'a2')), undefined);
        assert.equal((await sessions.validate(validation('p', 'a3')))?.accessTokenHash, 'a3');
        assert.equal((await sessions.validate(validation('p', 'a4')))?.validations, 3);
        assert.equal(await sessions.validate(validation('p', 'a5')), undefined, 'the limit');

        await sessions.create(open('s2', 'k2', 'bob'));
        const second = { ...validation('p', 'b1'), apiKeyHash: 'k2', tokenHash: 's2' };
        assert.ok(await sessions.validate(second));
        await sessions.markAccessUsed('acme', 's2');
        assert.equal(await sessions.validate({ ...second, accessTokenHash: 'b2' }), undefined, 'used: no retry');
      });
    });

    it('supersedes an unscanned session of the same user and method, binds and advances only active ones', async () => {
      await withStore(backend, async (store) => {
        await customersRepository(store.db).create({ name: 'acme' });
        const sessions = onboardingSessionsRepository(store.db);
        await sessions.create(open('s1', 'k1'));
        await sessions.create(open('s2', 'k2'));
        assert.equal((await sessions.find('acme', 's1'))?.state, 'superseded');
        assert.equal(await sessions.bindFlow('acme', 's1', 'f1'), false, 'a superseded session takes no flow');
        assert.equal(await sessions.bindFlow('acme', 's2', 'f2'), false, 'nor an unvalidated one');
        assert.ok(await sessions.validate({ ...validation('p', 'a'), apiKeyHash: 'k2', tokenHash: 's2' }));
        assert.equal(await sessions.bindFlow('acme', 's2', 'f2'), true);
        assert.equal((await sessions.findByApiKey('k2'))?.flowTokenHash, 'f2');
        assert.equal(await sessions.advance('acme', 's2', 'complete'), true);
        assert.equal(await sessions.advance('acme', 's2', 'failed'), false, 'an ended session stays ended');
        // A new trigger leaves sessions in progress (or ended) alone.
        await sessions.create(open('s3', 'k3'));
        assert.equal((await sessions.find('acme', 's2'))?.state, 'complete');
      });
    });

    it('removes the sessions of a customer that ended a day ago when the customer triggers again', async () => {
      await withStore(backend, async (store) => {
        await customersRepository(store.db).create({ name: 'acme' });
        const sessions = onboardingSessionsRepository(store.db);
        await sessions.create({ ...open('old', 'k-old'), expiresAt: new Date(Date.now() - 25 * 3600_000) });
        await sessions.create({ ...open('recent', 'k-recent', 'bob'), expiresAt: new Date(Date.now() - 3600_000) });
        await sessions.create(open('new', 'k-new', 'carl'));
        assert.equal(await sessions.find('acme', 'old'), undefined);
        assert.ok(await sessions.find('acme', 'recent'));
      });
    });
  });
}
