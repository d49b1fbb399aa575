import { sql, type Kysely } from 'kysely';

/**
 * The device-security profile of onboarding (Doc 1 endpoints 6 and 13, issue 18): the device signals a
 * collector posted, found by the SHA-256 of the `apSessionId` they were answered with (kept after use so a
 * replay is told apart from an unknown id); each check's observation of a device for a user (trust and
 * velocity); the customer's device policy. All of it dies with its customer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('device_profiles')
    // SHA-256 hex of the apSessionId.
    .addColumn('session_hash', 'text', (c) => c.primaryKey())
    .addColumn('customer', 'text', (c) => c.notNull().references('customers.name').onDelete('cascade'))
    // The signals as posted (JSON, schema-checked), and the source address of the post (the device's own).
    .addColumn('signals', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    // Set by the first checkDevice that used it; a later one is a replay.
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('device_profiles_age')
    .on('device_profiles')
    .columns(['customer', 'created_at'])
    .execute();
  await db.schema
    .createTable('device_observations')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('customer', 'text', (c) => c.notNull().references('customers.name').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    // SHA-256 hex of the device identifier (the fingerprint's visitorId).
    .addColumn('device_hash', 'text', (c) => c.notNull())
    // 'enroll' or 'authenticate', and the SHA-256 hex of that flow's token.
    .addColumn('flow', 'text', (c) => c.notNull())
    .addColumn('flow_token_hash', 'text', (c) => c.notNull())
    // approve, review or reject.
    .addColumn('decision', 'text', (c) => c.notNull())
    // The flow proved the user (an approved authentication after verifyDevice); an enrollment's observation
    // counts once that enrollment completed.
    .addColumn('confirmed', 'boolean', (c) => c.notNull().defaultTo(false))
    // Coarse position of the address (city databases only), for test.credentialLTE500mi1hr.
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('device_observations_user')
    .on('device_observations')
    .columns(['customer', 'username', 'at'])
    .execute();
  await db.schema
    .createIndex('device_observations_device')
    .on('device_observations')
    .columns(['customer', 'device_hash', 'at'])
    .execute();
  await db.schema
    .createTable('device_policies')
    .addColumn('customer', 'text', (c) => c.primaryKey().references('customers.name').onDelete('cascade'))
    // The policy as JSON (src/engines/device/device-policy.ts), read back through its parser.
    .addColumn('policy', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['device_policies', 'device_observations', 'device_profiles'])
    await db.schema.dropTable(table).execute();
}
