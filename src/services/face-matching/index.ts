import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { addFuseScoresForIdentificationRoute } from '../../biometric-matching/fusion-routes.js';
import { addMatchingRoutes } from '../../biometric-matching/matching-routes.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { FACE_MATCHING, faceMatchingContext } from './matching-context.js';
import { AlgorithmExportResponse, ExportBody, RouteSchemas } from './schemas.js';
import { exportAlgorithmTemplates, exportFaceTemplate } from './template-export.js';

/**
 * The routes: those face and voice matching share (src/biometric-matching/matching-routes.ts: caches, 1:N,
 * export, fuseScores, 1:1) with face matching's bodies and template export, then face matching's own
 * (exportAlgorithmTemplate, fuseScoresForIdentification); every call on a cache acts in the caller's customer
 * scope.
 */
function faceMatchingRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const matching = faceMatchingContext(deps);

  addVersionRoute(app, FACE_MATCHING);
  addMatchingRoutes(app, matching, RouteSchemas, exportFaceTemplate);

  scope.post(
    '/exportAlgorithmTemplate',
    {
      schema: {
        summary: 'Templates of a face image for every algorithm',
        body: ExportBody,
        response: AlgorithmExportResponse,
      },
    },
    async (request) => ({ export: { VISIBLE_FRONTAL: await exportAlgorithmTemplates(matching, request.body) } }),
  );

  addFuseScoresForIdentificationRoute(app);
}

/** Face matching 1:1 and 1:N (spec Doc 3 A). */
export const faceMatchingService: ServiceDefinition = {
  name: 'face-matching',
  prefix: '/face-matching',
  description: 'Face matching 1:1 and 1:N (Doc 3 A)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  plugin: faceMatchingRoutes,
};
