import type { Kysely } from 'kysely';
import { DEFAULT_DEVICE_POLICY, parseDevicePolicy, type DevicePolicy } from '../engines/device/device-policy.js';
import type { Database } from './schema.js';

/** Per-customer device-security policies (docs/onboarding.md, "Device security"). */
export interface DevicePoliciesRepository {
  /** The customer's policy, or the default. */
  get(customer: string): Promise<DevicePolicy>;
  /** Replaces the customer's policy. */
  set(customer: string, policy: DevicePolicy): Promise<void>;
}

/**
 * Creates the repository over an open database. A stored policy is read back through the policy's parser,
 * so a row changed by hand that no longer parses fails loudly instead of weakening the checks.
 *
 * @example
 * await devicePoliciesRepository(store.db).set('acme', parseDevicePolicy({ denyIps: ['198.51.100.0/24'] }));
 */
export function devicePoliciesRepository(db: Kysely<Database>): DevicePoliciesRepository {
  return {
    async get(customer) {
      const row = await db
        .selectFrom('device_policies')
        .select('policy')
        .where('customer', '=', customer)
        .executeTakeFirst();
      return row === undefined ? DEFAULT_DEVICE_POLICY : parseDevicePolicy(JSON.parse(row.policy) as unknown);
    },
    async set(customer, policy) {
      const text = JSON.stringify(policy);
      await db
        .insertInto('device_policies')
        .values({ customer, policy: text })
        .onConflict((oc) => oc.column('customer').doUpdateSet({ policy: text, updated_at: new Date() }))
        .execute();
    },
  };
}
