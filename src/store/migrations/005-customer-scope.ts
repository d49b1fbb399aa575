import { sql, type Kysely } from 'kysely';

/**
 * Caches, their templates and the usage counters are kept per customer (issue 14): a `customer` column
 * (`''`, the unscoped namespace of a server without authentication, for every existing row) joins each
 * table's primary key, so two customers may hold a cache of the same name and a customer's report sees only
 * its own rows.
 *
 * Safe on a populated database: adding a `not null default ''` column is a catalogue change on PostgreSQL 11+
 * (no table rewrite), the keys are rebuilt from the rows as they are, nothing is deleted, and every step runs
 * in the migrator's one transaction (all or nothing). Replicas of the previous version lose their
 * `ON CONFLICT` targets once this has run: upgrade every replica together (docs/decisions.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The templates' foreign key depends on the caches' primary key: it goes first and comes back last.
  await db.schema.alterTable('biometric_templates').dropConstraint('biometric_templates_cache_fk').execute();
  await db.schema.alterTable('biometric_templates').dropConstraint('biometric_templates_pk').execute();
  await db.schema.alterTable('biometric_caches').dropConstraint('biometric_caches_pk').execute();
  await db.schema.alterTable('usage_counters').dropConstraint('usage_counters_pk').execute();

  for (const table of ['biometric_caches', 'biometric_templates', 'usage_counters'])
    await db.schema
      .alterTable(table)
      .addColumn('customer', 'text', (c) => c.notNull().defaultTo(''))
      .execute();

  await db.schema
    .alterTable('biometric_caches')
    .addPrimaryKeyConstraint('biometric_caches_pk', ['service', 'customer', 'cache_name'])
    .execute();
  await db.schema
    .alterTable('biometric_templates')
    .addPrimaryKeyConstraint('biometric_templates_pk', [
      'service',
      'customer',
      'cache_name',
      'encounter_id',
      'algorithm',
    ])
    .execute();
  await db.schema
    .alterTable('biometric_templates')
    .addForeignKeyConstraint(
      'biometric_templates_cache_fk',
      ['service', 'customer', 'cache_name'],
      'biometric_caches',
      ['service', 'customer', 'cache_name'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  // Reports read by server, year and month (an administrator's sums every customer's rows): customer last.
  await db.schema
    .alterTable('usage_counters')
    .addPrimaryKeyConstraint('usage_counters_pk', ['server_name', 'year', 'month', 'endpoint', 'customer'])
    .execute();
  // A customer's own report.
  await db.schema
    .createIndex('usage_counters_customer')
    .on('usage_counters')
    .columns(['customer', 'server_name', 'year', 'month'])
    .execute();
}

/**
 * Back to one namespace; refused while any row belongs to a customer, since merging customers' caches or
 * counters into one namespace would hand one customer's data to every caller.
 */
export async function down(db: Kysely<unknown>): Promise<void> {
  const scoped = await sql<{ n: number }>`
    select (select count(*) from biometric_caches where customer <> '')
         + (select count(*) from usage_counters where customer <> '') as n`.execute(db);
  if (Number(scoped.rows[0]?.n ?? 0) > 0)
    throw new Error('customer-scoped caches or usage counters exist: remove them before going back to 004');

  await db.schema.dropIndex('usage_counters_customer').execute();
  await db.schema.alterTable('biometric_templates').dropConstraint('biometric_templates_cache_fk').execute();
  await db.schema.alterTable('biometric_templates').dropConstraint('biometric_templates_pk').execute();
  await db.schema.alterTable('biometric_caches').dropConstraint('biometric_caches_pk').execute();
  await db.schema.alterTable('usage_counters').dropConstraint('usage_counters_pk').execute();
  for (const table of ['biometric_caches', 'biometric_templates', 'usage_counters'])
    await db.schema.alterTable(table).dropColumn('customer').execute();
  await db.schema
    .alterTable('biometric_caches')
    .addPrimaryKeyConstraint('biometric_caches_pk', ['service', 'cache_name'])
    .execute();
  await db.schema
    .alterTable('biometric_templates')
    .addPrimaryKeyConstraint('biometric_templates_pk', ['service', 'cache_name', 'encounter_id', 'algorithm'])
    .execute();
  await db.schema
    .alterTable('biometric_templates')
    .addForeignKeyConstraint(
      'biometric_templates_cache_fk',
      ['service', 'cache_name'],
      'biometric_caches',
      ['service', 'cache_name'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .alterTable('usage_counters')
    .addPrimaryKeyConstraint('usage_counters_pk', ['server_name', 'year', 'month', 'endpoint'])
    .execute();
}
