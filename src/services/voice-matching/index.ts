import type { FastifyInstance } from 'fastify';
import { addMatchingRoutes } from '../../biometric-matching/matching-routes.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { VOICE_MATCHING, voiceMatchingContext } from './matching-context.js';
import { RouteSchemas } from './schemas.js';
import { exportVoiceTemplate } from './template-export.js';

/**
 * The routes: those face and voice matching share (src/biometric-matching/matching-routes.ts: caches, 1:N,
 * export, fuseScores, 1:1) with voice matching's bodies and template export, the voice engine behind them.
 */
function voiceMatchingRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  addVersionRoute(app, VOICE_MATCHING);
  addMatchingRoutes(app, voiceMatchingContext(deps), RouteSchemas, exportVoiceTemplate);
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
