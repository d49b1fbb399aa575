import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';

/** Face matching 1:1 and 1:N (Doc 3 A). Only `GET /version` so far; the issue that builds this service adds the rest. */
export const faceMatchingService: ServiceDefinition = {
  name: 'face-matching',
  prefix: '/face-matching',
  description: 'Face matching 1:1 and 1:N (Doc 3 A)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  plugin: async (app) => {
    addVersionRoute(app, 'face-matching');
  },
};
