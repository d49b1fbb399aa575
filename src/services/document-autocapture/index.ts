import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';

/** Document autocapture (Doc 2 B). Only `GET /version` so far; the issue that builds this service adds the rest. */
export const documentAutocaptureService: ServiceDefinition = {
  name: 'document-autocapture',
  prefix: '/document-autocapture',
  description: 'Document autocapture (Doc 2 B)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  plugin: (app) => {
    addVersionRoute(app, 'document-autocapture');
  },
};
