import { sql, type Kysely } from 'kysely';

/** Caches of enrolled biometric encounters (face and voice matching), stored as sealed templates. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('biometric_caches')
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('cache_name', 'text', (c) => c.notNull())
    // Bumped by every change, so a replica knows when its in-memory gallery is stale.
    .addColumn('generation', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('biometric_caches_pk', ['service', 'cache_name'])
    .execute();
  await db.schema
    .createTable('biometric_templates')
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('cache_name', 'text', (c) => c.notNull())
    .addColumn('encounter_id', 'text', (c) => c.notNull())
    .addColumn('algorithm', 'text', (c) => c.notNull())
    .addColumn('sealed_template', 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('biometric_templates_pk', ['service', 'cache_name', 'encounter_id', 'algorithm'])
    .addForeignKeyConstraint(
      'biometric_templates_cache_fk',
      ['service', 'cache_name'],
      'biometric_caches',
      ['service', 'cache_name'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('biometric_templates').execute();
  await db.schema.dropTable('biometric_caches').execute();
}
