import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type Dialect } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import { lockDirectory } from './directory-lock.js';
import { migrationProvider } from './migrations/index.js';
import type { Database } from './schema.js';

/** Where the data lives: the embedded PGlite default or a PostgreSQL server shared by replicas. */
export type StoreOptions =
  | {
      readonly kind: 'pglite';
      readonly dataDir: string;
      /** For `memory://`: a dump (migratedStoreDump) to start from instead of an empty database. */
      readonly from?: Blob;
    }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      readonly schema?: string | undefined;
      readonly poolSize?: number;
    };

/** An open, migrated database. */
export interface Store {
  readonly db: Kysely<Database>;
  readonly kind: StoreOptions['kind'];
  /** Resolves when a trivial query succeeds; used by the readiness probe. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the database and brings its schema up to date; both backends run the same migrations.
 * Concurrent starts against one PostgreSQL are safe: migrations run under an advisory lock.
 *
 * @example
 * const store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
 * await store.db.selectFrom('usage_counters').selectAll().execute();
 * await store.close();
 */
export async function openStore(options: StoreOptions): Promise<Store> {
  const { dialect, release } =
    options.kind === 'pglite'
      ? await pgliteDialect(options.dataDir, options.from)
      : { dialect: await postgresDialect(options), release: () => undefined };
  const db = new Kysely<Database>({ dialect });
  try {
    await migrate(db, options.kind === 'postgres' ? (options.schema ?? 'public') : 'public');
  } catch (error) {
    await db.destroy();
    release();
    throw error;
  }
  return {
    db,
    kind: options.kind,
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
      release();
    },
  };
}

async function migrate(db: Kysely<Database>, schema: string): Promise<void> {
  // Kysely's own lock lives in a table it creates on first run, and two replicas starting on an empty
  // database race to create it; a session advisory lock around the whole run serialises them.
  const { error, results } = await db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext('veriport.migrations'))`.execute(connection);
    try {
      // The schema is named because Kysely looks its tables up by name across all schemas.
      return await new Migrator({
        db: connection,
        provider: migrationProvider,
        migrationTableSchema: schema,
      }).migrateToLatest();
    } finally {
      await sql`select pg_advisory_unlock(hashtext('veriport.migrations'))`.execute(connection);
    }
  });
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    const reason = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
    throw new Error(`database migration ${failed} failed: ${reason}`);
  }
}

/**
 * An empty, migrated in-memory store as a PGlite dump. A new PGlite database runs initdb (seconds); one
 * loaded from this dump starts in a fraction of that with the migrations already applied, so tests that
 * open a fresh store per case open each from one dump made per process.
 *
 * @example
 * const dump = await migratedStoreDump();
 * const store = await openStore({ kind: 'pglite', dataDir: 'memory://', from: dump });
 */
export async function migratedStoreDump(): Promise<Blob> {
  const pglite = await PGlite.create();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  try {
    await migrate(db, 'public');
    return await pglite.dumpDataDir('none');
  } finally {
    await db.destroy();
  }
}

async function pgliteDialect(dataDir: string, from?: Blob): Promise<{ dialect: Dialect; release: () => void }> {
  if (dataDir === 'memory://') {
    const pglite = await PGlite.create(from === undefined ? {} : { loadDataDir: from });
    return { dialect: new PGliteDialect(pglite), release: () => undefined };
  }
  const directory = path.resolve(dataDir, 'pglite');
  mkdirSync(directory, { recursive: true });
  const release = lockDirectory(path.resolve(dataDir));
  try {
    return { dialect: new PGliteDialect(await PGlite.create(directory)), release };
  } catch (error) {
    release();
    throw error;
  }
}

async function postgresDialect(options: Extract<StoreOptions, { kind: 'postgres' }>): Promise<Dialect> {
  // Bigint counters come back as strings; repositories convert them (they stay below 2^53).
  const poolConfig: pg.PoolConfig = { connectionString: options.url, max: options.poolSize ?? 10 };
  if (options.schema !== undefined) {
    await createSchema(options.url, options.schema);
    poolConfig.options = `-c search_path=${options.schema}`;
  }
  return new PostgresDialect({ pool: new pg.Pool(poolConfig) });
}

async function createSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The name is validated as an identifier by the configuration; quoting keeps it literal anyway.
    await client.query(`create schema if not exists "${schema}"`);
  } catch (error) {
    // Two replicas starting together can both try to create it; the loser sees a duplicate.
    const code = (error as { code?: string }).code;
    if (code !== '23505' && code !== '42P06') throw error;
  } finally {
    await client.end();
  }
}
