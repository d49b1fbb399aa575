import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';

/** Device-bound face enrollment and authentication (Doc 1). Only `GET /version` so far; the issue that builds this service adds the rest. */
export const onboardingService: ServiceDefinition = {
  name: 'onboarding',
  prefix: '',
  description: 'Device-bound face enrollment and authentication (Doc 1)',
  errorStyle: 'coded',
  jsonAsTextPlain: false,
  plugin: async (app) => {
    addVersionRoute(app, 'onboarding');
  },
};
