import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import {
  biometricEncountersRepository,
  UNSCOPED_CUSTOMER,
  type EncounterTemplates,
} from '../../src/store/biometric-encounters.js';
import { migrationProvider } from '../../src/store/migrations/index.js';
import type { Database } from '../../src/store/schema.js';
import { usageCountersRepository } from '../../src/store/usage-counters.js';
import { dropSchema, storeBackends, uniqueSchema, withStore } from '../helpers/stores.js';

const encounter = (id: string, mark = id): EncounterTemplates => ({
  id,
  templates: [{ algorithm: 'F500', sealed: Buffer.from(mark) }],
});
const sealedOf = (loaded: { templates: Array<{ encounterId: string; sealed: Uint8Array }> }) =>
  loaded.templates.map((t) => `${t.encounterId}=${Buffer.from(t.sealed).toString()}`);

for (const backend of storeBackends()) {
  describe(`customer-scoped store on ${backend.name}`, () => {
    it("keeps two customers' caches of one name apart in every operation", async () => {
      await withStore(backend, async (store) => {
        const acme = biometricEncountersRepository(store.db, 'face-matching', 'acme');
        const globex = biometricEncountersRepository(store.db, 'face-matching', 'globex');
        const unscoped = biometricEncountersRepository(store.db, 'face-matching', UNSCOPED_CUSTOMER);
        assert.equal(unscoped.customer, '');

        assert.deepEqual(await acme.add('staff', [encounter('alice', 'acme-alice'), encounter('bob')], 2), {
          kind: 'added',
          generation: 1,
        });
        // The same ids in globex's cache of the same name: no 'exists', and acme's two do not count to its limit.
        assert.deepEqual(await globex.add('staff', [encounter('alice', 'globex-alice'), encounter('carol')], 2), {
          kind: 'added',
          generation: 1,
        });
        assert.deepEqual(await acme.add('staff', [encounter('dave')], 2), { kind: 'full', limit: 2 });
        assert.deepEqual(await acme.ids('staff'), ['alice', 'bob']);
        assert.deepEqual(await globex.ids('staff'), ['alice', 'carol']);
        assert.deepEqual(await unscoped.ids('staff'), []);
        assert.equal(await unscoped.generation('staff'), undefined);
        assert.deepEqual(sealedOf(await acme.load('staff')), ['alice=acme-alice', 'bob=bob']);
        assert.deepEqual(sealedOf(await globex.load('staff')), ['alice=globex-alice', 'carol=carol']);

        // Changes through one customer never reach the other's rows or generation.
        assert.deepEqual(await globex.replace('staff', encounter('bob', 'globex-bob')), { kind: 'absent' });
        assert.deepEqual(await acme.replace('staff', encounter('alice', 'acme-alice-2')), {
          kind: 'updated',
          generation: 2,
        });
        assert.deepEqual(sealedOf(await globex.load('staff')), ['alice=globex-alice', 'carol=carol']);
        assert.equal(await globex.remove('staff', 'bob'), undefined);
        assert.equal(await acme.remove('staff', 'bob'), 3);
        assert.equal(await globex.generation('staff'), 1);
        assert.deepEqual(await globex.drop('staff'), { removed: 2, generation: 2 });
        assert.deepEqual(await acme.ids('staff'), ['alice']);
        assert.deepEqual(sealedOf(await acme.load('staff')), ['alice=acme-alice-2']);
        assert.equal(await acme.generation('staff'), 3);
      });
    });

    it("keeps a customer's cache apart from a customer and cache name that join to the same text", async () => {
      await withStore(backend, async (store) => {
        const first = biometricEncountersRepository(store.db, 'face-matching', 'a');
        const second = biometricEncountersRepository(store.db, 'face-matching', 'a:b');
        await first.add('b:c', [encounter('x')], 10);
        await second.add('c', [encounter('y')], 10);
        assert.deepEqual(await first.ids('b:c'), ['x']);
        assert.deepEqual(await second.ids('c'), ['y']);
        assert.deepEqual(await first.ids('c'), []);
      });
    });

    it("counts usage per customer; reports one customer's rows or every customer's summed", async () => {
      await withStore(backend, async (store) => {
        const counters = usageCountersRepository(store.db);
        const row = { serverName: 'face-matching', year: 2026, month: 11, endpoint: '/compare' };
        await counters.addCounts([
          { ...row, customer: 'acme', counter: 3 },
          { ...row, customer: 'globex', counter: 4 },
          { ...row, counter: 5 }, // no customer: the unscoped namespace
          { ...row, customer: 'acme', endpoint: '/verify/{cacheName}', counter: 1 },
        ]);
        await counters.addCounts([{ ...row, customer: 'acme', counter: 2 }]);
        const show = (rows: Array<{ endpoint: string; counter: number }>) =>
          rows.map((r) => `${r.endpoint} ${r.counter}`);
        assert.deepEqual(show(await counters.list({ customer: 'acme' })), ['/compare 5', '/verify/{cacheName} 1']);
        assert.deepEqual(show(await counters.list({ customer: 'globex', year: 2026, month: 11 })), ['/compare 4']);
        assert.deepEqual(show(await counters.list({ customer: '' })), ['/compare 5']);
        assert.deepEqual(show(await counters.list({ customer: 'initech' })), []);
        assert.deepEqual(show(await counters.list({ serverName: 'face-matching' })), [
          '/compare 14',
          '/verify/{cacheName} 1',
        ]);
        assert.equal(await counters.reset({ customer: 'globex' }), 1);
        assert.deepEqual(show(await counters.list({})), ['/compare 10', '/verify/{cacheName} 1']);
        assert.equal(await counters.reset({ month: 11 }), 3, "a reset without customer removes every customer's rows");
        assert.deepEqual(await counters.list({}), []);
      });
    });

    it('migrates a store holding rows of the previous version into the unscoped namespace', async () => {
      const { db, close } = await rawDatabase(backend.name);
      try {
        await migrate(db, upTo('004-enrollments'));
        await sql`insert into biometric_caches (service, cache_name, generation) values ('face-matching', 'staff', 2)`.execute(
          db,
        );
        await sql`insert into biometric_templates (service, cache_name, encounter_id, algorithm, sealed_template)
          values ('face-matching', 'staff', 'alice', 'F500', ${Buffer.from('old')})`.execute(db);
        await sql`insert into usage_counters (server_name, year, month, endpoint, counter)
          values ('face-matching', 2026, 10, '/compare', 7)`.execute(db);

        await migrate(db, migrationProvider);

        const unscoped = biometricEncountersRepository(db, 'face-matching', UNSCOPED_CUSTOMER);
        assert.deepEqual(await unscoped.ids('staff'), ['alice']);
        assert.equal(await unscoped.generation('staff'), 2);
        assert.deepEqual(sealedOf(await unscoped.load('staff')), ['alice=old']);
        // A customer's cache of the same name is another cache.
        const acme = biometricEncountersRepository(db, 'face-matching', 'acme');
        assert.deepEqual(await acme.ids('staff'), []);
        assert.deepEqual(await acme.add('staff', [encounter('alice')], 1), { kind: 'added', generation: 1 });
        assert.deepEqual(await unscoped.add('staff', [encounter('bob')], 10), { kind: 'added', generation: 3 });

        const counters = usageCountersRepository(db);
        assert.deepEqual(
          (await counters.list({ customer: '' })).map((r) => r.counter),
          [7],
        );
        await counters.addCounts([
          { serverName: 'face-matching', year: 2026, month: 10, endpoint: '/compare', counter: 1 },
        ]);
        assert.deepEqual(
          (await counters.list({})).map((r) => r.counter),
          [8],
        );

        // Going back would merge acme's rows into everyone's namespace: refused, and nothing changed.
        const back = await new Migrator({
          db,
          provider: migrationProvider,
          migrationTableSchema: schemaOf(db),
        }).migrateTo('004-enrollments');
        assert.ok(back.error instanceof Error && /customer-scoped/.test(back.error.message), String(back.error));
        assert.deepEqual(await acme.ids('staff'), ['alice']);
      } finally {
        await close();
      }
    });

    it('goes back to one namespace while no row belongs to a customer', async () => {
      const { db, close } = await rawDatabase(backend.name);
      try {
        await migrate(db, migrationProvider);
        await biometricEncountersRepository(db, 'face-matching', UNSCOPED_CUSTOMER).add(
          'staff',
          [encounter('alice')],
          10,
        );
        const back = await new Migrator({
          db,
          provider: migrationProvider,
          migrationTableSchema: schemaOf(db),
        }).migrateTo('004-enrollments');
        assert.equal(back.error, undefined);
        const rows = await sql<{ cache_name: string }>`select * from biometric_templates`.execute(db);
        assert.deepEqual(
          rows.rows.map((r) => Object.keys(r).includes('customer')),
          [false],
        );
        assert.equal(rows.rows[0]?.cache_name, 'staff');
      } finally {
        await close();
      }
    });
  });
}

