import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { templateSealer } from '../../crypto/template-sealing.js';
import { FACE_ALGORITHM_NAMES, type FaceAlgorithmName } from '../../engines/face/algorithms.js';
import { fuseForIdentification, fuseScores } from '../../engines/scoring/fusion.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { biometricEncountersRepository } from '../../store/biometric-encounters.js';
import { CacheGalleries } from './cache-galleries.js';
import { algorithmOf, exportTemplate, faceVectors, vectorFor } from './face-samples.js';
import { identify, type IdentifyResult } from './identification.js';
import {
  AddBatchBody,
  AddBody,
  AlgorithmExportResponse,
  CacheParams,
  CompareBody,
  ConfirmResponse,
  DeleteBody,
  EmptyResponse,
  ExportBody,
  ExportResponse,
  FuseScoresBody,
  FuseScoresForIdentificationBody,
  IdentifyBody,
  IdentifyPartialBody,
  IdentifyResponse,
  IdListResponse,
  IdResponse,
  ScoreFusedResponse,
  ScoreResponse,
  ScoresFusedResponse,
  TextResponse,
  VerifyBody,
  type FaceSample,
} from './schemas.js';
import { calibrated, cosine } from '../../engines/face/calibrated-score.js';

const SERVICE = 'face-matching';
const CACHE_NAME = /^[A-Za-z0-9._-]{1,128}$/;
const DEFAULT_CANDIDATES = 10;

/** The cache is full: the spec's 500 code. */
const CACHE_FULL = 1015;

