import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { policyCommand, PolicyUsageError } from '../../src/cli/admin-policy.js';
import { customersRepository } from '../../src/store/customers.js';
import { openStore, type Store } from '../../src/store/database.js';
import { devicePoliciesRepository } from '../../src/store/device-policies.js';
import { onboardingPoliciesRepository } from '../../src/store/onboarding-policies.js';

const dir = mkdtempSync(join(tmpdir(), 'veriport-policy-'));
let store: Store;
let run: (args: string[]) => Promise<string>;

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  const customers = customersRepository(store.db);
  await customers.create({ name: 'acme' });
  run = (args) =>
    policyCommand(customers, onboardingPoliciesRepository(store.db), args, devicePoliciesRepository(store.db));
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('veriport admin policy: final check and device policy', () => {
  it('sets the final check that authenticate requires', async () => {
    assert.match(await run(['set', 'acme', 'final-check=deviceSecurity']), /^finalCheck=deviceSecurity$/m);
    assert.equal((await onboardingPoliciesRepository(store.db).get('acme')).finalCheck, 'deviceSecurity');
    await assert.rejects(run(['set', 'acme', 'final-check=selfie']), PolicyUsageError);
  });

  it('shows the default device policy, sets one from a JSON file, refuses a bad file', async () => {
    const shown = JSON.parse(await run(['device', 'acme'])) as { rules: Record<string, string>; denyIps: string[] };
    assert.equal(shown.rules['detect.tor'], 'reject');
    assert.deepEqual(shown.denyIps, []);
    const file = join(dir, 'policy.json');
    writeFileSync(file, JSON.stringify({ rules: { 'test.trustedDevice': 'review' }, denyIps: ['203.0.113.0/24'] }));
    const set = JSON.parse(await run(['device', 'acme', file])) as typeof shown;
    assert.equal(set.rules['test.trustedDevice'], 'review');
    assert.equal(set.rules['detect.tor'], 'reject');
    assert.deepEqual((await devicePoliciesRepository(store.db).get('acme')).denyIps, ['203.0.113.0/24']);
    writeFileSync(file, JSON.stringify({ rules: { 'detect.malware': 'reject' } }));
    await assert.rejects(run(['device', 'acme', file]), /detect\.malware' is not an assertion Veriport derives/);
    writeFileSync(file, '{ not json');
    await assert.rejects(run(['device', 'acme', file]), /not a readable JSON file/);
    await assert.rejects(run(['device', 'nobody']), /no customer 'nobody'/);
    assert.deepEqual((await devicePoliciesRepository(store.db).get('acme')).denyIps, ['203.0.113.0/24'], 'unchanged');
  });
});
