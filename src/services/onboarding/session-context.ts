import type { FastifyBaseLogger } from 'fastify';
import type { KeyObject } from 'node:crypto';
import type { ServiceDependencies } from '../../server/service-definition.js';
import { customersRepository, type CustomersRepository } from '../../store/customers.js';
import { onboardingEventsRepository, type OnboardingEventsRepository } from '../../store/onboarding-events.js';
import { onboardingSessionsRepository, type OnboardingSessionsRepository } from '../../store/onboarding-sessions.js';
import { onboardingUsersRepository, type OnboardingUsersRepository } from '../../store/onboarding-users.js';
import { sessionNotifiers } from './configured-notifiers.js';
import type { NotificationChannel, SessionNotifier } from './session-notifier.js';

/**
 * What the QR hand-over (Doc 1 endpoints 7-9) works with: its repositories, the key that signs the QR data,
 * the lifetimes and URLs from the configuration, the notifiers and the clock. A test builds one from fakes.
 */
export interface SessionContext {
  readonly sessions: OnboardingSessionsRepository;
  readonly users: Pick<OnboardingUsersRepository, 'find' | 'findByRegistrationCode'>;
  readonly customers: Pick<CustomersRepository, 'find'>;
  readonly events: OnboardingEventsRepository;
  /** The onboarding private key: the QR data is encrypted with it, so `GET /getPublicKey`'s key opens it. */
  readonly dataKey: KeyObject;
  /** Lifetime of a sessionToken (trigger to validateSession) and of the access token validateSession issues. */
  readonly sessionTtlMs: number;
  /** `VERIPORT_SESSION_CALLBACK_URL`; unset: `<host>/capture`. */
  readonly callbackUrl: string | undefined;
  /** `VERIPORT_PUBLIC_URL`: the host the QR data names; unset: the trigger request's origin. */
  readonly publicUrl: string | undefined;
  readonly notifiers: Readonly<Record<NotificationChannel, SessionNotifier>>;
  readonly now: () => Date;
}

/**
 * Builds the QR hand-over's context from the server's dependencies.
 *
 * @example
 * const sessions = sessionContext(deps, app.log);
 * await triggerSession(sessions, customer, { method: 'enroll', username: 'alice', ... });
 */
export function sessionContext(
  deps: ServiceDependencies,
  log: FastifyBaseLogger,
  now: () => Date = () => new Date(),
): SessionContext {
  const db = deps.store.db;
  return {
    sessions: onboardingSessionsRepository(db),
    users: onboardingUsersRepository(db),
    customers: customersRepository(db),
    events: onboardingEventsRepository(db),
    dataKey: deps.envelopeKeys.key('onboarding').privateKey,
    sessionTtlMs: deps.config.sessionTtlSeconds * 1000,
    callbackUrl: deps.config.sessionCallbackUrl,
    publicUrl: deps.config.publicUrl,
    notifiers: sessionNotifiers(deps.config.notifications, log),
    now,
  };
}
