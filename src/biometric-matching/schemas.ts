import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { errorResponses } from '../server/schemas/coded-error.js';
import { StoredText } from '../server/schemas/stored-text.js';

/**
 * The schemas face and voice matching share (Doc 3 A and B have the same paths, bodies and responses but for
 * the form of a sample and of a workflow): the bodies are built from the service's sample and workflow.
 */

export const EncounterId = StoredText('encounter id, unique in its cache', { minLength: 1, maxLength: 256 });

export const Metadata = Type.Object(
  {},
  {
    additionalProperties: true,
    description: 'client metadata (username, client_device_brand, ...); accepted, never used to decide',
  },
);

export const CacheParams = Type.Object({
  cacheName: Type.String({ description: 'cache name: 1-128 of A-Z a-z 0-9 . _ -' }),
});
export type CacheParams = Static<typeof CacheParams>;

export const DeleteBody = Type.Object({ id: EncounterId });

const CandidateListSize = Type.Integer({
  minimum: 1,
  maximum: 1000,
  description: 'candidates to return (1-1000, default 10)',
});

/**
 * The add and update body: optional metadata and the encounter.
 *
 * @example
 * const AddBody = addBody(Encounter); // { metadata?, encounter }
 */
export const addBody = <E extends TSchema>(encounter: E) =>
  Type.Object({ metadata: Type.Optional(Metadata), encounter });

/**
 * The addBatch body: encounters of template form, all or none.
 *
 * @example
 * const AddBatchBody = addBatchBody(Encounter);
 */
export const addBatchBody = <E extends TSchema>(encounter: E) =>
  Type.Array(encounter, { description: 'encounters of template form (import), added all or none', maxItems: 100_000 });

/**
 * The identify body; the probe as `probe` (the examples) or `encounter` (the schema).
 *
 * @example
 * const IdentifyBody = identifyBody(FaceSample, Workflow);
 */
export const identifyBody = <S extends TSchema, W extends TSchema>(sample: S, workflow: W) =>
  Type.Object({
    metadata: Type.Optional(Metadata),
    probe: Type.Optional(sample),
    encounter: Type.Optional(sample),
    workflow: Type.Optional(workflow),
    candidateListSize: Type.Optional(CandidateListSize),
  });

/**
 * The identifyPartial body: the identify body and the ids to search.
 *
 * @example
 * const IdentifyPartialBody = identifyPartialBody(FaceSample, Workflow);
 */
export const identifyPartialBody = <S extends TSchema, W extends TSchema>(sample: S, workflow: W) =>
  Type.Object({
    metadata: Type.Optional(Metadata),
    probe: Type.Optional(sample),
    encounter: Type.Optional(sample),
    workflow: Type.Optional(workflow),
    candidateListSize: Type.Optional(CandidateListSize),
    idList: Type.Array(EncounterId, { maxItems: 100_000, description: 'encounter ids to search' }),
  });

/**
 * The export body: the sample and an optional workflow naming the algorithm.
 *
 * @example
 * const ExportBody = exportBody(FaceSample, Workflow);
 */
export const exportBody = <S extends TSchema, W extends TSchema>(sample: S, workflow: W) =>
  Type.Object({ encounter: sample, workflow: Type.Optional(workflow) });

/**
 * The compare body; its metadata is sent as `metadata.value`.
 *
 * @example
 * const CompareBody = compareBody(FaceSample, Workflow);
 */
export const compareBody = <S extends TSchema, W extends TSchema>(sample: S, workflow: W) =>
  Type.Object({
    metadata: Type.Optional(Type.Object({ value: Type.Optional(Metadata) }, { additionalProperties: true })),
    probe: sample,
    gallery: sample,
    workflow: Type.Optional(workflow),
  });

/**
 * The verify body: the probe and the id of the encounter to compare it with.
 *
 * @example
 * const VerifyBody = verifyBody(FaceSample, Workflow);
 */
export const verifyBody = <S extends TSchema, W extends TSchema>(sample: S, workflow: W) =>
  Type.Object({ metadata: Type.Optional(Metadata), probe: sample, workflow: Type.Optional(workflow), id: EncounterId });

/**
 * How the OpenAPI summaries of the shared routes name the modality: a sample and samples (`one`, `many`), its
 * raw form and raw forms (`raw`, `raws`), and the whole summary of `/export`.
 */
