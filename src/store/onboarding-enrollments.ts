import type { Kysely } from 'kysely';
import type { DeviceBinding, UserDetails } from './onboarding-users.js';
import { DEVICE_KEY_KINDS } from '../crypto/device-key.js';
import type { Database } from './schema.js';
import { storedOneOf } from './stored-value.js';

/**
 * started: token issued; pending: device added (enrollmentStatus 1); complete (2); failed (0);
 * superseded by a newer enroll.
 */
export const ENROLLMENT_STATES = ['started', 'pending', 'complete', 'failed', 'superseded'] as const;
export type EnrollmentState = (typeof ENROLLMENT_STATES)[number];

/** An enrollment as stored, found by its token's hash and customer. */
export interface Enrollment {
  readonly tokenHash: string;
  readonly customer: string;
  readonly user: UserDetails;
  /** `enroll` carried the user's current registration code. */
  readonly codePresented: boolean;
  readonly state: EnrollmentState;
  readonly device: DeviceBinding | undefined;
  readonly faceAttempts: number;
  readonly expiresAt: Date;
}

/** What a completed enrollment writes: the user row (new, or replacing face, device and code). */
export interface CompletedEnrollment {
  readonly device: DeviceBinding;
  readonly sealedFaceTemplate: Uint8Array;
  readonly registrationCodeHash: string;
}

/**
 * Enrollments in progress. Every change is a conditional update on the state read, so two racing calls
 * cannot both advance one.
 */
