import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import type { Kysely } from 'kysely';
import { randomSecret } from '../crypto/secret-hash.js';
import type { Database } from './schema.js';

const generateKeyPairAsync = promisify(generateKeyPair);

/** An RS256 token signing key as stored. */
export interface SigningKey {
  readonly kid: string;
  readonly publicKeyPem: string;
  readonly privateKeyPem: string;
  readonly createdAt: Date;
  readonly retiredAt: Date | undefined;
}

/** The key a rotation created, with the kids of the keys it retired. */
export interface RotatedSigningKey extends SigningKey {
  readonly retiredKids: readonly string[];
}

/** Repository of the token signing keys: one active key signs, retired ones stay published a while. */
export interface SigningKeysRepository {
  /** The newest unretired key, generated (2048-bit RSA) when there is none. */
  active(): Promise<SigningKey>;
  /**
   * Generates a new key and retires every other active one, in one transaction; returns the new key and
   * the retired kids.
   */
  rotate(): Promise<RotatedSigningKey>;
  /** Keys active, or retired after `retiredSince`: the ones tokens still in circulation were signed with. */
  published(retiredSince: Date): Promise<SigningKey[]>;
}

async function newKey(): Promise<{ kid: string; public_key_pem: string; private_key_pem: string }> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { kid: randomSecret(12), public_key_pem: publicKey, private_key_pem: privateKey };
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const keys = signingKeysRepository(store.db);
 * const { kid, privateKeyPem } = await keys.active();
 */
export function signingKeysRepository(db: Kysely<Database>): SigningKeysRepository {
  type Row = {
    kid: string;
    public_key_pem: string;
    private_key_pem: string;
    created_at: Date | string;
    retired_at: Date | string | null;
  };
  const toKey = (r: Row): SigningKey => ({
    kid: r.kid,
    publicKeyPem: r.public_key_pem,
    privateKeyPem: r.private_key_pem,
    createdAt: new Date(r.created_at),
    retiredAt: r.retired_at === null ? undefined : new Date(r.retired_at),
  });
  const newest = async (): Promise<SigningKey | undefined> => {
    const row = await db
      .selectFrom('token_signing_keys')
      .selectAll()
      .where('retired_at', 'is', null)
      .orderBy('created_at', 'desc')
      .orderBy('kid')
      .executeTakeFirst();
    return row === undefined ? undefined : toKey(row);
  };
  const rotate = async (): Promise<RotatedSigningKey> => {
    const key = await newKey();
    return db.transaction().execute(async (tx) => {
      const retired = await tx
        .updateTable('token_signing_keys')
        .set({ retired_at: new Date() })
        .where('retired_at', 'is', null)
        .returning('kid')
        .execute();
      const created = toKey(
        await tx.insertInto('token_signing_keys').values(key).returningAll().executeTakeFirstOrThrow(),
      );
      return { ...created, retiredKids: retired.map((r) => r.kid) };
    });
  };
  return {
    async active() {
      const existing = await newest();
      if (existing !== undefined) return existing;
      // Two replicas may both generate on first start; both keys stay valid, the newest signs.
      await db
        .insertInto('token_signing_keys')
        .values(await newKey())
        .execute();
      const created = await newest();
      if (created === undefined) throw new Error('token signing key vanished after insert');
      return created;
    },
    rotate,
    async published(retiredSince) {
      const rows = await db
        .selectFrom('token_signing_keys')
        .selectAll()
        .where((eb) => eb.or([eb('retired_at', 'is', null), eb('retired_at', '>', retiredSince)]))
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(toKey);
    },
  };
}
