import { ipIntelligence, type IpIntelligence } from '../../engines/device/ip-intelligence.js';
import { torExitList, type TorExitList } from '../../engines/device/tor-exit-list.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import { deviceObservationsRepository, type DeviceObservationsRepository } from '../../store/device-observations.js';
import { devicePoliciesRepository, type DevicePoliciesRepository } from '../../store/device-policies.js';
import { deviceProfilesRepository, type DeviceProfilesRepository } from '../../store/device-profiles.js';
import {
  onboardingAuthenticationsRepository,
  type OnboardingAuthenticationsRepository,
} from '../../store/onboarding-authentications.js';
import {
  onboardingEnrollmentsRepository,
  type OnboardingEnrollmentsRepository,
} from '../../store/onboarding-enrollments.js';
import { onboardingEventsRepository, type OnboardingEventsRepository } from '../../store/onboarding-events.js';

/**
 * What the device-security profile (Doc 1 endpoints 6 and 13) works with: the collected profiles, the
 * observations trust and velocity are counted over, the customer's device policy, the flows it checks, the
 * IP data, the Tor exit list and the clock. A test builds one from its own parts.
 */
export interface DeviceContext {
  readonly profiles: DeviceProfilesRepository;
  readonly observations: DeviceObservationsRepository;
  readonly devicePolicies: DevicePoliciesRepository;
  readonly enrollments: OnboardingEnrollmentsRepository;
  readonly authentications: OnboardingAuthenticationsRepository;
  readonly events: OnboardingEventsRepository;
  readonly ipData: IpIntelligence;
  /** undefined when VERIPORT_TOR_EXIT_LIST is not set: detect.tor is then not asserted. */
  readonly torList: TorExitList | undefined;
  /** How long an apSessionId may be used after its signals were posted. */
  readonly profileTtlMs: number;
  readonly now: () => Date;
}

/**
 * Builds the device context from the server's dependencies; the configured data files are opened now (a
 * corrupt MMDB or an unreadable Tor list stops the start), the shipped network-owner table on first use.
 *
 * @example
 * const devices = deviceContext(deps);
 * await collectSignals(devices, 'acme', signals, request.ip);
 */
export function deviceContext(deps: ServiceDependencies, now: () => Date = () => new Date()): DeviceContext {
  const db = deps.store.db;
  const settings = deps.config.deviceSecurity;
  return {
    profiles: deviceProfilesRepository(db),
    observations: deviceObservationsRepository(db),
    devicePolicies: devicePoliciesRepository(db),
    enrollments: onboardingEnrollmentsRepository(db),
    authentications: onboardingAuthenticationsRepository(db),
    events: onboardingEventsRepository(db),
    ipData: ipIntelligence({ geoMmdb: settings.geoMmdb, asnMmdb: settings.asnMmdb }),
    torList: settings.torExitList === undefined ? undefined : torExitList(settings.torExitList),
    profileTtlMs: settings.profileTtlSeconds * 1000,
    now,
  };
}