export interface OnboardingEnrollmentsRepository {
  /** Opens an enrollment; any open one of the same user is superseded (one enrollment per user at a time). */
  start(enrollment: {
    tokenHash: string;
    customer: string;
    user: UserDetails;
    codePresented: boolean;
    expiresAt: Date;
  }): Promise<void>;
  find(customer: string, tokenHash: string): Promise<Enrollment | undefined>;
  /** started -> pending with the device; false when the enrollment was not in `started` any more. */
  bindDevice(customer: string, tokenHash: string, device: DeviceBinding): Promise<boolean>;
  /**
   * Fails an enrollment still in one of `from` (a device check rejected it); false when it was not any more.
   */
  fail(customer: string, tokenHash: string, from: readonly EnrollmentState[]): Promise<boolean>;
  /**
   * Counts a failed face sample of a pending enrollment; it fails at `maxAttempts`. Undefined when it
   * was not pending.
   */
  recordFailedFace(
    customer: string,
    tokenHash: string,
    maxAttempts: number,
  ): Promise<{ state: EnrollmentState; faceAttempts: number } | undefined>;
  /**
   * pending -> complete and, in the same transaction, the user written (a re-enrollment replaces the
   * face, device and registration code, and ends the user's authentications in progress). False when
   * the enrollment was not pending any more (nothing written).
   */
  complete(customer: string, tokenHash: string, completed: CompletedEnrollment, now: Date): Promise<boolean>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const enrollments = onboardingEnrollmentsRepository(store.db);
 * await enrollments.start({ tokenHash, customer: 'acme', user, codePresented: false, expiresAt });
 */
export function onboardingEnrollmentsRepository(db: Kysely<Database>): OnboardingEnrollmentsRepository {
  return {
    async start({ tokenHash, customer, user, codePresented, expiresAt }) {
      await db.transaction().execute(async (tx) => {
        await tx
          .updateTable('onboarding_enrollments')
          .set({ state: 'superseded' })
          .where('customer', '=', customer)
          .where('username', '=', user.username)
          .where('state', 'in', ['started', 'pending'])
          .execute();
        await tx
          .insertInto('onboarding_enrollments')
          .values({
            token_hash: tokenHash,
            customer,
            username: user.username,
            email: user.email,
            phone_number: user.phoneNumber,
            first_name: user.firstName ?? null,
            last_name: user.lastName ?? null,
            code_presented: codePresented,
            state: 'started',
            expires_at: expiresAt,
          })
          .execute();
      });
    },
    async find(customer, tokenHash) {
      const row = await db
        .selectFrom('onboarding_enrollments')
        .selectAll()
        .where('customer', '=', customer)
        .where('token_hash', '=', tokenHash)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const device =
        row.device_id !== null && row.device_key_kind !== null && row.device_key !== null
          ? {
              deviceId: row.device_id,
              keyKind: storedOneOf(DEVICE_KEY_KINDS, row.device_key_kind, 'onboarding_enrollments.device_key_kind'),
              key: row.device_key,
            }
          : undefined;
      return {
        tokenHash: row.token_hash,
        customer: row.customer,
        user: {
          username: row.username,
          email: row.email,
          phoneNumber: row.phone_number,
          firstName: row.first_name ?? undefined,
          lastName: row.last_name ?? undefined,
        },
        codePresented: row.code_presented,
        state: storedOneOf(ENROLLMENT_STATES, row.state, 'onboarding_enrollments.state'),
        device,
        faceAttempts: row.face_attempts,
        expiresAt: new Date(row.expires_at),
      };
    },
    async bindDevice(customer, tokenHash, device) {
      const updated = await db
        .updateTable('onboarding_enrollments')
        .set({ state: 'pending', device_id: device.deviceId, device_key_kind: device.keyKind, device_key: device.key })
        .where('customer', '=', customer)
        .where('token_hash', '=', tokenHash)
        .where('state', '=', 'started')
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async fail(customer, tokenHash, from) {
      if (from.length === 0) return false;
      const updated = await db
        .updateTable('onboarding_enrollments')
        .set({ state: 'failed' })
        .where('customer', '=', customer)
        .where('token_hash', '=', tokenHash)
        .where('state', 'in', from)
        .executeTakeFirst();
      return Number(updated.numUpdatedRows) === 1;
    },
    async recordFailedFace(customer, tokenHash, maxAttempts) {
      const row = await db
        .updateTable('onboarding_enrollments')
        .set((eb) => ({
          face_attempts: eb('face_attempts', '+', 1),
          state: eb
            .case()
            .when('face_attempts', '>=', maxAttempts - 1)
            .then('failed')
            .else('pending')
            .end(),
        }))
        .where('customer', '=', customer)
        .where('token_hash', '=', tokenHash)
        .where('state', '=', 'pending')
        .returning(['state', 'face_attempts'])
        .executeTakeFirst();
      return row === undefined
        ? undefined
        : {
            state: storedOneOf(ENROLLMENT_STATES, row.state, 'onboarding_enrollments.state'),
            faceAttempts: row.face_attempts,
          };
    },
    async complete(customer, tokenHash, completed, now) {
      return db.transaction().execute(async (tx) => {
        const row = await tx
          .updateTable('onboarding_enrollments')
          .set({ state: 'complete' })
          .where('customer', '=', customer)
          .where('token_hash', '=', tokenHash)
          .where('state', '=', 'pending')
          .returningAll()
          .executeTakeFirst();
        if (row === undefined) return false;
        const user = {
          email: row.email,
          phone_number: row.phone_number,
          first_name: row.first_name,
          last_name: row.last_name,
          device_id: completed.device.deviceId,
          device_key_kind: completed.device.keyKind,
          device_key: completed.device.key,
          sealed_face_template: completed.sealedFaceTemplate,
          registration_code_hash: completed.registrationCodeHash,
          enrolled_at: now,
        };
        await tx
          .insertInto('onboarding_users')
          .values({ customer, username: row.username, ...user })
          .onConflict((oc) => oc.columns(['customer', 'username']).doUpdateSet(user))
          .execute();
        await tx
          .deleteFrom('onboarding_authentications')
          .where('customer', '=', customer)
          .where('username', '=', row.username)
          .execute();
        return true;
      });
    },
  };
}
