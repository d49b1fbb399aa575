import type { ColumnType, Generated } from 'kysely';

/** Monthly request count of one endpoint of one service; the primary key is the first four columns. */
export interface UsageCountersTable {
  server_name: string;
  year: number;
  month: number;
  endpoint: string;
  /** bigint in SQL; drivers return it as a string, repositories convert. */
  counter: ColumnType<string | number, number, number>;
}

/** Key pairs the server owns (today: the RSA pair of the `{key, iv, p}` envelope). */
export interface ServerKeysTable {
  purpose: string;
  key_id: string;
  public_key_pem: string;
  /** PKCS#8 PEM, encrypted with the configured passphrase when one is set. */
  private_key_pem: string;
  created_at: Generated<Date>;
}

/** Every table of the store, as Kysely sees it. */
export interface Database {
  usage_counters: UsageCountersTable;
  server_keys: ServerKeysTable;
}
