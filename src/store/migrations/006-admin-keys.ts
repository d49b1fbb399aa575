import { sql, type Kysely } from 'kysely';

/**
 * The operator's admin API keys (issue 14): kept like customer API keys, as the SHA-256 hex of the key,
 * found by their non-secret id. They belong to no customer, so they have a table of their own.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('admin_api_keys')
    // Short non-secret id shown in listings and used to revoke.
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    // SHA-256 hex of the whole key (prefix, id and 256 random bits).
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    // Whom the operator gave it to, as given to `veriport admin admin-keys create`.
    .addColumn('label', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('revoked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('admin_api_keys').execute();
}
