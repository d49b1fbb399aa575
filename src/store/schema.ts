import type { ColumnType, Generated } from 'kysely';

/** Monthly request count of one endpoint of one service for one customer; the primary key is all but `counter`. */
export interface UsageCountersTable {
  server_name: string;
  year: number;
  month: number;
  endpoint: string;
  /** The customer the calls were made for; '' for calls without authentication (the unscoped namespace). */
  customer: string;
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

/**
 * A named cache of a matching service, owned by a customer ('' when authentication is off): two customers'
 * caches of one name are two caches. `generation` changes with every change to its encounters.
 */
export interface BiometricCachesTable {
  service: string;
  customer: string;
  cache_name: string;
  generation: ColumnType<string | number, number | undefined, number>;
}

/** One template of one encounter: an encounter has one per algorithm it was enrolled for. */
export interface BiometricTemplatesTable {
  service: string;
  customer: string;
  cache_name: string;
  encounter_id: string;
  algorithm: string;
  /** AES-256-GCM sealed template bytes (see src/crypto/template-sealing.ts). */
  sealed_template: Uint8Array;
  created_at: Generated<Date>;
}

/** An onboarding customer; `name` also names its realm on the wire (`{name}-consumers`). */
export interface CustomersTable {
  name: string;
  display_name: string;
  logo: Generated<string>;
  created_at: Generated<Date>;
}

/** An OIDC client of a customer; the secret is kept only as `scrypt$salt$hash`. */
export interface OidcClientsTable {
  client_id: string;
  customer: string;
  secret_hash: string;
  revoked: Generated<boolean>;
  created_at: Generated<Date>;
}

/** An API key of a customer, kept as the SHA-256 hex of the key; `key_id` is its public prefix. */
export interface ApiKeysTable {
  key_id: string;
  customer: string;
  key_hash: string;
  revoked: Generated<boolean>;
  created_at: Generated<Date>;
}

/** An admin API key of the operator, kept as the SHA-256 hex of the key; `key_id` is its public id. */
export interface AdminApiKeysTable {
  key_id: string;
  key_hash: string;
  label: Generated<string>;
  revoked: Generated<boolean>;
  created_at: Generated<Date>;
}

/** An RS256 key that signs (or signed) access and ID tokens. */
export interface TokenSigningKeysTable {
  kid: string;
  public_key_pem: string;
  private_key_pem: string;
  created_at: Generated<Date>;
  retired_at: Date | null;
}

/** Who an onboarding user is, as `enroll` gave it: kept on the enrollment, then on the user. */
export interface OnboardingUserColumns {
  customer: string;
  username: string;
  email: string;
  phone_number: string;
  first_name: string | null;
  last_name: string | null;
}

/** An enrolled onboarding user of a customer: the bound device and the sealed F500 face template. */
export interface OnboardingUsersTable extends OnboardingUserColumns {
  device_id: string;
  device_key_kind: string;
  /** Public key PEM (p256, ed25519) or the sealed HMAC secret (hmac). */
  device_key: Uint8Array;
  sealed_face_template: Uint8Array;
  registration_code_hash: string;
  enrolled_at: Date;
}

/** An enrollment in progress, found by the SHA-256 of its token. */
export interface OnboardingEnrollmentsTable extends OnboardingUserColumns {
  token_hash: string;
  code_presented: Generated<boolean>;
  state: string;
  device_id: string | null;
  device_key_kind: string | null;
  device_key: Uint8Array | null;
  face_attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Date;
}

/** An authentication in progress, found by the SHA-256 of its `authToken`. */
export interface OnboardingAuthenticationsTable {
  token_hash: string;
  customer: string;
  username: string;
  device_id: string;
  final_check: string;
  state: string;
  attempts: Generated<number>;
  created_at: Generated<Date>;
  expires_at: Date;
}

/** A customer's onboarding policy; customers without a row use the defaults (src/store/onboarding-policies.ts). */
export interface OnboardingPoliciesTable {
  customer: string;
  final_check: string;
  liveness_workflow: string;
  match_fmr_score: number;
  max_attempts: number;
}

/** Audit log of enrollment and authentication events: who, when, outcome; never biometric data. */
export interface OnboardingEventsTable {
  id: Generated<string>;
  customer: string;
  username: string;
  event: string;
  outcome: string;
  detail: Generated<string>;
  device_id: string | null;
  at: Generated<Date>;
}

/**
 * A server-issued liveness challenge (issue 16), found by customer and the SHA-256 hex of its nonce;
 * `consumed_at` is set by the one request that used it.
 */
export interface LivenessChallengesTable {
  customer: string;
  nonce_hash: string;
  purpose: string;
  subject: Generated<string>;
  workflow: string;
  /** Comma-separated tags; '' for none. */
  screen_colours: Generated<string>;
  active_workflows: Generated<string>;
  issued_at: Date;
  expires_at: Date;
  consumed_at: Date | null;
}

/**
 * A QR hand-over session of onboarding (Doc 1 endpoints 7-9), found by the SHA-256 hex of its sessionToken,
 * of its session-scoped API key, or of the access token validateSession issued.
 */
export interface OnboardingSessionsTable {
  token_hash: string;
  customer: string;
  username: string;
  email: string;
  method: string;
  api_key_hash: string;
  state: string;
  phone_hash: string | null;
  validations: Generated<number>;
  access_token_hash: string | null;
  access_used: Generated<boolean>;
  flow_token_hash: string | null;
  created_at: Generated<Date>;
  expires_at: Date;
  access_expires_at: Date | null;
}

/** Device signals a collector posted (Doc 1 endpoints 6, 13), found by the SHA-256 hex of their `apSessionId`. */
export interface DeviceProfilesTable {
  session_hash: string;
  customer: string;
  signals: string;
  ip: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** One device-security check of a device for a user: trust and velocity are counted over these. */
export interface DeviceObservationsTable {
  id: Generated<string>;
  customer: string;
  username: string;
  device_hash: string;
  flow: string;
  flow_token_hash: string;
  decision: string;
  confirmed: Generated<boolean>;
  latitude: number | null;
  longitude: number | null;
  at: Generated<Date>;
}

/** A customer's device-security policy as JSON; customers without a row use the default. */
export interface DevicePoliciesTable {
  customer: string;
  policy: string;
  updated_at: Generated<Date>;
}

/** Every table of the store, as Kysely sees it. */
export interface Database {
  usage_counters: UsageCountersTable;
  server_keys: ServerKeysTable;
  biometric_caches: BiometricCachesTable;
  biometric_templates: BiometricTemplatesTable;
  customers: CustomersTable;
  oidc_clients: OidcClientsTable;
  api_keys: ApiKeysTable;
  admin_api_keys: AdminApiKeysTable;
  token_signing_keys: TokenSigningKeysTable;
  onboarding_users: OnboardingUsersTable;
  onboarding_enrollments: OnboardingEnrollmentsTable;
  onboarding_authentications: OnboardingAuthenticationsTable;
  onboarding_policies: OnboardingPoliciesTable;
  onboarding_events: OnboardingEventsTable;
  onboarding_sessions: OnboardingSessionsTable;
  liveness_challenges: LivenessChallengesTable;
  device_profiles: DeviceProfilesTable;
  device_observations: DeviceObservationsTable;
  device_policies: DevicePoliciesTable;
}
