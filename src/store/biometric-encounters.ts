import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './schema.js';

/** A template as stored: sealed bytes of one algorithm of one encounter. */
export interface StoredTemplate {
  readonly encounterId: string;
  readonly algorithm: string;
  readonly sealed: Uint8Array;
}

/** An encounter to store, with one sealed template per algorithm it was enrolled for. */
export interface EncounterTemplates {
  readonly id: string;
  readonly templates: ReadonlyArray<{ readonly algorithm: string; readonly sealed: Uint8Array }>;
}

export type AddOutcome =
  | { readonly kind: 'added'; readonly generation: number }
  | { readonly kind: 'exists'; readonly id: string }
  | { readonly kind: 'full'; readonly limit: number };

export type ReplaceOutcome = { readonly kind: 'updated'; readonly generation: number } | { readonly kind: 'absent' };

/**
 * The namespace of a server without authentication: the `customer` column's default, where the rows written
 * before caches were kept per customer are; usage rows use it too. The server's `UNSCOPED`
 * (src/server/access/customer-scope.ts) is this value.
 */
export const UNSCOPED_CUSTOMER = '';

/** Caches of enrolled encounters of one matching service (face or voice) and one customer. */
export interface BiometricEncountersRepository {
  /** The customer whose caches these are. */
  readonly customer: string;
  /** Adds all the encounters or none: refused when an id exists or the cache would pass `limit`. */
  add(cache: string, encounters: readonly EncounterTemplates[], limit: number): Promise<AddOutcome>;
  /** Replaces every template of an existing encounter. */
  replace(cache: string, encounter: EncounterTemplates): Promise<ReplaceOutcome>;
  /** Removes an encounter; undefined when it was not there, else the cache's new generation. */
  remove(cache: string, id: string): Promise<number | undefined>;
  /** Empties the cache: how many encounters it held, and its new generation. */
  drop(cache: string): Promise<{ removed: number; generation: number }>;
  /** Encounter ids, sorted. */
  ids(cache: string): Promise<string[]>;
  /** The cache's change counter; undefined for a cache never written. */
  generation(cache: string): Promise<number | undefined>;
  /** Every template of the cache with the generation they belong to (read in one transaction). */
  load(cache: string): Promise<{ generation: number; templates: StoredTemplate[] }>;
}

/**
 * Creates the repository of one service's caches of one customer ({@link UNSCOPED_CUSTOMER} when left out):
 * every statement is restricted to that customer, so another customer's cache of the same name is neither
 * read, counted nor changed. Every change bumps the cache's generation in the same transaction, which also
 * row-locks the cache: concurrent adds to one cache (from any replica) run one after the other, so the limit
 * and the id checks hold.
 *
 * @example
 * const encounters = biometricEncountersRepository(store.db, 'face-matching', 'acme');
 * await encounters.add('staff', [{ id: 'alice', templates: [{ algorithm: 'F500', sealed }] }], 10_000);
 */
