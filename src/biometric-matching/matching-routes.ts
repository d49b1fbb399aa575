import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { customerScopeOf } from '../server/access/customer-scope.js';
import { compareSamples, verifySample } from './comparison.js';
import {
  addEncounter,
  addEncounters,
  deleteEncounter,
  dropCache,
  encounterIds,
  maxEncounters,
  updateEncounter,
  type EncounterOf,
} from './encounter-cache.js';
import { addFuseScoresRoute } from './fusion-routes.js';
import { identifyInCache, type IdentifyRequest } from './identification.js';
import type { BiometricSample, MatchingContext } from './matching-context.js';
import {
  CacheParams,
  ConfirmResponse,
  DeleteBody,
  EmptyResponse,
  IdentifyResponse,
  IdListResponse,
  IdResponse,
  ScoreResponse,
  TextResponse,
} from './schemas.js';

const TEXT = 'text/plain; charset=utf-8';

/** A TypeBox schema whose validated value is a `T`: what the route handlers may rely on. */
export type SchemaOf<T> = TSchema & { readonly static: T };

/**
 * The modality's request bodies (built in its schemas.ts with the builders of ./schemas.ts from its sample,
 * encounter and workflow): each must validate to what the shared domain function of its route takes, which
 * the compiler checks where a service passes them.
 */
export interface MatchingBodies<S extends BiometricSample, W> {
  readonly add: SchemaOf<{ readonly encounter: EncounterOf<S> }>;
  readonly addBatch: SchemaOf<ReadonlyArray<EncounterOf<S>>>;
  readonly identify: SchemaOf<IdentifyRequest<S, W>>;
  readonly identifyPartial: SchemaOf<IdentifyRequest<S, W> & { readonly idList: readonly string[] }>;
  readonly compare: SchemaOf<{ readonly probe: S; readonly gallery: S; readonly workflow?: W | undefined }>;
  readonly verify: SchemaOf<{ readonly probe: S; readonly id: string; readonly workflow?: W | undefined }>;
}

/** The OpenAPI summaries that name the modality (the other routes' summaries are the same for every one). */
export interface MatchingSummaries {
  readonly add: string;
  readonly update: string;
  readonly compare: string;
  readonly verify: string;
}

/**
 * Registers the routes face and voice matching share (Doc 3 A and B: maxEncounters, encounterList, add,
 * addBatch, update, delete, drop, identify, identifyPartial, fuseScores, compare, verify) on a service's
 * scope, each with its schema and one call into the shared domain modules, in the caller's customer scope.
 * The service adds its own routes (export, and face's exportAlgorithmTemplate and fuseScoresForIdentification).
 *
 * @example
 * addMatchingRoutes(app, faceMatchingContext(deps), {
 *   bodies: { add: AddBody, addBatch: AddBatchBody, identify: IdentifyBody, identifyPartial: IdentifyPartialBody,
 *     compare: CompareBody, verify: VerifyBody },
 *   summaries: { add: 'Adds an encounter ...', update: '...', compare: '...', verify: '...' },
 * });
 * // POST /face-matching/add/staff {"encounter":{"id":"alice","VISIBLE_FRONTAL":"..."}} -> {"id":"alice"}
 */
export function addMatchingRoutes<A extends string, S extends BiometricSample, W>(
  app: FastifyInstance,
  matching: MatchingContext<A, S, W>,
  options: { readonly bodies: MatchingBodies<S, W>; readonly summaries: MatchingSummaries },
): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const { bodies, summaries } = options;

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
    { schema: { summary: summaries.add, params: CacheParams, body: bodies.add, response: IdResponse } },
    (request) => addEncounter(matching, customerScopeOf(request), request.params.cacheName, request.body.encounter),
  );

  scope.post(
    '/addBatch/:cacheName',
    {
      schema: {
        summary: 'Adds template encounters, all or none',
        params: CacheParams,
        body: bodies.addBatch,
        response: IdListResponse,
      },
    },
    (request) => addEncounters(matching, customerScopeOf(request), request.params.cacheName, request.body),
  );

  scope.post(
    '/update/:cacheName',
    { schema: { summary: summaries.update, params: CacheParams, body: bodies.add, response: EmptyResponse } },
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
        body: bodies.identify,
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
        body: bodies.identifyPartial,
        response: IdentifyResponse,
      },
    },
    (request) =>
      identifyInCache(matching, customerScopeOf(request), request.params.cacheName, request.body, request.body.idList),
  );

  addFuseScoresRoute(app);

  scope.post(
    '/compare',
    { schema: { summary: summaries.compare, body: bodies.compare, response: ScoreResponse } },
    (request) => compareSamples(matching, request.body),
  );

  scope.post(
    '/verify/:cacheName',
    { schema: { summary: summaries.verify, params: CacheParams, body: bodies.verify, response: ScoreResponse } },
    (request) => verifySample(matching, customerScopeOf(request), request.params.cacheName, request.body),
  );
}
