import { Type, type Static } from '@sinclair/typebox';
import { errorResponses } from '../../server/schemas/coded-error.js';
import { Base64 } from '../../server/schemas/encrypted-request.js';
import { StoredText } from '../../server/schemas/stored-text.js';

/** A face given as an image or as a template: exactly one of the two members. */
export const FaceSample = Type.Object(
  {
    VISIBLE_FRONTAL: Type.Optional(Base64('face image (JPEG, PNG, WebP, ...), base64')),
    import: Type.Optional(Base64('template from /export, base64')),
  },
  { description: 'a face image (VISIBLE_FRONTAL) or a template (import): exactly one' },
);
export type FaceSample = Static<typeof FaceSample>;

const EncounterId = StoredText('encounter id, unique in its cache', { minLength: 1, maxLength: 256 });

export const Encounter = Type.Object(
  {
    id: EncounterId,
    VISIBLE_FRONTAL: Type.Optional(Base64('face image, base64')),
    import: Type.Optional(Base64('template from /export, base64')),
  },
  { description: 'an encounter: its id and a face image (VISIBLE_FRONTAL) or a template (import)' },
);
export type Encounter = Static<typeof Encounter>;

export const Workflow = Type.Object(
  {
    comparator: Type.Object({
      algorithm: Type.String({ description: 'F200 (fast) or F500 (most accurate)' }),
      faceTypes: Type.Optional(Type.Array(Type.String(), { description: 'VISIBLE_FRONTAL' })),
    }),
  },
  { description: 'which algorithm compares; F500 when left out' },
);
export type Workflow = Static<typeof Workflow>;

const Metadata = Type.Object(
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

export const AddBody = Type.Object({ metadata: Type.Optional(Metadata), encounter: Encounter });
export type AddBody = Static<typeof AddBody>;

export const AddBatchBody = Type.Array(Encounter, {
  description: 'encounters of template form (import), added all or none',
  maxItems: 100_000,
});
export type AddBatchBody = Static<typeof AddBatchBody>;

export const DeleteBody = Type.Object({ id: EncounterId });

const CandidateListSize = Type.Integer({
  minimum: 1,
  maximum: 1000,
  description: 'candidates to return (1-1000, default 10)',
});

export const IdentifyBody = Type.Object({
  metadata: Type.Optional(Metadata),
  probe: Type.Optional(FaceSample),
  encounter: Type.Optional(FaceSample),
  workflow: Type.Optional(Workflow),
  candidateListSize: Type.Optional(CandidateListSize),
});
export type IdentifyBody = Static<typeof IdentifyBody>;

export const IdentifyPartialBody = Type.Object({
  metadata: Type.Optional(Metadata),
  probe: Type.Optional(FaceSample),
  encounter: Type.Optional(FaceSample),
  workflow: Type.Optional(Workflow),
  candidateListSize: Type.Optional(CandidateListSize),
  idList: Type.Array(EncounterId, { maxItems: 100_000, description: 'encounter ids to search' }),
});
export type IdentifyPartialBody = Static<typeof IdentifyPartialBody>;

export const ExportBody = Type.Object({ encounter: FaceSample, workflow: Type.Optional(Workflow) });
export type ExportBody = Static<typeof ExportBody>;

export const CompareBody = Type.Object({
  metadata: Type.Optional(Type.Object({ value: Type.Optional(Metadata) }, { additionalProperties: true })),
  probe: FaceSample,
  gallery: FaceSample,
  workflow: Type.Optional(Workflow),
});
export type CompareBody = Static<typeof CompareBody>;

export const VerifyBody = Type.Object({
  metadata: Type.Optional(Metadata),
  probe: FaceSample,
  workflow: Type.Optional(Workflow),
  id: EncounterId,
});
export type VerifyBody = Static<typeof VerifyBody>;

const FiniteNumber = Type.Number({ minimum: 0, description: 'scoreFmr (-log10 FMR), not score' });

export const FuseScoresBody = Type.Object({ scores: Type.Array(FiniteNumber, { minItems: 1, maxItems: 100 }) });

export const FuseScoresForIdentificationBody = Type.Object({
  scores: Type.Array(
    Type.Array(
      Type.Object({
        scoreFmr: FiniteNumber,
        encounterCount: Type.Integer({ minimum: 1, description: 'encounters in the gallery searched' }),
      }),
      { minItems: 1, maxItems: 100, description: 'one item per modality of one candidate' },
    ),
    { minItems: 1, maxItems: 10_000, description: 'one inner array per candidate' },
  ),
});

export const ScoreResponse = {
  200: Type.Object({
    score: Type.Number({ description: 'cosine similarity' }),
    scorePercent: Type.Number({ description: 'calibrated 0-100 (docs/scores.md)' }),
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
export const AlgorithmExportResponse = {
  200: Type.Object({
    export: Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
      description: 'face type -> algorithm -> template (base64)',
    }),
  }),
  ...errorResponses,
};
export const ScoreFusedResponse = { 200: Type.Object({ scoreFused: Type.Number() }), ...errorResponses };
export const ScoresFusedResponse = {
  200: Type.Object({
    scoresFused: Type.Array(Type.Object({ fusedScoreFpir: Type.Number(), fusedScoreFpirPercent: Type.Number() })),
  }),
  ...errorResponses,
};