const schemas = new WeakMap<Kysely<Database>, string>();
const schemaOf = (db: Kysely<Database>) => schemas.get(db) ?? 'public';

/** An empty database without migrations: PGlite in memory, or a fresh PostgreSQL schema. */
async function rawDatabase(backend: string): Promise<{ db: Kysely<Database>; close: () => Promise<void> }> {
  const url = process.env.DATABASE_URL;
  if (backend !== 'postgres' || url === undefined) {
    const db = new Kysely<Database>({ dialect: new PGliteDialect(await PGlite.create()) });
    return { db, close: () => db.destroy() };
  }
  const schema = uniqueSchema();
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  await admin.end();
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url, options: `-c search_path=${schema}` }) }),
  });
  schemas.set(db, schema);
  return {
    db,
    async close() {
      await db.destroy();
      await dropSchema(url, schema);
    },
  };
}

/** The shipped migrations up to and including `last`. */
function upTo(last: string): MigrationProvider {
  return {
    async getMigrations() {
      const all = await migrationProvider.getMigrations();
      return Object.fromEntries(Object.entries(all).filter(([name]) => name <= last));
    },
  };
}

async function migrate(db: Kysely<Database>, provider: MigrationProvider): Promise<void> {
  const { error } = await new Migrator({ db, provider, migrationTableSchema: schemaOf(db) }).migrateToLatest();
  if (error !== undefined) throw error instanceof Error ? error : new Error('migration failed');
}
