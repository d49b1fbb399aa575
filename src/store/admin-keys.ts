import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { randomSecret, sha256Hex } from '../crypto/secret-hash.js';
import type { Database } from './schema.js';

/**
 * Start of every admin API key. A customer API key starts with its 8-character id and a dot, so no
 * customer key can start with this: the two kinds are told apart before any lookup.
 */
export const ADMIN_KEY_PREFIX = 'veriport_admin_';

/** An admin key as created: the only moment it exists in clear. */
export interface IssuedAdminKey {
  /** Non-secret id used in listings and to revoke. */
  readonly keyId: string;
  /** `veriport_admin_{keyId}.{secret}`, sent in the `apikey` header. */
  readonly apiKey: string;
  readonly label: string;
}

export interface AdminKeyListing {
  readonly keyId: string;
  readonly label: string;
  readonly revoked: boolean;
  readonly createdAt: Date;
}

/** Repository of the operator's admin API keys (admin-only calls when authentication is on). */
export interface AdminKeysRepository {
  /** Creates a key with 256 random bits; `label` says whom it was given to. */
  create(label?: string): Promise<IssuedAdminKey>;
  /** Revokes a key by its id; false when there is no such key. */
  revoke(keyId: string): Promise<boolean>;
  list(): Promise<AdminKeyListing[]>;
  /** The id of an active admin key, else undefined (one lookup by id, then a constant-time hash comparison). */
  keyIdOf(apiKey: string): Promise<string | undefined>;
}

/**
 * Whether an `apikey` value has the form of an admin key (whether it is one, {@link AdminKeysRepository.keyIdOf}).
 *
 * @example
 * isAdminKeyForm('veriport_admin_Ab3dEf9h.x1y2...'); // true
 * isAdminKeyForm('Ab3dEf9h.x1y2...'); // false: a customer API key
 */
export function isAdminKeyForm(apiKey: string): boolean {
  return apiKey.startsWith(ADMIN_KEY_PREFIX);
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const adminKeys = adminKeysRepository(store.db);
 * const { apiKey } = await adminKeys.create('ops on-call');
 * await adminKeys.keyIdOf(apiKey); // its keyId
 */
export function adminKeysRepository(db: Kysely<Database>): AdminKeysRepository {
  return {
    async create(label = '') {
      const keyId = randomSecret(6);
      const apiKey = `${ADMIN_KEY_PREFIX}${keyId}.${randomSecret()}`;
      await db
        .insertInto('admin_api_keys')
        .values({ key_id: keyId, key_hash: sha256Hex(apiKey), label })
        .execute();
      return { keyId, apiKey, label };
    },
    async revoke(keyId) {
      const updated = await db
        .updateTable('admin_api_keys')
        .set({ revoked: true })
        .where('key_id', '=', keyId)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async list() {
      const rows = await db
        .selectFrom('admin_api_keys')
        .select(['key_id', 'label', 'revoked', 'created_at'])
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({
        keyId: r.key_id,
        label: r.label,
        revoked: r.revoked,
        createdAt: new Date(r.created_at),
      }));
    },
    async keyIdOf(apiKey) {
      if (!isAdminKeyForm(apiKey)) return undefined;
      const keyId = apiKey.slice(ADMIN_KEY_PREFIX.length).split('.')[0] ?? '';
      const row = await db
        .selectFrom('admin_api_keys')
        .select(['key_hash', 'revoked'])
        .where('key_id', '=', keyId)
        .executeTakeFirst();
      if (row === undefined || row.revoked) return undefined;
      // Looked up by the public id, then the hashes compared in constant time.
      const expected = Buffer.from(row.key_hash, 'hex');
      const actual = Buffer.from(sha256Hex(apiKey), 'hex');
      return expected.length === actual.length && timingSafeEqual(expected, actual) ? keyId : undefined;
    },
  };
}
