import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';

/** Voice liveness (Doc 2 D). Only `GET /version` so far; the issue that builds this service adds the rest. */
export const voiceLivenessService: ServiceDefinition = {
  name: 'voice-liveness',
  prefix: '/voice-liveness',
  description: 'Voice liveness (Doc 2 D)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  plugin: (app) => {
    addVersionRoute(app, 'voice-liveness');
  },
};
