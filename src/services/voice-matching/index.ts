import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { compareSamples, verifySample } from '../../biometric-matching/comparison.js';
import {
  addEncounter,
  addEncounters,
  deleteEncounter,
  dropCache,
  encounterIds,
  maxEncounters,
  updateEncounter,
} from '../../biometric-matching/encounter-cache.js';
import { addFuseScoresRoute } from '../../biometric-matching/fusion-routes.js';
import { identifyInCache } from '../../biometric-matching/identification.js';
import {
  CacheParams,
  ConfirmResponse,
  DeleteBody,
  EmptyResponse,
  ExportResponse,
  IdentifyResponse,
  IdListResponse,
  IdResponse,
  ScoreResponse,
  TextResponse,
} from '../../biometric-matching/schemas.js';
import { customerScopeOf } from '../../server/access/customer-scope.js';
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

const TEXT = 'text/plain; charset=utf-8';

/**
 * The routes: schemas and one call each into the domain modules (the shared ones of src/biometric-matching/:
 * encounter-cache, identification, comparison, fusion routes; this folder's template export; the voice engine
 * behind them); every call on a
 * cache acts in the caller's customer scope.
 */
function voiceMatchingRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const matching = voiceMatchingContext(deps);

  addVersionRoute(app, VOICE_MATCHING);

  scope.get(
    '/maxEncounters/:cacheName',
    { schema: { summary: 'Most encounters the cache may hold (text)', params: CacheParams, response: TextResponse } },
    async (request, reply) => reply.type(TEXT).send(String(maxEncounters(matching, request.params.cacheName))),
  );

  scope.get(
    '/encounterList/:cacheName',
    { schema: { summary: 'Ids of the encounters in the cache', params: CacheParams, response: IdListResponse } },
    (request) => encounterIds(matching, customerScopeOf(request), request.params.cacheName),
  );

  scope.post(
    '/add/:cacheName',
    {
      schema: {
        summary: 'Adds an encounter (voice samples or template); the first add creates the cache',
        params: CacheParams,
        body: AddBody,
        response: IdResponse,
      },
    },
    (request) => addEncounter(matching, customerScopeOf(request), request.params.cacheName, request.body.encounter),
  );

  scope.post(
    '/addBatch/:cacheName',
    {
      schema: {
        summary: 'Adds template encounters, all or none',
        params: CacheParams,
        body: AddBatchBody,
        response: IdListResponse,
      },
    },
    (request) => addEncounters(matching, customerScopeOf(request), request.params.cacheName, request.body),
  );

  scope.post(
    '/update/:cacheName',
    {
      schema: {
        summary: "Replaces an existing encounter's voice",
        params: CacheParams,
        body: AddBody,
        response: EmptyResponse,
      },
    },
    async (request, reply) => {
      await updateEncounter(matching, customerScopeOf(request), request.params.cacheName, request.body.encounter);
      return reply.type(TEXT).send('');
    },
  );

  scope.post(
    '/delete/:cacheName',
    { schema: { summary: 'Removes an encounter', params: CacheParams, body: DeleteBody, response: EmptyResponse } },
    async (request, reply) => {
      await deleteEncounter(matching, customerScopeOf(request), request.params.cacheName, request.body.id);
      return reply.type(TEXT).send('');
    },
  );

  scope.post(
    '/drop/:cacheName',
    {
      schema: {
        summary: 'Empties the cache; confirm = encounters removed',
        params: CacheParams,
        response: ConfirmResponse,
      },
    },
    async (request) => ({ confirm: await dropCache(matching, customerScopeOf(request), request.params.cacheName) }),
  );

  scope.post(
    '/identify/:cacheName',
    {
      schema: {
        summary: '1:N search of the whole cache',
        params: CacheParams,
        body: IdentifyBody,
        response: IdentifyResponse,
      },
    },
    (request) => identifyInCache(matching, customerScopeOf(request), request.params.cacheName, request.body),
  );

  scope.post(
    '/identifyPartial/:cacheName',
    {
      schema: {
        summary: '1:N search of the listed encounters',
        params: CacheParams,
        body: IdentifyPartialBody,
        response: IdentifyResponse,
      },
    },
    (request) =>
      identifyInCache(matching, customerScopeOf(request), request.params.cacheName, request.body, request.body.idList),
  );

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

  addFuseScoresRoute(app);

  scope.post(
    '/compare',
    {
      schema: {
        summary: '1:1 comparison of two voices (voice samples or templates)',
        body: CompareBody,
        response: ScoreResponse,
      },
    },
    (request) => compareSamples(matching, request.body),
  );

  scope.post(
    '/verify/:cacheName',
    {
      schema: {
        summary: '1:1 comparison of a voice with one encounter of the cache',
        params: CacheParams,
        body: VerifyBody,
        response: ScoreResponse,
      },
    },
    (request) => verifySample(matching, customerScopeOf(request), request.params.cacheName, request.body),
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
