import { sql, type Kysely } from 'kysely';

/**
 * QR hand-over sessions of onboarding (Doc 1 endpoints 7-9, issue 18): a secondary application (the
 * operator's portal) triggers an enrollment or an authentication of one user of one customer, and the
 * user's phone takes it over by QR code. Like every onboarding secret, the session token, the
 * session-scoped API key, the access token issued at validation and the enrollment / authentication token
 * the session runs are kept only as SHA-256 hex (256-bit random values). Sessions die with their customer.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('onboarding_sessions')
    // SHA-256 hex of the sessionToken (the trigger's answer and the QR data).
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('customer', 'text', (c) => c.notNull().references('customers.name').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    // 'enroll' or 'authenticate' (validateSession's methodType).
    .addColumn('method', 'text', (c) => c.notNull())
    // SHA-256 hex of the session-scoped API key in the QR data: it opens only this session's calls.
    .addColumn('api_key_hash', 'text', (c) => c.notNull().unique())
    // created -> scanned -> started -> device-added | device-verified -> face-captured -> complete | failed;
    // superseded by a newer trigger of the same user and method while still created.
    .addColumn('state', 'text', (c) => c.notNull())
    // SHA-256 hex of the validating phone's source address and User-Agent (the retry allowance).
    .addColumn('phone_hash', 'text')
    .addColumn('validations', 'integer', (c) => c.notNull().defaultTo(0))
    // SHA-256 hex of the bearer token validateSession issued, and whether a call has used it yet.
    .addColumn('access_token_hash', 'text', (c) => c.unique())
    .addColumn('access_used', 'boolean', (c) => c.notNull().defaultTo(false))
    // SHA-256 hex of the enrollmentToken / authToken the session's phone runs.
    .addColumn('flow_token_hash', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // The sessionToken's end (trigger + VERIPORT_SESSION_TTL_SECONDS).
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    // The access token's end (validation + VERIPORT_SESSION_TTL_SECONDS).
    .addColumn('access_expires_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('onboarding_sessions_user')
    .on('onboarding_sessions')
    .columns(['customer', 'username', 'method'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('onboarding_sessions').execute();
}
