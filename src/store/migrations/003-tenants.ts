import { sql, type Kysely } from 'kysely';

/** Onboarding tenants: customers (realms), their OIDC clients and API keys, and the token signing keys. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('customers')
    // The realm id: `{name}-consumers` in the token path.
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('display_name', 'text', (c) => c.notNull())
    .addColumn('logo', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('oidc_clients')
    .addColumn('client_id', 'text', (c) => c.primaryKey())
    .addColumn('customer', 'text', (c) => c.notNull().references('customers.name').onDelete('cascade'))
    // scrypt$<salt b64>$<hash b64>: a client secret is chosen by people at times, so a slow hash.
    .addColumn('secret_hash', 'text', (c) => c.notNull())
    .addColumn('revoked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('api_keys')
    // Short non-secret id shown in listings and used to revoke.
    .addColumn('key_id', 'text', (c) => c.primaryKey())
    .addColumn('customer', 'text', (c) => c.notNull().references('customers.name').onDelete('cascade'))
    // SHA-256 hex of the 256-bit random key: high entropy, so a fast hash is enough.
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('revoked', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('token_signing_keys')
    .addColumn('kid', 'text', (c) => c.primaryKey())
    .addColumn('public_key_pem', 'text', (c) => c.notNull())
    .addColumn('private_key_pem', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Set when a newer key takes over signing; the key stays in the JWKS while its tokens may live.
    .addColumn('retired_at', 'timestamptz')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('token_signing_keys').execute();
  await db.schema.dropTable('api_keys').execute();
  await db.schema.dropTable('oidc_clients').execute();
  await db.schema.dropTable('customers').execute();
}
