import type { Migration, MigrationProvider } from 'kysely';
import * as foundation from './001-foundation.js';
import * as biometricEncounters from './002-biometric-encounters.js';
// Shipped as '003-tenants' (it creates the customers tables): a migration's name is never changed.
import * as customers from './003-tenants.js';
import * as enrollments from './004-enrollments.js';
import * as customerScope from './005-customer-scope.js';
import * as adminKeys from './006-admin-keys.js';
import * as livenessChallenges from './007-liveness-challenges.js';
import * as onboardingSessions from './008-onboarding-sessions.js';
import * as deviceProfiles from './009-device-profiles.js';

/**
 * The migrations, in order, compiled into the program (no directory scan, so the bundle and the
 * tests see exactly the same list). Names sort in application order; never rename a shipped one.
 */
export const migrationProvider: MigrationProvider = {
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve({
      '001-foundation': foundation,
      '002-biometric-encounters': biometricEncounters,
      '003-tenants': customers,
      '004-enrollments': enrollments,
      '005-customer-scope': customerScope,
      '006-admin-keys': adminKeys,
      '007-liveness-challenges': livenessChallenges,
      '008-onboarding-sessions': onboardingSessions,
      '009-device-profiles': deviceProfiles,
    });
  },
};
