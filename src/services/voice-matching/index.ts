import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';

/** Voice matching 1:1 and 1:N (Doc 3 B). Only `GET /version` so far; the issue that builds it adds the rest. */
export const voiceMatchingService: ServiceDefinition = {
  name: 'voice-matching',
  prefix: '/voice-matching',
  description: 'Voice matching 1:1 and 1:N (Doc 3 B)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  plugin: (app) => {
    addVersionRoute(app, 'voice-matching');
  },
};