export function biometricEncountersRepository(
  db: Kysely<Database>,
  service: string,
  customer: string,
): BiometricEncountersRepository {
  const bump = async (trx: Transaction<Database>, cache: string): Promise<number> => {
    const row = await trx
      .insertInto('biometric_caches')
      .values({ service, customer, cache_name: cache, generation: 1 })
      .onConflict((oc) =>
        oc
          .columns(['service', 'customer', 'cache_name'])
          .doUpdateSet((eb) => ({ generation: eb('biometric_caches.generation', '+', 1) })),
      )
      .returning('generation')
      .executeTakeFirstOrThrow();
    return Number(row.generation);
  };
  const readGeneration = async (q: Kysely<Database>, cache: string): Promise<number | undefined> => {
    const row = await q
      .selectFrom('biometric_caches')
      .select('generation')
      .where('service', '=', service)
      .where('customer', '=', customer)
      .where('cache_name', '=', cache)
      .executeTakeFirst();
    return row === undefined ? undefined : Number(row.generation);
  };
  const countEncounters = async (trx: Kysely<Database>, cache: string): Promise<number> => {
    const row = await trx
      .selectFrom('biometric_templates')
      .select(sql<string>`count(distinct encounter_id)`.as('n'))
      .where('service', '=', service)
      .where('customer', '=', customer)
      .where('cache_name', '=', cache)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const rowsOf = (cache: string, encounter: EncounterTemplates) =>
    encounter.templates.map((t) => ({
      service,
      customer,
      cache_name: cache,
      encounter_id: encounter.id,
      algorithm: t.algorithm,
      sealed_template: t.sealed,
    }));

  return {
    customer,

    async add(cache, encounters, limit) {
      return db
        .transaction()
        .execute(async (trx): Promise<AddOutcome> => {
          const generation = await bump(trx, cache);
          const wanted = encounters.map((e) => e.id);
          const existing = await trx
            .selectFrom('biometric_templates')
            .select('encounter_id')
            .where('service', '=', service)
            .where('customer', '=', customer)
            .where('cache_name', '=', cache)
            .where('encounter_id', 'in', wanted)
            .executeTakeFirst();
          if (existing) return rollback({ kind: 'exists', id: existing.encounter_id });
          if ((await countEncounters(trx, cache)) + encounters.length > limit) return rollback({ kind: 'full', limit });
          const rows = encounters.flatMap((e) => rowsOf(cache, e));
          // Bounded statement size: PostgreSQL allows 65535 parameters, 6 per row.
          for (let i = 0; i < rows.length; i += 5000)
            await trx
              .insertInto('biometric_templates')
              .values(rows.slice(i, i + 5000))
              .execute();
          return { kind: 'added', generation };
        })
        .catch((error: unknown) => unwrapRollback<AddOutcome>(error));
    },

    async replace(cache, encounter) {
      return db
        .transaction()
        .execute(async (trx): Promise<ReplaceOutcome> => {
          const removed = await trx
            .deleteFrom('biometric_templates')
            .where('service', '=', service)
            .where('customer', '=', customer)
            .where('cache_name', '=', cache)
            .where('encounter_id', '=', encounter.id)
            .executeTakeFirst();
          if (Number(removed.numDeletedRows) === 0) return rollback({ kind: 'absent' });
          const generation = await bump(trx, cache);
          await trx.insertInto('biometric_templates').values(rowsOf(cache, encounter)).execute();
          return { kind: 'updated', generation };
        })
        .catch((error: unknown) => unwrapRollback<ReplaceOutcome>(error));
    },

    async remove(cache, id) {
      return db.transaction().execute(async (trx) => {
        const removed = await trx
          .deleteFrom('biometric_templates')
          .where('service', '=', service)
          .where('customer', '=', customer)
          .where('cache_name', '=', cache)
          .where('encounter_id', '=', id)
          .executeTakeFirst();
        if (Number(removed.numDeletedRows) === 0) return undefined;
        return bump(trx, cache);
      });
    },

    async drop(cache) {
      return db.transaction().execute(async (trx) => {
        const count = await countEncounters(trx, cache);
        await trx
          .deleteFrom('biometric_templates')
          .where('service', '=', service)
          .where('customer', '=', customer)
          .where('cache_name', '=', cache)
          .execute();
        return { removed: count, generation: await bump(trx, cache) };
      });
    },

    async ids(cache) {
      const rows = await db
        .selectFrom('biometric_templates')
        .select('encounter_id')
        .distinct()
        .where('service', '=', service)
        .where('customer', '=', customer)
        .where('cache_name', '=', cache)
        .orderBy('encounter_id')
        .execute();
      return rows.map((r) => r.encounter_id);
    },

    async generation(cache) {
      return readGeneration(db, cache);
    },

    async load(cache) {
      return db.transaction().execute(async (trx) => {
        const generation = await readGeneration(trx, cache);
        const rows = await trx
          .selectFrom('biometric_templates')
          .select(['encounter_id', 'algorithm', 'sealed_template'])
          .where('service', '=', service)
          .where('customer', '=', customer)
          .where('cache_name', '=', cache)
          .orderBy('encounter_id')
          .execute();
        return {
          generation: generation ?? 0,
          templates: rows.map((r) => ({
            encounterId: r.encounter_id,
            algorithm: r.algorithm,
            sealed: r.sealed_template,
          })),
        };
      });
    },
  };
}

/** A refusal decided inside a transaction: thrown to roll it back, turned back into the outcome outside. */
class Rollback<T> extends Error {
  constructor(readonly outcome: T) {
    super('rollback');
  }
}

function rollback<T>(outcome: T): never {
  throw new Rollback(outcome);
}

function unwrapRollback<T>(error: unknown): T {
  if (error instanceof Rollback) return error.outcome as T;
  throw error;
}
