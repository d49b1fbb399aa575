import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { addFuseScoresForIdentificationRoute } from '../../biometric-matching/fusion-routes.js';
import { addMatchingRoutes } from '../../biometric-matching/matching-routes.js';
import { ExportResponse } from '../../biometric-matching/schemas.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { FACE_MATCHING, faceMatchingContext } from './matching-context.js';
import {
  AddBatchBody,
  AddBody,
  AlgorithmExportResponse,
  CompareBody,
  ExportBody,
  IdentifyBody,
  IdentifyPartialBody,
  VerifyBody,
} from './schemas.js';
import { exportAlgorithmTemplates, exportFaceTemplate } from './template-export.js';

/**
 * The routes: the cache, 1:N, 1:1 and fuseScores routes face and voice matching share
 * (src/biometric-matching/matching-routes.ts) with face matching's bodies and summaries, then face matching's
 * own: its template exports and fuseScoresForIdentification.
 */
function faceMatchingRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const matching = faceMatchingContext(deps);

  addVersionRoute(app, FACE_MATCHING);

  addMatchingRoutes(app, matching, {
    bodies: {
      add: AddBody,
      addBatch: AddBatchBody,
      identify: IdentifyBody,
      identifyPartial: IdentifyPartialBody,
      compare: CompareBody,
      verify: VerifyBody,
    },
    summaries: {
      add: 'Adds an encounter (image or template); the first add creates the cache',
      update: "Replaces an existing encounter's face",
      compare: '1:1 comparison of two faces (images or templates)',
      verify: '1:1 comparison of a face with one encounter of the cache',
    },
  });

  scope.post(
    '/export',
    {
      schema: {
        summary: 'Template of a face image (F500 unless the workflow says otherwise)',
        body: ExportBody,
        response: ExportResponse,
      },
    },
    async (request) => ({ export: await exportFaceTemplate(matching, request.body) }),
  );

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
