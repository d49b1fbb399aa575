import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** Device signals posted by a collector, as stored under the hash of their `apSessionId`. */
export interface DeviceProfile {
  readonly sessionHash: string;
  readonly customer: string;
  /** The signals' JSON text as posted (schema-checked then); the reader parses and checks it again. */
  readonly signals: string;
  /** The source address of the post. */
  readonly ip: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
  readonly usedAt: Date | undefined;
}

/** Collected device profiles of a customer's devices. */
export interface DeviceProfilesRepository {
  create(profile: Omit<DeviceProfile, 'usedAt'>): Promise<void>;
  find(customer: string, sessionHash: string): Promise<DeviceProfile | undefined>;
  /** Records the first use; false when it was used already (a replay), whoever won a race. */
  markUsed(customer: string, sessionHash: string, at: Date): Promise<boolean>;
  /** Removes the customer's profiles created before `cutoff` (signals and addresses are kept no longer). */
  purge(customer: string, cutoff: Date): Promise<void>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const profiles = deviceProfilesRepository(store.db);
 * const first = await profiles.markUsed('acme', sha256Hex(apSessionId), new Date());
 */
export function deviceProfilesRepository(db: Kysely<Database>): DeviceProfilesRepository {
  return {
    async create(p) {
      await db
        .insertInto('device_profiles')
        .values({
          session_hash: p.sessionHash,
          customer: p.customer,
          signals: p.signals,
          ip: p.ip,
          created_at: p.createdAt,
          expires_at: p.expiresAt,
        })
        .execute();
    },
    async find(customer, sessionHash) {
      const row = await db
        .selectFrom('device_profiles')
        .selectAll()
        .where('customer', '=', customer)
        .where('session_hash', '=', sessionHash)
        .executeTakeFirst();
      return row === undefined
        ? undefined
        : {
            sessionHash: row.session_hash,
            customer: row.customer,
            signals: row.signals,
            ip: row.ip,
            createdAt: new Date(row.created_at),
            expiresAt: new Date(row.expires_at),
            usedAt: row.used_at === null ? undefined : new Date(row.used_at),
          };
    },
    async markUsed(customer, sessionHash, at) {
      const updated = await db
        .updateTable('device_profiles')
        .set({ used_at: at })
        .where('customer', '=', customer)
        .where('session_hash', '=', sessionHash)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async purge(customer, cutoff) {
      await db
        .deleteFrom('device_profiles')
        .where('customer', '=', customer)
        .where('created_at', '<', cutoff)
        .execute();
    },
  };
}
