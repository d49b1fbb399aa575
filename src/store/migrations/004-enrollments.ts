import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * Onboarding users (device-bound face enrollment), enrollments and authentications in progress, the
 * per-customer policy and the audit log. Tokens and registration codes are kept only as SHA-256 hex
 * (they are 256-bit random values); face templates and HMAC device secrets only sealed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('onboarding_users')
    .$call(withUserColumns)
    .addColumn('device_id', 'text', (c) => c.notNull())
    // 'p256', 'ed25519' (public key PEM in device_key) or 'hmac' (sealed secret in device_key).
    .addColumn('device_key_kind', 'text', (c) => c.notNull())
    .addColumn('device_key', 'bytea', (c) => c.notNull())
    .addColumn('sealed_face_template', 'bytea', (c) => c.notNull())
    .addColumn('registration_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('enrolled_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('onboarding_users_pk', ['customer', 'username'])
    .execute();
  await db.schema
    .createTable('onboarding_enrollments')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .$call(withUserColumns)
    // The user's registration code hash was presented at enroll (re-enrollment without a face match).
    .addColumn('code_presented', 'boolean', (c) => c.notNull().defaultTo(false))
    // started -> pending (device added) -> complete | failed; superseded by a newer enroll of the user.
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text')
    .addColumn('device_key_kind', 'text')
    .addColumn('device_key', 'bytea')
    .addColumn('face_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('onboarding_enrollments_user')
    .on('onboarding_enrollments')
    .columns(['customer', 'username'])
    .execute();
  await db.schema
    .createTable('onboarding_authentications')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('customer', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('device_id', 'text', (c) => c.notNull())
    // The final check after verifyDevice: verifyFace or deviceSecurity (the customer's policy then).
    .addColumn('final_check', 'text', (c) => c.notNull())
    // started -> device-verified -> complete | failed
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addForeignKeyConstraint(
      'onboarding_authentications_user',
      ['customer', 'username'],
      'onboarding_users',
      ['customer', 'username'],
      (c) => c.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createTable('onboarding_policies')
    .addColumn('customer', 'text', (c) => c.primaryKey().references('customers.name').onDelete('cascade'))
    .addColumn('final_check', 'text', (c) => c.notNull())
    .addColumn('liveness_workflow', 'text', (c) => c.notNull())
    .addColumn('match_fmr_score', 'double precision', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('onboarding_events')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('customer', 'text', (c) => c.notNull())
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('device_id', 'text')
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('onboarding_events_user')
    .on('onboarding_events')
    .columns(['customer', 'username', 'at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'onboarding_events',
    'onboarding_policies',
    'onboarding_authentications',
    'onboarding_enrollments',
    'onboarding_users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}

/** Who the user is, as `enroll` gave it: on the enrollment first, then on the user. */
function withUserColumns<T extends string, C extends string>(
  table: CreateTableBuilder<T, C>,
): CreateTableBuilder<T, C | 'customer' | 'username' | 'email' | 'phone_number' | 'first_name' | 'last_name'> {
  return table
    .addColumn('customer', 'text', (c) => c.notNull().references('customers.name').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('phone_number', 'text', (c) => c.notNull())
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text');
}
