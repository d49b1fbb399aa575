import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { customersRepository } from '../../src/store/customers.js';
import { onboardingAuthenticationsRepository } from '../../src/store/onboarding-authentications.js';
import { onboardingEnrollmentsRepository } from '../../src/store/onboarding-enrollments.js';
import { DEFAULT_ONBOARDING_POLICY, onboardingPoliciesRepository } from '../../src/store/onboarding-policies.js';
import { onboardingUsersRepository } from '../../src/store/onboarding-users.js';
import { storeBackends, withStore } from '../helpers/stores.js';

const later = () => new Date(Date.now() + 60_000);
const alice = {
  username: 'alice',
  email: 'alice@example.com',
  phoneNumber: '+15550100',
  firstName: 'Alice',
  lastName: undefined,
};
const device = (deviceId: string) => ({ deviceId, keyKind: 'p256' as const, key: Buffer.from(`pem of ${deviceId}`) });

for (const backend of storeBackends()) {
  describe(`onboarding repositories on ${backend.name}`, () => {
    it('advances an enrollment once, however many calls race, and writes the user on completion', async () => {
      await withStore(backend, async (store) => {
        await customersRepository(store.db).create({ name: 'acme' });
        const enrollments = onboardingEnrollmentsRepository(store.db);
        const users = onboardingUsersRepository(store.db);
        await enrollments.start({
          tokenHash: 'e1',
          customer: 'acme',
          user: alice,
          codePresented: false,
          expiresAt: later(),
        });
        assert.equal(await enrollments.find('globex', 'e1'), undefined, 'another customer does not see it');

        const bound = await Promise.all([
          enrollments.bindDevice('acme', 'e1', device('phone-1')),
          enrollments.bindDevice('acme', 'e1', device('phone-2')),
        ]);
        assert.deepEqual(bound.filter(Boolean).length, 1);
        const pending = await enrollments.find('acme', 'e1');
        assert.equal(pending?.state, 'pending');

        const completed = {
          device: pending.device!,
          sealedFaceTemplate: Buffer.from([1, 2, 3]),
          registrationCodeHash: 'code-1',
        };
        const done = await Promise.all([
          enrollments.complete('acme', 'e1', completed, new Date()),
          enrollments.complete('acme', 'e1', { ...completed, registrationCodeHash: 'code-2' }, new Date()),
        ]);
        assert.equal(done.filter(Boolean).length, 1);
        const user = await users.findByRegistrationCode('acme', done[0] ? 'code-1' : 'code-2');
        assert.equal(user?.device.deviceId, pending.device!.deviceId);
        assert.equal(user?.username, 'alice');
        assert.equal(user?.firstName, 'Alice');
        assert.equal(user?.lastName, undefined);
        assert.deepEqual([...user.sealedFaceTemplate], [1, 2, 3]);
      });
    });

    it('supersedes an open enrollment of the same user, counts failed faces up to the limit, and re-enrollment ends open authentications', async () => {
      await withStore(backend, async (store) => {
        await customersRepository(store.db).create({ name: 'acme' });
        const enrollments = onboardingEnrollmentsRepository(store.db);
        const authentications = onboardingAuthenticationsRepository(store.db);
        await enrollments.start({
          tokenHash: 'old',
          customer: 'acme',
          user: alice,
          codePresented: false,
          expiresAt: later(),
        });
        await enrollments.start({
          tokenHash: 'new',
          customer: 'acme',
          user: alice,
          codePresented: false,
          expiresAt: later(),
        });
        assert.equal((await enrollments.find('acme', 'old'))?.state, 'superseded');
        assert.equal(await enrollments.bindDevice('acme', 'old', device('x')), false);

        await enrollments.bindDevice('acme', 'new', device('phone-1'));
        assert.deepEqual(await enrollments.recordFailedFace('acme', 'new', 2), { state: 'pending', faceAttempts: 1 });
        assert.deepEqual(await enrollments.recordFailedFace('acme', 'new', 2), { state: 'failed', faceAttempts: 2 });
        assert.equal(await enrollments.recordFailedFace('acme', 'new', 2), undefined);

        await enrollments.start({
          tokenHash: 'third',
          customer: 'acme',
          user: alice,
          codePresented: false,
          expiresAt: later(),
        });
        await enrollments.bindDevice('acme', 'third', device('phone-1'));
        await enrollments.complete(
          'acme',
          'third',
          { device: device('phone-1'), sealedFaceTemplate: Buffer.from([9]), registrationCodeHash: 'c1' },
          new Date(),
        );
        await authentications.start({
          tokenHash: 'a1',
          customer: 'acme',
          username: 'alice',
          deviceId: 'phone-1',
          finalCheck: 'verifyFace',
          expiresAt: later(),
        });
        const raced = await Promise.all([
          authentications.advance('acme', 'a1', 'started', 'device-verified'),
          authentications.advance('acme', 'a1', 'started', 'device-verified'),
        ]);
        assert.equal(raced.filter(Boolean).length, 1);
        assert.deepEqual(await authentications.recordFailure('acme', 'a1', 'device-verified', 2), {
          state: 'device-verified',
          attempts: 1,
        });

        await enrollments.start({
          tokenHash: 'fourth',
          customer: 'acme',
          user: alice,
          codePresented: true,
          expiresAt: later(),
        });
        await enrollments.bindDevice('acme', 'fourth', device('phone-2'));
        await enrollments.complete(
          'acme',
          'fourth',
          { device: device('phone-2'), sealedFaceTemplate: Buffer.from([8]), registrationCodeHash: 'c2' },
          new Date(),
        );
        assert.equal(
          await authentications.find('acme', 'a1'),
          undefined,
          're-enrollment ends the authentications in progress',
        );
        const users = onboardingUsersRepository(store.db);
        assert.equal(await users.findByRegistrationCode('acme', 'c1'), undefined);
        assert.equal((await users.findByRegistrationCode('acme', 'c2'))?.device.deviceId, 'phone-2');
      });
    });

    it('keeps a policy per customer, defaults for the others', async () => {
      await withStore(backend, async (store) => {
        const customers = customersRepository(store.db);
        await customers.create({ name: 'acme' });
        await customers.create({ name: 'globex' });
        const policies = onboardingPoliciesRepository(store.db);
        assert.deepEqual(await policies.get('acme'), DEFAULT_ONBOARDING_POLICY);
        await policies.set('acme', { livenessWorkflow: 'foxtrot4', matchFmrScore: 4.5 });
        assert.deepEqual(await policies.get('acme'), {
          ...DEFAULT_ONBOARDING_POLICY,
          livenessWorkflow: 'foxtrot4',
          matchFmrScore: 4.5,
        });
        assert.deepEqual(await policies.get('globex'), DEFAULT_ONBOARDING_POLICY);
      });
    });
  });
}
