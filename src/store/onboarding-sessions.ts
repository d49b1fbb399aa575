import type { Kysely, Selectable } from 'kysely';
import type { Database, OnboardingSessionsTable } from './schema.js';
import { storedOneOf } from './stored-value.js';

/** validateSession's `methodType`: what the session hands over to the phone. */
export const SESSION_METHODS = ['enroll', 'authenticate'] as const;
export type SessionMethod = (typeof SESSION_METHODS)[number];

/**
 * created (trigger) -> scanned (validateSession) -> started (enroll / authenticate) -> device-added
 * (adddevice) | device-verified (verifyDevice) -> face-captured (a face sample that did not finish it)
 * -> complete | failed; superseded by a newer trigger of the same user and method while still created.
 */
export const SESSION_STATES = [
  'created',
  'scanned',
  'started',
  'device-added',
  'device-verified',
  'face-captured',
  'complete',
  'failed',
  'superseded',
] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** The states in which the phone's access token works: validated, not ended. */
export const ACTIVE_SESSION_STATES = [
  'scanned',
  'started',
  'device-added',
  'device-verified',
  'face-captured',
] as const satisfies readonly SessionState[];

/** A QR hand-over session as stored; every secret only as its SHA-256 hex. */
export interface OnboardingSession {
  readonly tokenHash: string;
  readonly customer: string;
  readonly username: string;
  readonly email: string;
  readonly method: SessionMethod;
  readonly state: SessionState;
  /** The validating phone (source address and User-Agent, hashed); undefined until validated. */
  readonly phoneHash: string | undefined;
  readonly validations: number;
  readonly accessTokenHash: string | undefined;
  readonly accessUsed: boolean;
  /** The enrollmentToken / authToken the phone runs in this session. */
  readonly flowTokenHash: string | undefined;
  /** The end of the sessionToken. */
  readonly expiresAt: Date;
  /** The end of the access token; undefined until validated. */
  readonly accessExpiresAt: Date | undefined;
}

/** The validation of a session: the one conditional update that consumes its sessionToken. */
export interface SessionValidation {
  readonly apiKeyHash: string;
  readonly tokenHash: string;
  readonly phoneHash: string;
  readonly accessTokenHash: string;
  readonly accessExpiresAt: Date;
  readonly now: Date;
  /** Validations a session allows in all: the first, and retries from the same phone before any call. */
  readonly maxValidations: number;
}

/** How long ended sessions are kept (for the portal's status call) before a later trigger removes them. */
const KEEP_ENDED_MS = 24 * 3600 * 1000;

/**
 * QR hand-over sessions. Every change is a conditional update on the state read, so a sessionToken is
 * consumed once however many replicas validate it at the same moment.
 */
