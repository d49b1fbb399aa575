import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { customersRepository } from '../../src/store/customers.js';
import { migratedStoreDump, openStore, type Store, type StoreOptions } from '../../src/store/database.js';

/** A backend the store tests run against: PGlite always, PostgreSQL when DATABASE_URL is set. */
export interface StoreBackend {
  readonly name: string;
  open(): Promise<Store>;
}

/** A fresh schema name, so parallel or repeated runs against one PostgreSQL never see each other's rows. */
export function uniqueSchema(): string {
  return `veriport_test_${randomBytes(6).toString('hex')}`;
}

/** Drops a schema made by {@link uniqueSchema}. */
export async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${schema}" cascade`);
  } finally {
    await client.end();
  }
}

let dump: Promise<Blob> | undefined;

/** The process's one dump of an empty, migrated in-memory store (migratedStoreDump), made on first use. */
export function storeDump(): Promise<Blob> {
  return (dump ??= migratedStoreDump());
}

/**
 * The backends to run store tests on. Each `open()` gives an empty, migrated store; PostgreSQL stores
 * live in their own schema, dropped when the store closes.
 */
export function storeBackends(): StoreBackend[] {
  const backends: StoreBackend[] = [
    {
      name: 'pglite',
      // Each store starts from one migrated dump made per process: a second or so, not initdb's seconds.
      open: async () => openStore({ kind: 'pglite', dataDir: 'memory://', from: await storeDump() }),
    },
  ];
  const url = process.env.DATABASE_URL;
  if (url !== undefined && url !== '') {
    backends.push({
      name: 'postgres',
      async open() {
        const schema = uniqueSchema();
        const options: StoreOptions = { kind: 'postgres', url, schema };
        const store = await openStore(options);
        return {
          ...store,
          async close() {
            await store.close();
            await dropSchema(url, schema);
          },
        };
      },
    });
  }
  return backends;
}

/** Runs `body` on a fresh store of the backend and closes it afterwards. */
export async function withStore(backend: StoreBackend, body: (store: Store) => Promise<void>): Promise<void> {
  const store = await backend.open();
  try {
    await body(store);
  } finally {
    await store.close();
  }
}

/**
 * An onboarding customer with one OIDC client and one API key, made in the store as `veriport admin` does.
 *
 * @example
 * const { client, apiKey } = await testCustomer(store, 'acme');
 */
export async function testCustomer(
  store: Store,
  name: string,
): Promise<{ client: { clientId: string; clientSecret: string }; apiKey: string }> {
  const customers = customersRepository(store.db);
  await customers.create({ name });
  const client = await customers.createClient(name);
  const { apiKey } = await customers.createApiKey(name);
  return { client, apiKey };
}
