import { timingSafeEqual } from 'node:crypto';
import type { Kysely } from 'kysely';
import { hashSecret, randomSecret, sha256Hex, verifySecret } from '../crypto/secret-hash.js';
import type { Database } from './schema.js';

/** An onboarding customer. Its `name` also names its realm on the wire: `/auth/realms/{name}-consumers/...`. */
export interface Customer {
  readonly name: string;
  readonly displayName: string;
  readonly logo: string;
}

/** A secret as created: the only moment it exists in clear. */
export interface IssuedClient {
  readonly customer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

export interface IssuedApiKey {
  readonly customer: string;
  /** Non-secret prefix used in listings and to revoke. */
  readonly keyId: string;
  /** `{keyId}.{secret}`, sent in the `apikey` header. */
  readonly apiKey: string;
}

export interface ApiKeyListing {
  readonly keyId: string;
  readonly revoked: boolean;
  readonly createdAt: Date;
}

export interface ClientListing {
  readonly clientId: string;
  readonly revoked: boolean;
  readonly createdAt: Date;
}

/** Raised for a name that is taken, a customer that does not exist, or a malformed name. */
export class CustomerError extends Error {
  override name = 'CustomerError';
}

/** Customer names go into URL paths (the realm `{name}-consumers`): lower-case letters, digits and inner hyphens. */
export const CUSTOMER_NAME = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Repository of customers with their OIDC clients and API keys (one aggregate: they die with the customer). */
export interface CustomersRepository {
  create(customer: { name: string; displayName?: string | undefined; logo?: string | undefined }): Promise<Customer>;
  find(name: string): Promise<Customer | undefined>;
  list(): Promise<Customer[]>;
  count(): Promise<number>;
  /** Creates a client with a new random secret; `clientId` defaults to `{customer}-client-{random}`. */
  createClient(customer: string, clientId?: string): Promise<IssuedClient>;
  /** Replaces the secret of an active client; undefined when there is no such client of the customer. */
  rotateClient(customer: string, clientId: string): Promise<IssuedClient | undefined>;
  revokeClient(customer: string, clientId: string): Promise<boolean>;
  listClients(customer: string): Promise<ClientListing[]>;
  /** The customer of an active client whose secret matches, else undefined. */
  authenticateClient(clientId: string, clientSecret: string): Promise<string | undefined>;
  createApiKey(customer: string): Promise<IssuedApiKey>;
  revokeApiKey(customer: string, keyId: string): Promise<boolean>;
  listApiKeys(customer: string): Promise<ApiKeyListing[]>;
  /** The customer of an active API key, else undefined. */
  customerOfApiKey(apiKey: string): Promise<string | undefined>;
}

// A fixed hash compared against when the client does not exist, so timing does not reveal client ids.
let decoyHash: Promise<string> | undefined;

/**
 * Creates the repository over an open database.
 *
 * @example
 * const customers = customersRepository(store.db);
 * await customers.create({ name: 'acme', displayName: 'ACME' });
 * const { clientSecret } = await customers.createClient('acme');
 */
export function customersRepository(db: Kysely<Database>): CustomersRepository {
  const toCustomer = (row: { name: string; display_name: string; logo: string }): Customer => ({
    name: row.name,
    displayName: row.display_name,
    logo: row.logo,
  });
  const find = async (name: string): Promise<Customer | undefined> => {
    const row = await db
      .selectFrom('customers')
      .select(['name', 'display_name', 'logo'])
      .where('name', '=', name)
      .executeTakeFirst();
    return row === undefined ? undefined : toCustomer(row);
  };
  const requireCustomer = async (name: string): Promise<void> => {
    if ((await find(name)) === undefined) throw new CustomerError(`no customer '${name}'`);
  };
  return {
    async create({ name, displayName, logo }) {
      if (!CUSTOMER_NAME.test(name))
        throw new CustomerError(
          `customer name '${name}' must be lower-case letters, digits and inner hyphens (at most 63)`,
        );
      const inserted = await db
        .insertInto('customers')
        .values({ name, display_name: displayName ?? name, logo: logo ?? '' })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning(['name', 'display_name', 'logo'])
        .executeTakeFirst();
      if (inserted === undefined) throw new CustomerError(`customer '${name}' exists already`);
      return toCustomer(inserted);
    },
    find,
    async list() {
      return (await db.selectFrom('customers').select(['name', 'display_name', 'logo']).orderBy('name').execute()).map(
        toCustomer,
      );
    },
    async count() {
      const row = await db
        .selectFrom('customers')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async createClient(customer, clientId) {
      await requireCustomer(customer);
      const id = clientId ?? `${customer}-client-${randomSecret(6)}`;
      const clientSecret = randomSecret();
      const inserted = await db
        .insertInto('oidc_clients')
        .values({ client_id: id, customer, secret_hash: await hashSecret(clientSecret) })
        .onConflict((oc) => oc.column('client_id').doNothing())
        .returning('client_id')
        .executeTakeFirst();
      if (inserted === undefined) throw new CustomerError(`client '${id}' exists already`);
      return { customer, clientId: id, clientSecret };
    },
    async rotateClient(customer, clientId) {
      const clientSecret = randomSecret();
      const updated = await db
        .updateTable('oidc_clients')
        .set({ secret_hash: await hashSecret(clientSecret) })
        .where('client_id', '=', clientId)
        .where('customer', '=', customer)
        .where('revoked', '=', false)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1 ? { customer, clientId, clientSecret } : undefined;
    },
    async revokeClient(customer, clientId) {
      const updated = await db
        .updateTable('oidc_clients')
        .set({ revoked: true })
        .where('client_id', '=', clientId)
        .where('customer', '=', customer)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async listClients(customer) {
      const rows = await db
        .selectFrom('oidc_clients')
        .select(['client_id', 'revoked', 'created_at'])
        .where('customer', '=', customer)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({ clientId: r.client_id, revoked: r.revoked, createdAt: new Date(r.created_at) }));
    },
    async authenticateClient(clientId, clientSecret) {
      const row = await db
        .selectFrom('oidc_clients')
        .select(['customer', 'secret_hash', 'revoked'])
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      if (row === undefined) {
        await verifySecret(clientSecret, await (decoyHash ??= hashSecret(randomSecret())));
        return undefined;
      }
      const matches = await verifySecret(clientSecret, row.secret_hash);
      return matches && !row.revoked ? row.customer : undefined;
    },
    async createApiKey(customer) {
      await requireCustomer(customer);
      const keyId = randomSecret(6);
      const apiKey = `${keyId}.${randomSecret()}`;
      await db
        .insertInto('api_keys')
        .values({ key_id: keyId, customer, key_hash: sha256Hex(apiKey) })
        .execute();
      return { customer, keyId, apiKey };
    },
    async revokeApiKey(customer, keyId) {
      const updated = await db
        .updateTable('api_keys')
        .set({ revoked: true })
        .where('key_id', '=', keyId)
        .where('customer', '=', customer)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async listApiKeys(customer) {
      const rows = await db
        .selectFrom('api_keys')
        .select(['key_id', 'revoked', 'created_at'])
        .where('customer', '=', customer)
        .orderBy('created_at')
        .execute();
      return rows.map((r) => ({ keyId: r.key_id, revoked: r.revoked, createdAt: new Date(r.created_at) }));
    },
    async customerOfApiKey(apiKey) {
      const keyId = apiKey.split('.')[0] ?? '';
      const row = await db
        .selectFrom('api_keys')
        .select(['customer', 'key_hash', 'revoked'])
        .where('key_id', '=', keyId)
        .executeTakeFirst();
      if (row === undefined || row.revoked) return undefined;
      // Looked up by the public prefix, then the hashes compared in constant time.
      const expected = Buffer.from(row.key_hash, 'hex');
      const actual = Buffer.from(sha256Hex(apiKey), 'hex');
      return expected.length === actual.length && timingSafeEqual(expected, actual) ? row.customer : undefined;
    },
  };
}
