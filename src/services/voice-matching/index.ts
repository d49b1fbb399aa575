import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { addMatchingRoutes } from '../../biometric-matching/matching-routes.js';
import { ExportResponse } from '../../biometric-matching/schemas.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { VOICE_MATCHING, voiceMatchingContext } from './matching-context.js';
import {
  AddBatchBody,
  AddBody,
  CompareBody,
  ExportBody,
  IdentifyBody,
  IdentifyPartialBody,
  VerifyBody,
} from './schemas.js';
import { exportVoiceTemplate } from './template-export.js';

/**
 * The routes: the cache, 1:N, 1:1 and fuseScores routes face and voice matching share
 * (src/biometric-matching/matching-routes.ts) with voice matching's bodies and summaries, then its template
 * export (the voice engine behind them all).
 */
function voiceMatchingRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const matching = voiceMatchingContext(deps);

  addVersionRoute(app, VOICE_MATCHING);

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
      add: 'Adds an encounter (voice samples or template); the first add creates the cache',
      update: "Replaces an existing encounter's voice",
      compare: '1:1 comparison of two voices (voice samples or templates)',
      verify: '1:1 comparison of a voice with one encounter of the cache',
    },
  });

  scope.post(
    '/export',
    {
      schema: {
        summary: 'Template of voice samples (V600 unless the workflow says otherwise), sealed',
        body: ExportBody,
        response: ExportResponse,
      },
    },
    async (request) => ({ export: await exportVoiceTemplate(matching, request.body) }),
  );
}

/**
 * Voice matching 1:1 and 1:N (spec Doc 3 B): face matching's routes but exportAlgorithmTemplate and
 * fuseScoresForIdentification.
 */
export const voiceMatchingService: ServiceDefinition = {
  name: 'voice-matching',
  prefix: '/voice-matching',
  description: 'Voice matching 1:1 and 1:N (Doc 3 B)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  plugin: voiceMatchingRoutes,
};
