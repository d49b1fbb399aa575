import type { Kysely } from 'kysely';
import { DEVICE_KEY_KINDS, type DeviceKeyKind } from '../crypto/device-key.js';
import type { Database } from './schema.js';
import { storedOneOf } from './stored-value.js';

/** The device bound to a user: its `deviceId` and how it signs (public key PEM, or a sealed HMAC secret). */
export interface DeviceBinding {
  readonly deviceId: string;
  readonly keyKind: DeviceKeyKind;
  readonly key: Uint8Array;
}

/** The person a user is enrolled as: what `enroll` carried. */
export interface UserDetails {
  readonly username: string;
  readonly email: string;
  readonly phoneNumber: string;
  readonly firstName: string | undefined;
  readonly lastName: string | undefined;
}

/** An enrolled onboarding user of a customer. */
export interface OnboardingUser extends UserDetails {
  readonly customer: string;
  readonly device: DeviceBinding;
  readonly sealedFaceTemplate: Uint8Array;
  readonly enrolledAt: Date;
}

/** Reads enrolled users; they are written only by a completed enrollment (onboarding-enrollments.ts). */
export interface OnboardingUsersRepository {
  find(customer: string, username: string): Promise<OnboardingUser | undefined>;
  /** The user of the customer whose registration code hashes to `codeHash`. */
  findByRegistrationCode(customer: string, codeHash: string): Promise<OnboardingUser | undefined>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const user = await onboardingUsersRepository(store.db).findByRegistrationCode('acme', sha256Hex(code));
 */
export function onboardingUsersRepository(db: Kysely<Database>): OnboardingUsersRepository {
  const select = () => db.selectFrom('onboarding_users').selectAll();
  type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof select>['executeTakeFirst']>>>;
  const toUser = (row: Row | undefined): OnboardingUser | undefined =>
    row === undefined
      ? undefined
      : {
          customer: row.customer,
          username: row.username,
          email: row.email,
          phoneNumber: row.phone_number,
          firstName: row.first_name ?? undefined,
          lastName: row.last_name ?? undefined,
          device: {
            deviceId: row.device_id,
            keyKind: storedOneOf(DEVICE_KEY_KINDS, row.device_key_kind, 'onboarding_users.device_key_kind'),
            key: row.device_key,
          },
          sealedFaceTemplate: row.sealed_face_template,
          enrolledAt: new Date(row.enrolled_at),
        };
  return {
    async find(customer, username) {
      return toUser(
        await select().where('customer', '=', customer).where('username', '=', username).executeTakeFirst(),
      );
    },
    async findByRegistrationCode(customer, codeHash) {
      return toUser(
        await select()
          .where('customer', '=', customer)
          .where('registration_code_hash', '=', codeHash)
          .executeTakeFirst(),
      );
    },
  };
}
