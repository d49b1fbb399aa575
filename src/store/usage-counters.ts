import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely';
import { UNSCOPED_CUSTOMER } from './biometric-encounters.js';
import type { Database } from './schema.js';

/** One counter row: how many requests one endpoint of one service served in one month. */
export interface UsageCount {
  readonly serverName: string;
  readonly year: number;
  readonly month: number;
  readonly endpoint: string;
  readonly counter: number;
}

/** Requests counted for one customer: '' (the unscoped namespace, the column default) when left out. */
export interface UsageIncrement extends UsageCount {
  readonly customer?: string | undefined;
}

/**
 * Which counters a report or a reset covers; an absent member means "all". Without `customer` a report sums
 * every customer's counters per server, year, month and endpoint, and a reset removes every customer's.
 */
export interface UsageFilter {
  readonly serverName?: string | undefined;
  readonly year?: number | undefined;
  readonly month?: number | undefined;
  /** One customer's counters only ('' for the calls made without authentication). */
  readonly customer?: string | undefined;
}

/** Repository of the monthly usage counters, kept per customer. */
export interface UsageCountersRepository {
  /** Adds the increments in one statement; concurrent writers (replicas) never overwrite each other. */
  addCounts(increments: readonly UsageIncrement[]): Promise<void>;
  /**
   * Counters matching the filter, ordered by server, year, month, endpoint: one customer's with `customer`,
   * else every customer's summed, one row per server, year, month and endpoint.
   */
  list(filter: UsageFilter): Promise<UsageCount[]>;
  /** Deletes the counters matching the filter (every customer's without `customer`); how many rows went. */
  reset(filter: UsageFilter): Promise<number>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const counters = usageCountersRepository(store.db);
 * await counters.addCounts([
 *   { customer: 'acme', serverName: 'face-matching', year: 2026, month: 11, endpoint: '/version', counter: 3 },
 * ]);
 * await counters.list({ customer: 'acme', year: 2026 }); // acme's rows; without customer: all customers summed
 */
export function usageCountersRepository(db: Kysely<Database>): UsageCountersRepository {
  return {
    async addCounts(increments) {
      if (increments.length === 0) return;
      await db
        .insertInto('usage_counters')
        .values(
          increments.map((c) => ({
            server_name: c.serverName,
            year: c.year,
            month: c.month,
            endpoint: c.endpoint,
            customer: c.customer ?? UNSCOPED_CUSTOMER,
            counter: c.counter,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['server_name', 'year', 'month', 'endpoint', 'customer'])
            .doUpdateSet((eb) => ({ counter: eb('usage_counters.counter', '+', eb.ref('excluded.counter')) })),
        )
        .execute();
    },

    async list(filter) {
      const rows = await db
        .selectFrom('usage_counters')
        .select(['server_name', 'year', 'month', 'endpoint'])
        // bigint sums are numeric: drivers return them as strings, converted below.
        .select((eb) => eb.fn.sum<string | number>('counter').as('counter'))
        .where((eb) => matching(eb, filter))
        .groupBy(['server_name', 'year', 'month', 'endpoint'])
        .orderBy('server_name')
        .orderBy('year')
        .orderBy('month')
        .orderBy('endpoint')
        .execute();
      return rows.map((r) => ({
        serverName: r.server_name,
        year: r.year,
        month: r.month,
        endpoint: r.endpoint,
        counter: Number(r.counter),
      }));
    },

    async reset(filter) {
      const result = await db
        .deleteFrom('usage_counters')
        .where((eb) => matching(eb, filter))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}

/** The filter as a condition on usage_counters (always true for an empty filter). */
function matching(eb: ExpressionBuilder<Database, 'usage_counters'>, filter: UsageFilter): Expression<SqlBool> {
  const conditions: Array<Expression<SqlBool>> = [];
  if (filter.serverName !== undefined) conditions.push(eb('server_name', '=', filter.serverName));
  if (filter.year !== undefined) conditions.push(eb('year', '=', filter.year));
  if (filter.month !== undefined) conditions.push(eb('month', '=', filter.month));
  if (filter.customer !== undefined) conditions.push(eb('customer', '=', filter.customer));
  return eb.and(conditions);
}
