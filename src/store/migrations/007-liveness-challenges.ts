import type { Kysely } from 'kysely';

/**
 * Server-issued liveness challenges (issue 16): a single-use nonce with what the request carrying it must
 * show (the workflow, a screen-colour sequence, head moves). Kept per customer like every scoped row
 * (`customer` leads the primary key; `''` is the namespace of a server without authentication), the nonce
 * only as its SHA-256 hex. `consumed_at` is set once, by one conditional UPDATE, so a nonce is used once
 * whichever replica receives the requests.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('liveness_challenges')
    .addColumn('customer', 'text', (c) => c.notNull())
    .addColumn('nonce_hash', 'text', (c) => c.notNull())
    // face-liveness, onboarding-enrollment or onboarding-authentication: where the nonce may be used.
    .addColumn('purpose', 'text', (c) => c.notNull())
    // Onboarding: the hash of the enrollmentToken or authToken it was issued for; '' for face liveness.
    .addColumn('subject', 'text', (c) => c.notNull().defaultTo(''))
    // The passive workflow the request must name (charlie4, hotel2, ...).
    .addColumn('workflow', 'text', (c) => c.notNull())
    // Comma-separated screen-colour tags (charlie) and active workflows (checkActiveLiveness); '' for none.
    .addColumn('screen_colours', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('active_workflows', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .addPrimaryKeyConstraint('liveness_challenges_pk', ['customer', 'nonce_hash'])
    .execute();
  // The open-challenge count and the purge of old rows read by customer and expiry.
  await db.schema
    .createIndex('liveness_challenges_expiry')
    .on('liveness_challenges')
    .columns(['customer', 'expires_at'])
    .execute();
  // A new onboarding challenge replaces the open ones of its enrollment or authentication.
  await db.schema
    .createIndex('liveness_challenges_subject')
    .on('liveness_challenges')
    .columns(['customer', 'purpose', 'subject'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('liveness_challenges').execute();
}
