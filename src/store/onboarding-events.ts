import type { Kysely } from 'kysely';
import type { Database } from './schema.js';
import { storedOneOf } from './stored-value.js';

export const EVENT_OUTCOMES = ['success', 'failure', 'refused'] as const;
export type EventOutcome = (typeof EVENT_OUTCOMES)[number];

/** One audit entry: who, what, when, how it ended; never biometric data, tokens or codes. */
export interface OnboardingEvent {
  readonly customer: string;
  readonly username: string;
  /** enroll, adddevice, addFace, authenticate, verifyDevice, verifyFace. */
  readonly event: string;
  /** success, failure or refused (a call refused before any check ran: wrong state, expired, ...). */
  readonly outcome: EventOutcome;
  readonly detail?: string | undefined;
  readonly deviceId?: string | undefined;
}

export interface RecordedEvent extends OnboardingEvent {
  readonly at: Date;
}

/** The onboarding audit log. */
export interface OnboardingEventsRepository {
  record(event: OnboardingEvent): Promise<void>;
  /** A user's events, oldest first. */
  list(customer: string, username: string): Promise<RecordedEvent[]>;
}

/**
 * Creates the repository over an open database.
 *
 * @example
 * const events = onboardingEventsRepository(store.db);
 * await events.record({ customer: 'acme', username: 'alice', event: 'verifyFace', outcome: 'failure' });
 */
export function onboardingEventsRepository(db: Kysely<Database>): OnboardingEventsRepository {
  return {
    async record(e) {
      await db
        .insertInto('onboarding_events')
        .values({
          customer: e.customer,
          username: e.username,
          event: e.event,
          outcome: e.outcome,
          detail: e.detail ?? '',
          device_id: e.deviceId ?? null,
        })
        .execute();
    },
    async list(customer, username) {
      const rows = await db
        .selectFrom('onboarding_events')
        .selectAll()
        .where('customer', '=', customer)
        .where('username', '=', username)
        .orderBy('id')
        .execute();
      return rows.map((r) => ({
        customer: r.customer,
        username: r.username,
        event: r.event,
        outcome: storedOneOf(EVENT_OUTCOMES, r.outcome, 'onboarding_events.outcome'),
        detail: r.detail,
        deviceId: r.device_id ?? undefined,
        at: new Date(r.at),
      }));
    },
  };
}
