import type { ServiceDefinition } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';

/** Face-image quality, compliance and video autocapture (Doc 2 C). Only `GET /version` so far; the issue that builds this service adds the rest. */
export const faceAnalysisService: ServiceDefinition = {
  name: 'face-analysis',
  prefix: '/face-analysis',
  description: 'Face-image quality, compliance and video autocapture (Doc 2 C)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  plugin: async (app) => {
    addVersionRoute(app, 'face-analysis');
  },
};