async function faceMatchingRoutes(app: FastifyInstance, deps: ServiceDependencies): Promise<void> {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const caches = new CacheGalleries(
    biometricEncountersRepository(deps.store.db, SERVICE),
    templateSealer(deps.config.templateKey ?? deps.serverKeys.privateKey),
    SERVICE,
  );
  const limitOf = (cache: string) => deps.config.faceCacheLimits.get(cache) ?? deps.config.faceCacheLimit;
  const vectors = (sample: FaceSample, field: string, algorithms: readonly FaceAlgorithmName[]) =>
    faceVectors(deps.faceEngine(), sample, field, algorithms);
  // An encounter enrolled from an image gets a template of every algorithm (one engine pass).
  const encounterVectors = (sample: FaceSample, field: string) => vectors(sample, field, FACE_ALGORITHM_NAMES);

  addVersionRoute(app, SERVICE);

  scope.get(
    '/maxEncounters/:cacheName',
    { schema: { summary: 'Most encounters the cache may hold (text)', params: CacheParams, response: TextResponse } },
    async (request, reply) => reply.type('text/plain; charset=utf-8').send(String(limitOf(cacheName(request.params)))),
  );

  scope.get(
    '/encounterList/:cacheName',
    { schema: { summary: 'Ids of the encounters in the cache', params: CacheParams, response: IdListResponse } },
    async (request) => [...(await caches.fresh(cacheName(request.params))).ids].sort(),
  );

  scope.post(
    '/add/:cacheName',
    {
      schema: {
        summary: 'Adds an encounter (image or template); the first add creates the cache',
        params: CacheParams,
        body: AddBody,
        response: IdResponse,
      },
    },
    async (request) => {
      const cache = cacheName(request.params);
      const { encounter } = request.body;
      const added = await caches.add(
        cache,
        [{ id: encounter.id, vectors: await encounterVectors(encounter, 'encounter') }],
        limitOf(cache),
      );
      refuseUnlessAdded(added, cache);
      return { id: encounter.id };
    },
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
    async (request) => {
      const cache = cacheName(request.params);
      const seen = new Set<string>();
      const batch = await Promise.all(
        request.body.map(async (encounter, i) => {
          if (encounter.import === undefined || encounter.VISIBLE_FRONTAL !== undefined) {
            throw invalidValue(`[${i}]: addBatch takes template encounters: give 'import' only`);
          }
          if (seen.has(encounter.id)) throw invalidValue(`[${i}]: id '${encounter.id}' appears twice in the batch`);
          seen.add(encounter.id);
          return { id: encounter.id, vectors: await encounterVectors(encounter, `[${i}]`) };
        }),
      );
      if (batch.length === 0) return [];
      refuseUnlessAdded(await caches.add(cache, batch, limitOf(cache)), cache);
      return batch.map((e) => e.id);
    },
  );

  scope.post(
    '/update/:cacheName',
    {
      schema: {
        summary: "Replaces an existing encounter's face",
        params: CacheParams,
        body: AddBody,
        response: EmptyResponse,
      },
    },
    async (request, reply) => {
      const cache = cacheName(request.params);
      const { encounter } = request.body;
      const outcome = await caches.replace(cache, encounter.id, await encounterVectors(encounter, 'encounter'));
      if (outcome.kind === 'absent') throw invalidValue(`no encounter '${encounter.id}' in cache '${cache}': use /add`);
      return reply.type('text/plain; charset=utf-8').send('');
    },
  );

  scope.post(
    '/delete/:cacheName',
    { schema: { summary: 'Removes an encounter', params: CacheParams, body: DeleteBody, response: EmptyResponse } },
    async (request, reply) => {
      const cache = cacheName(request.params);
      if (!(await caches.remove(cache, request.body.id)))
        throw invalidValue(`no encounter '${request.body.id}' in cache '${cache}'`);
      return reply.type('text/plain; charset=utf-8').send('');
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
    async (request) => ({ confirm: await caches.dropAll(cacheName(request.params)) }),
  );

  const identifyIn = async (
    cache: string,
    probe: FaceSample,
    algorithm: FaceAlgorithmName,
    size: number,
    only?: readonly string[],
  ): Promise<IdentifyResult> => {
    const probeVector = vectorFor(await vectors(probe, 'probe', [algorithm]), algorithm, 'probe');
    return identify(await caches.fresh(cache), probeVector, algorithm, size, only);
  };

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
    async (request) => {
      const { body } = request;
      return identifyIn(
        cacheName(request.params),
        probeOf(body),
        algorithmOf(body.workflow),
        body.candidateListSize ?? DEFAULT_CANDIDATES,
      );
    },
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
    async (request) => {
      const { body } = request;
      return identifyIn(
        cacheName(request.params),
        probeOf(body),
        algorithmOf(body.workflow),
        body.candidateListSize ?? DEFAULT_CANDIDATES,
        body.idList,
      );
    },
  );

  scope.post(
    '/export',
    {
      schema: {
        summary: 'Template of a face image (F500 unless the workflow says otherwise)',
        body: ExportBody,
        response: ExportResponse,
      },
    },
    async (request) => {
      const algorithm = algorithmOf(request.body.workflow);
      const sample = imageOnly(request.body.encounter, 'encounter');
      return {
        export: exportTemplate(
          algorithm,
          vectorFor(await vectors(sample, 'encounter', [algorithm]), algorithm, 'encounter'),
        ),
      };
    },
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
    async (request) => {
      const found = await encounterVectors(imageOnly(request.body.encounter, 'encounter'), 'encounter');
      const byAlgorithm: Record<string, string> = {};
      for (const algorithm of FACE_ALGORITHM_NAMES)
        byAlgorithm[algorithm] = exportTemplate(algorithm, vectorFor(found, algorithm, 'encounter'));
      return { export: { VISIBLE_FRONTAL: byAlgorithm } };
    },
  );

  scope.post(
    '/fuseScores',
    {
      schema: {
        summary: 'Fuses scoreFmr values of independent modalities (sum)',
        body: FuseScoresBody,
        response: ScoreFusedResponse,
      },
    },
    async (request) => ({ scoreFused: fuseScores(request.body.scores) }),
  );

  scope.post(
    '/fuseScoresForIdentification',
    {
      schema: {
        summary: 'Per candidate: FPIR-scale fusion of 1:N scores',
        body: FuseScoresForIdentificationBody,
        response: ScoresFusedResponse,
      },
    },
    async (request) => ({ scoresFused: request.body.scores.map((candidate) => fuseForIdentification(candidate)) }),
  );

  scope.post(
    '/compare',
    {
      schema: {
        summary: '1:1 comparison of two faces (images or templates)',
        body: CompareBody,
        response: ScoreResponse,
      },
    },
    async (request) => {
      const algorithm = algorithmOf(request.body.workflow);
      const [probe, gallery] = await Promise.all([
        vectors(request.body.probe, 'probe', [algorithm]),
        vectors(request.body.gallery, 'gallery', [algorithm]),
      ]);
      const { score, scorePercent } = calibrated(
        algorithm,
        cosine(vectorFor(probe, algorithm, 'probe'), vectorFor(gallery, algorithm, 'gallery')),
      );
      return { score, scorePercent };
    },
  );

  scope.post(
    '/verify/:cacheName',
    {
      schema: {
        summary: '1:1 comparison of a face with one encounter of the cache',
        params: CacheParams,
        body: VerifyBody,
        response: ScoreResponse,
      },
    },
    async (request) => {
      const cache = cacheName(request.params);
      const algorithm = algorithmOf(request.body.workflow);
      const probe = vectorFor(await vectors(request.body.probe, 'probe', [algorithm]), algorithm, 'probe');
      const loaded = await caches.fresh(cache);
      const { id } = request.body;
      if (!loaded.ids.has(id)) throw invalidValue(`no encounter '${id}' in cache '${cache}'`);
      const unreadable = loaded.unreadable.get(id);
      if (unreadable !== undefined) throw new ApiError(500, ErrorCode.internal, `encounter '${id}': ${unreadable}`);
      const score = loaded.galleries.get(algorithm)?.score(probe, id);
      if (score === undefined)
        throw invalidValue(
          `encounter '${id}' has no ${algorithm} template (it was enrolled from a template of another algorithm)`,
        );
      const { score: raw, scorePercent } = calibrated(algorithm, score);
      return { score: raw, scorePercent };
    },
  );
}