export interface ModalityWording {
  readonly one: string;
  readonly many: string;
  readonly raw: string;
  readonly raws: string;
  readonly export: string;
}

/**
 * The bodies and summaries of the routes face and voice matching share (`addMatchingRoutes`), built from the
 * modality's sample, encounter and workflow.
 *
 * @example
 * const RouteSchemas = matchingRouteSchemas(FaceSample, Encounter, Workflow, {
 *   one: 'face', many: 'faces', raw: 'image', raws: 'images', export: 'Template of a face image',
 * });
 * RouteSchemas.summaries.compare; // '1:1 comparison of two faces (images or templates)'
 */
export const matchingRouteSchemas = <S extends TSchema, E extends TSchema, W extends TSchema>(
  sample: S,
  encounter: E,
  workflow: W,
  wording: ModalityWording,
) => ({
  bodies: {
    add: addBody(encounter),
    addBatch: addBatchBody(encounter),
    identify: identifyBody(sample, workflow),
    identifyPartial: identifyPartialBody(sample, workflow),
    export: exportBody(sample, workflow),
    compare: compareBody(sample, workflow),
    verify: verifyBody(sample, workflow),
  },
  summaries: {
    add: `Adds an encounter (${wording.raw} or template); the first add creates the cache`,
    update: `Replaces an existing encounter's ${wording.one}`,
    export: wording.export,
    compare: `1:1 comparison of two ${wording.many} (${wording.raws} or templates)`,
    verify: `1:1 comparison of a ${wording.one} with one encounter of the cache`,
  },
});

const FmrScore = Type.Number({ minimum: 0, description: 'scoreFmr (-log10 FMR), not score' });

export const FuseScoresBody = Type.Object({ scores: Type.Array(FmrScore, { minItems: 1, maxItems: 100 }) });

export const FuseScoresForIdentificationBody = Type.Object({
  scores: Type.Array(
    Type.Array(
      Type.Object({
        scoreFmr: FmrScore,
        encounterCount: Type.Integer({ minimum: 1, description: 'encounters in the gallery searched' }),
      }),
      { minItems: 1, maxItems: 100, description: 'one item per modality of one candidate' },
    ),
    { minItems: 1, maxItems: 10_000, description: 'one inner array per candidate' },
  ),
});

export const ScoreResponse = {
  200: Type.Object({
    score: Type.Number({
      description:
        "the algorithm's raw similarity: face, cosine of the templates (-1 to 1); voice, score-normalised dot product (unbounded, about 0 for two speakers; docs/voice.md)",
    }),
    scorePercent: Type.Number({ description: 'calibrated 0-100 (docs/scores.md)' }),
    scoreFmr: Type.Number({ description: '-log10 FMR, the value /fuseScores takes (docs/scores.md)' }),
  }),
  ...errorResponses,
};

export const IdentifyResponse = {
  200: Type.Object({
    candidateList: Type.Array(
      Type.Object({ id: Type.String(), score: Type.Number(), scoreFmr: Type.Number(), scorePercent: Type.Number() }),
    ),
    recordErrors: Type.Array(Type.Object({ id: Type.String(), error: Type.String() })),
  }),
  ...errorResponses,
};

export const IdResponse = { 200: Type.Object({ id: Type.String() }), ...errorResponses };
export const IdListResponse = { 200: Type.Array(Type.String()), ...errorResponses };
export const EmptyResponse = { 200: Type.String({ description: 'empty string' }), ...errorResponses };
export const ConfirmResponse = {
  200: Type.Object({ confirm: Type.Integer({ description: 'number of encounters removed' }) }),
  ...errorResponses,
};
export const TextResponse = { 200: Type.String(), ...errorResponses };
export const ExportResponse = {
  200: Type.Object({ export: Type.String({ description: 'template, base64' }) }),
  ...errorResponses,
};
export const ScoreFusedResponse = { 200: Type.Object({ scoreFused: Type.Number() }), ...errorResponses };
export const ScoresFusedResponse = {
  200: Type.Object({
    scoresFused: Type.Array(Type.Object({ fusedScoreFpir: Type.Number(), fusedScoreFpirPercent: Type.Number() })),
  }),
  ...errorResponses,
};
