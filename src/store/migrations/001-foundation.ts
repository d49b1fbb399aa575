import { sql, type Kysely } from 'kysely';

/** Usage counters and server key pairs. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('usage_counters')
    .addColumn('server_name', 'text', (c) => c.notNull())
    .addColumn('year', 'integer', (c) => c.notNull())
    .addColumn('month', 'integer', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('usage_counters_pk', ['server_name', 'year', 'month', 'endpoint'])
    .execute();
  await db.schema
    .createTable('server_keys')
    .addColumn('purpose', 'text', (c) => c.primaryKey())
    .addColumn('key_id', 'text', (c) => c.notNull())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('private_key_pem', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('server_keys').execute();
  await db.schema.dropTable('usage_counters').execute();
}
