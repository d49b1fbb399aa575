import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';

/** Document validation (Doc 3 C). Only `GET /version` so far; the issue that builds this service adds the rest. */
export const documentValidationService: ServiceDefinition = {
  name: 'document-validation',
  prefix: '/document-validation',
  description: 'Document validation (Doc 3 C)',
  errorStyle: 'spring',
  jsonAsTextPlain: false,
  plugin: (app) => {
    addVersionRoute(app, 'document-validation');
  },
};
