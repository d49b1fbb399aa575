import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A stored key pair, PEM-encoded. */
export interface StoredKeyPair {
  readonly purpose: string;
  readonly keyId: string;
  readonly publicKeyPem: string;
  readonly privateKeyPem: string;
}

/** Repository of the key pairs the server owns, one per purpose. */
export interface ServerKeysRepository {
  find(purpose: string): Promise<StoredKeyPair | undefined>;
  /**
   * Stores the pair unless one exists for the purpose, and returns the pair that is stored: when two
   * replicas generate a key on the same first start, both end up using the one that won.
   */
  insertIfAbsent(pair: StoredKeyPair): Promise<StoredKeyPair>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const keys = serverKeysRepository(store.db);
 * const pair = await keys.find('face-liveness');
 */
export function serverKeysRepository(db: Kysely<Database>): ServerKeysRepository {
  const find = async (purpose: string): Promise<StoredKeyPair | undefined> => {
    const row = await db.selectFrom('server_keys').selectAll().where('purpose', '=', purpose).executeTakeFirst();
    return row === undefined
      ? undefined
      : {
          purpose: row.purpose,
          keyId: row.key_id,
          publicKeyPem: row.public_key_pem,
          privateKeyPem: row.private_key_pem,
        };
  };
  return {
    find,
    async insertIfAbsent(pair) {
      await db
        .insertInto('server_keys')
        .values({
          purpose: pair.purpose,
          key_id: pair.keyId,
          public_key_pem: pair.publicKeyPem,
          private_key_pem: pair.privateKeyPem,
        })
        .onConflict((oc) => oc.column('purpose').doNothing())
        .execute();
      const stored = await find(pair.purpose);
      if (stored === undefined) throw new Error(`server key '${pair.purpose}' vanished after insert`);
      return stored;
    },
  };
}