function cacheName(params: CacheParams): string {
  if (!CACHE_NAME.test(params.cacheName))
    throw invalidValue(`cacheName must be 1-128 characters of A-Z a-z 0-9 . _ - (got '${params.cacheName}')`);
  return params.cacheName;
}

/** The spec's identify schema names the probe `encounter`, its examples `probe`: either is accepted, not both. */
function probeOf(body: { probe?: FaceSample | undefined; encounter?: FaceSample | undefined }): FaceSample {
  if (body.probe !== undefined && body.encounter !== undefined)
    throw invalidValue("give the probe as 'probe' or as 'encounter', not both");
  const probe = body.probe ?? body.encounter;
  if (probe === undefined) throw new ApiError(400, ErrorCode.missingField, "mandatory field missing: 'probe'");
  return probe;
}

function imageOnly(sample: FaceSample, field: string): FaceSample {
  if (sample.VISIBLE_FRONTAL === undefined)
    throw new ApiError(400, ErrorCode.missingField, `mandatory field missing: '${field}.VISIBLE_FRONTAL'`);
  if (sample.import !== undefined)
    throw invalidValue(`${field}: export takes an image (VISIBLE_FRONTAL), not a template`);
  return sample;
}

function refuseUnlessAdded(outcome: Awaited<ReturnType<CacheGalleries['add']>>, cache: string): void {
  if (outcome.kind === 'exists')
    throw invalidValue(`encounter '${outcome.id}' exists already in cache '${cache}': use /update to replace it`);
  if (outcome.kind === 'full')
    throw new ApiError(500, CACHE_FULL, `cache '${cache}' is full: it holds at most ${outcome.limit} encounters`);
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
