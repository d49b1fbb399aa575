import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** One counter row: how many requests one endpoint of one service served in one month. */
export interface UsageCount {
  readonly serverName: string;
  readonly year: number;
  readonly month: number;
  readonly endpoint: string;
  readonly counter: number;
}

/** Which counters a report or a reset covers; an absent member means "all". */
export interface UsageFilter {
  readonly serverName?: string | undefined;
  readonly year?: number | undefined;
  readonly month?: number | undefined;
}

/** Repository of the monthly usage counters. */
export interface UsageCountersRepository {
  /** Adds the increments in one statement; concurrent writers (replicas) never overwrite each other. */
  addCounts(increments: readonly UsageCount[]): Promise<void>;
  /** Counters matching the filter, ordered by server, year, month, endpoint. */
  list(filter: UsageFilter): Promise<UsageCount[]>;
  /** Deletes the counters matching the filter and returns how many rows went. */
  reset(filter: UsageFilter): Promise<number>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const counters = usageCountersRepository(store.db);
 * await counters.addCounts([{ serverName: 'face-matching', year: 2026, month: 11, endpoint: '/version', counter: 3 }]);
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
            counter: c.counter,
          })),
        )
        .onConflict((oc) =>
          oc
            .columns(['server_name', 'year', 'month', 'endpoint'])
            .doUpdateSet((eb) => ({ counter: eb('usage_counters.counter', '+', eb.ref('excluded.counter')) })),
        )
        .execute();
    },

    async list(filter) {
      const rows = await db
        .selectFrom('usage_counters')
        .selectAll()
        .$if(filter.serverName !== undefined, (q) => q.where('server_name', '=', filter.serverName ?? ''))
        .$if(filter.year !== undefined, (q) => q.where('year', '=', filter.year ?? 0))
        .$if(filter.month !== undefined, (q) => q.where('month', '=', filter.month ?? 0))
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
        .$if(filter.serverName !== undefined, (q) => q.where('server_name', '=', filter.serverName ?? ''))
        .$if(filter.year !== undefined, (q) => q.where('year', '=', filter.year ?? 0))
        .$if(filter.month !== undefined, (q) => q.where('month', '=', filter.month ?? 0))
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