export interface OnboardingSessionsRepository {
  /**
   * Opens a session. In the same transaction, a still unscanned session of the same user and method is
   * superseded (one live QR per user and method), and the customer's sessions ended a day ago are removed.
   */
  create(session: {
    tokenHash: string;
    customer: string;
    username: string;
    email: string;
    method: SessionMethod;
    apiKeyHash: string;
    expiresAt: Date;
    now: Date;
  }): Promise<void>;
  find(customer: string, tokenHash: string): Promise<OnboardingSession | undefined>;
  /** The session of a session-scoped API key (whatever its state), or undefined. */
  findByApiKey(apiKeyHash: string): Promise<OnboardingSession | undefined>;
  /**
   * created -> scanned with the phone and the new access token; or, for the same phone before its access
   * token was used and below `maxValidations`, the access token replaced (the previous one dies). Undefined
   * when neither applies (used by another phone or call, expired, unknown, or not this session's token).
   */
  validate(validation: SessionValidation): Promise<OnboardingSession | undefined>;
  /** Marks the access token used (it then allows no more validation retries). */
  markAccessUsed(customer: string, tokenHash: string): Promise<void>;
  /** The enrollmentToken / authToken the phone runs, and the state `started`; false once the session ended. */
  bindFlow(customer: string, tokenHash: string, flowTokenHash: string): Promise<boolean>;
  /** Moves an active session to `to`; false once the session ended. */
  advance(customer: string, tokenHash: string, to: SessionState): Promise<boolean>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const sessions = onboardingSessionsRepository(store.db);
 * const session = await sessions.validate({ apiKeyHash, tokenHash, phoneHash, accessTokenHash, accessExpiresAt,
 *   now: new Date(), maxValidations: 3 });
 */
export function onboardingSessionsRepository(db: Kysely<Database>): OnboardingSessionsRepository {
  const active = (customer: string, tokenHash: string) =>
    db
      .updateTable('onboarding_sessions')
      .where('customer', '=', customer)
      .where('token_hash', '=', tokenHash)
      .where('state', 'in', ACTIVE_SESSION_STATES);
  return {
    async create(session) {
      await db.transaction().execute(async (tx) => {
        await tx
          .deleteFrom('onboarding_sessions')
          .where('customer', '=', session.customer)
          .where((eb) =>
            eb(eb.fn.coalesce('access_expires_at', 'expires_at'), '<', new Date(session.now.getTime() - KEEP_ENDED_MS)),
          )
          .execute();
        await tx
          .updateTable('onboarding_sessions')
          .set({ state: 'superseded' })
          .where('customer', '=', session.customer)
          .where('username', '=', session.username)
          .where('method', '=', session.method)
          .where('state', '=', 'created')
          .execute();
        await tx
          .insertInto('onboarding_sessions')
          .values({
            token_hash: session.tokenHash,
            customer: session.customer,
            username: session.username,
            email: session.email,
            method: session.method,
            api_key_hash: session.apiKeyHash,
            state: 'created',
            expires_at: session.expiresAt,
          })
          .execute();
      });
    },
    async find(customer, tokenHash) {
      const row = await db
        .selectFrom('onboarding_sessions')
        .selectAll()
        .where('customer', '=', customer)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toSession(row);
    },
    async findByApiKey(apiKeyHash) {
      const row = await db
        .selectFrom('onboarding_sessions')
        .selectAll()
        .where('api_key_hash', '=', apiKeyHash)
        .executeTakeFirst();
      return row === undefined ? undefined : toSession(row);
    },
    async validate(v) {
      const row = await db
        .updateTable('onboarding_sessions')
        .set((eb) => ({
          state: 'scanned',
          phone_hash: v.phoneHash,
          validations: eb('validations', '+', 1),
          access_token_hash: v.accessTokenHash,
          access_expires_at: v.accessExpiresAt,
        }))
        .where('api_key_hash', '=', v.apiKeyHash)
        .where('token_hash', '=', v.tokenHash)
        .where('expires_at', '>', v.now)
        .where((eb) =>
          eb.or([
            eb('state', '=', 'created'),
            eb.and([
              eb('state', '=', 'scanned'),
              eb('phone_hash', '=', v.phoneHash),
              eb('access_used', '=', false),
              eb('validations', '<', v.maxValidations),
            ]),
          ]),
        )
        .returningAll()
        .executeTakeFirst();
      return row === undefined ? undefined : toSession(row);
    },
    async markAccessUsed(customer, tokenHash) {
      await active(customer, tokenHash).set({ access_used: true }).where('access_used', '=', false).execute();
    },
    async bindFlow(customer, tokenHash, flowTokenHash) {
      const updated = await active(customer, tokenHash)
        .set({ flow_token_hash: flowTokenHash, state: 'started' })
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async advance(customer, tokenHash, to) {
      const updated = await active(customer, tokenHash).set({ state: to }).executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
  };
}

function toSession(row: Selectable<OnboardingSessionsTable>): OnboardingSession {
  return {
    tokenHash: row.token_hash,
    customer: row.customer,
    username: row.username,
    email: row.email,
    method: storedOneOf(SESSION_METHODS, row.method, 'onboarding_sessions.method'),
    state: storedOneOf(SESSION_STATES, row.state, 'onboarding_sessions.state'),
    phoneHash: row.phone_hash ?? undefined,
    validations: row.validations,
    accessTokenHash: row.access_token_hash ?? undefined,
    accessUsed: row.access_used,
    flowTokenHash: row.flow_token_hash ?? undefined,
    expiresAt: new Date(row.expires_at),
    accessExpiresAt: row.access_expires_at === null ? undefined : new Date(row.access_expires_at),
  };
}
