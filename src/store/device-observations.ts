import { sql, type Kysely } from 'kysely';
import type { DeviceHistory } from '../engines/device/device-assertions.js';
import type { Database } from './schema.js';

/** One device-security check of a device for a user. */
export interface DeviceObservation {
  readonly customer: string;
  readonly username: string;
  /** SHA-256 hex of the device identifier. */
  readonly deviceHash: string;
  readonly flow: 'enroll' | 'authenticate';
  readonly flowTokenHash: string;
  readonly decision: 'approve' | 'review' | 'reject';
  /** The flow proved the user (an approved authentication, after verifyDevice). */
  readonly confirmed: boolean;
  readonly latitude: number | undefined;
  readonly longitude: number | undefined;
  readonly at: Date;
}

/** Observations are kept this long: past test.trustedDevice6mo's six months, with room for a gap in use. */
export const OBSERVATION_RETENTION_MS = 400 * 86_400_000;

/** Trust and velocity of devices, per customer. */
export interface DeviceObservationsRepository {
  /** Records a check (and drops the customer's observations older than the retention). */
  record(observation: DeviceObservation): Promise<void>;
  /**
   * What the store knows of this device for this user at `now`, the check being made counted in (it is not
   * recorded yet). Trust counts only observations of flows that proved the user and were not rejected: an
   * approved authentication, or an enrollment that completed.
   */
  history(customer: string, username: string, deviceHash: string, now: Date): Promise<DeviceHistory>;
  /** Positions of the user's located checks since `since`. */
  locationsSince(
    customer: string,
    username: string,
    since: Date,
  ): Promise<Array<{ latitude: number; longitude: number }>>;
}

const DAY_MS = 86_400_000;

/**
 * Creates the repository over an open database.
 *
 * @example
 * const history = await deviceObservationsRepository(store.db).history('acme', 'alice', deviceHash, new Date());
 */
export function deviceObservationsRepository(db: Kysely<Database>): DeviceObservationsRepository {
  return {
    async record(o) {
      await db
        .insertInto('device_observations')
        .values({
          customer: o.customer,
          username: o.username,
          device_hash: o.deviceHash,
          flow: o.flow,
          flow_token_hash: o.flowTokenHash,
          decision: o.decision,
          confirmed: o.confirmed,
          latitude: o.latitude ?? null,
          longitude: o.longitude ?? null,
          at: o.at,
        })
        .execute();
      await db
        .deleteFrom('device_observations')
        .where('customer', '=', o.customer)
        .where('at', '<', new Date(o.at.getTime() - OBSERVATION_RETENTION_MS))
        .execute();
    },

    async history(customer, username, deviceHash, now) {
      const day = new Date(now.getTime() - DAY_MS);
      const week = new Date(now.getTime() - 7 * DAY_MS);
      const trusted = await db
        .selectFrom('device_observations as o')
        .select((eb) => eb.fn.min('o.at').as('since'))
        .where('o.customer', '=', customer)
        .where('o.username', '=', username)
        .where('o.device_hash', '=', deviceHash)
        .where('o.decision', '<>', 'reject')
        .where('o.at', '<=', now)
        .where((eb) =>
          eb.or([
            eb('o.confirmed', '=', true),
            eb.and([
              eb('o.flow', '=', 'enroll'),
              eb.exists(
                eb
                  .selectFrom('onboarding_enrollments as e')
                  .select('e.token_hash')
                  .whereRef('e.token_hash', '=', 'o.flow_token_hash')
                  .where('e.customer', '=', customer)
                  .where('e.state', '=', 'complete'),
              ),
            ]),
          ]),
        )
        .executeTakeFirst();
      const user = await db
        .selectFrom('device_observations')
        .select([
          sql<number | string>`count(distinct device_hash)`.as('devices'),
          sql<number | string>`count(*) filter (where device_hash = ${deviceHash})`.as('pair'),
          sql<boolean | null>`bool_or(device_hash = ${deviceHash})`.as('seen'),
        ])
        .where('customer', '=', customer)
        .where('username', '=', username)
        .where('at', '>=', day)
        .where('at', '<=', now)
        .executeTakeFirst();
      const device = await db
        .selectFrom('device_observations')
        .select([
          sql<number | string>`count(distinct username) filter (where at >= ${day})`.as('users1d'),
          sql<number | string>`count(distinct username)`.as('users7d'),
          sql<boolean | null>`bool_or(username = ${username}) filter (where at >= ${day})`.as('seen1d'),
          sql<boolean | null>`bool_or(username = ${username})`.as('seen7d'),
        ])
        .where('customer', '=', customer)
        .where('device_hash', '=', deviceHash)
        .where('at', '>=', week)
        .where('at', '<=', now)
        .executeTakeFirst();
      const since = trusted?.since;
      return {
        trustedSince: since === undefined || since === null ? undefined : new Date(since),
        devicesOfUser1d: Number(user?.devices ?? 0) + (user?.seen === true ? 0 : 1),
        userDeviceChecks1d: Number(user?.pair ?? 0) + 1,
        usersOnDevice1d: Number(device?.users1d ?? 0) + (device?.seen1d === true ? 0 : 1),
        usersOnDevice7d: Number(device?.users7d ?? 0) + (device?.seen7d === true ? 0 : 1),
      };
    },

    async locationsSince(customer, username, since) {
      const rows = await db
        .selectFrom('device_observations')
        .select(['latitude', 'longitude'])
        .where('customer', '=', customer)
        .where('username', '=', username)
        .where('at', '>=', since)
        .where('latitude', 'is not', null)
        .where('longitude', 'is not', null)
        .execute();
      return rows.flatMap((r) =>
        r.latitude === null || r.longitude === null
          ? []
          : [{ latitude: Number(r.latitude), longitude: Number(r.longitude) }],
      );
    },
  };
}
