import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Static, TSchema } from '@sinclair/typebox';
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
  ExportResponse,
  IdentifyResponse,
  IdListResponse,
  IdResponse,
  ScoreResponse,
  TextResponse,
} from './schemas.js';

const TEXT = 'text/plain; charset=utf-8';

/** A TypeBox schema whose validated value is a `T`: what the route handlers may rely on. */
export type SchemaOf<T> = TSchema & { readonly static: T };

/** What a route answers with 200, from its response schema. */
type Ok<R extends { readonly 200: TSchema }> = Static<R[200]>;

/**
 * The request and reply types of a route whose body schema is the modality's: the TypeBox type provider
 * cannot resolve the static type of a schema whose type is generic (it defers to `unknown`), so these
 * routes name it, the type that `MatchingBodies` holds each body schema to.
 */
interface CacheRoute<Body, Reply> {
  Params: CacheParams;
  Body: Body;
  Reply: Reply;
}

/** The add and update body: the encounter (and metadata, unused). */
export interface AddRequest<S extends BiometricSample> {
  readonly encounter: EncounterOf<S>;
}

/** The identifyPartial body: the identify body and the ids to search. */
export type IdentifyPartialRequest<S, W> = IdentifyRequest<S, W> & { readonly idList: readonly string[] };

/** The export body: the sample and the workflow. */
export interface ExportRequest<S, W> {
  readonly encounter: S;
  readonly workflow?: W | undefined;
}

/** The compare body: two samples and the workflow. */
export interface CompareRequest<S, W> {
  readonly probe: S;
  readonly gallery: S;
  readonly workflow?: W | undefined;
}

/** The verify body: the probe and the id of the encounter to compare it with. */
export interface VerifyRequest<S, W> {
  readonly probe: S;
  readonly id: string;
  readonly workflow?: W | undefined;
}

/**
 * The modality's request bodies (built in its schemas.ts with the builders of ./schemas.ts from its sample,
 * encounter and workflow): each must validate to the request type of its route, which the compiler checks
 * where a service passes them, so the handlers here can take the body as that type.
 */
export interface MatchingBodies<S extends BiometricSample, W> {
  readonly add: SchemaOf<AddRequest<S>>;
  readonly addBatch: SchemaOf<ReadonlyArray<EncounterOf<S>>>;
  readonly identify: SchemaOf<IdentifyRequest<S, W>>;
  readonly identifyPartial: SchemaOf<IdentifyPartialRequest<S, W>>;
  readonly export: SchemaOf<ExportRequest<S, W>>;
  readonly compare: SchemaOf<CompareRequest<S, W>>;
  readonly verify: SchemaOf<VerifyRequest<S, W>>;
}

/**
 * The route schemas of a modality (`matchingRouteSchemas` of ./schemas.ts): its bodies, and the OpenAPI
 * summaries that name it (the other routes' summaries are the same for every modality).
 */
export interface MatchingRouteSchemas<S extends BiometricSample, W> {
  readonly bodies: MatchingBodies<S, W>;
  readonly summaries: {
    readonly add: string;
    readonly update: string;
    readonly export: string;
    readonly compare: string;
    readonly verify: string;
  };
}

/** `/export`: the modality's template of a raw sample, sealed, base64. */
export type TemplateExport<A extends string, S extends BiometricSample, W> = (
  matching: MatchingContext<A, S, W>,
  body: ExportRequest<S, W>,
) => Promise<string>;

/**
 * Registers the routes face and voice matching share (Doc 3 A and B: maxEncounters, encounterList, add,
 * addBatch, update, delete, drop, identify, identifyPartial, export, fuseScores, compare, verify) on a
 * service's scope, each with the modality's schema and one call into the shared domain modules (export: the
 * modality's `exportTemplate`), in the caller's customer scope. The service adds its own routes (version, and
 * face's exportAlgorithmTemplate and fuseScoresForIdentification).
 *
 * @example
 * const RouteSchemas = matchingRouteSchemas(FaceSample, Encounter, Workflow, wording);
 * addMatchingRoutes(app, faceMatchingContext(deps), RouteSchemas, exportFaceTemplate);
 * // POST /face-matching/add/staff {"encounter":{"id":"alice","VISIBLE_FRONTAL":"..."}} -> {"id":"alice"}
 */
export function addMatchingRoutes<A extends string, S extends BiometricSample, W>(
  app: FastifyInstance,
  matching: MatchingContext<A, S, W>,
  schemas: MatchingRouteSchemas<S, W>,
  exportTemplate: TemplateExport<A, S, W>,
): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const { bodies, summaries } = schemas;

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

  scope.post<CacheRoute<AddRequest<S>, Ok<typeof IdResponse>>>(
    '/add/:cacheName',
    { schema: { summary: summaries.add, params: CacheParams, body: bodies.add, response: IdResponse } },
    (request) => addEncounter(matching, customerScopeOf(request), request.params.cacheName, request.body.encounter),
  );

  scope.post<CacheRoute<ReadonlyArray<EncounterOf<S>>, Ok<typeof IdListResponse>>>(
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

  scope.post<CacheRoute<AddRequest<S>, Ok<typeof EmptyResponse>>>(
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

  scope.post<CacheRoute<IdentifyRequest<S, W>, Ok<typeof IdentifyResponse>>>(
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

  scope.post<CacheRoute<IdentifyPartialRequest<S, W>, Ok<typeof IdentifyResponse>>>(
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

  scope.post<{ Body: ExportRequest<S, W>; Reply: Ok<typeof ExportResponse> }>(
    '/export',
    { schema: { summary: summaries.export, body: bodies.export, response: ExportResponse } },
    async (request) => ({ export: await exportTemplate(matching, request.body) }),
  );

  addFuseScoresRoute(app);

  scope.post<{ Body: CompareRequest<S, W>; Reply: Ok<typeof ScoreResponse> }>(
    '/compare',
    { schema: { summary: summaries.compare, body: bodies.compare, response: ScoreResponse } },
    (request) => compareSamples(matching, request.body),
  );

  scope.post<CacheRoute<VerifyRequest<S, W>, Ok<typeof ScoreResponse>>>(
    '/verify/:cacheName',
    { schema: { summary: summaries.verify, params: CacheParams, body: bodies.verify, response: ScoreResponse } },
    (request) => verifySample(matching, customerScopeOf(request), request.params.cacheName, request.body),
  );
}
