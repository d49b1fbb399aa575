import { Type, type Static } from '@sinclair/typebox';
import { EncounterId, matchingRouteSchemas } from '../../biometric-matching/schemas.js';
import { errorResponses } from '../../server/schemas/coded-error.js';
import { Base64 } from '../../server/schemas/encrypted-request.js';

/** A face given as an image or as a template: exactly one of the two members. */
export const FaceSample = Type.Object(
  {
    VISIBLE_FRONTAL: Type.Optional(Base64('face image (JPEG, PNG, WebP, ...), base64')),
    import: Type.Optional(Base64('template from /export, base64')),
  },
  { description: 'a face image (VISIBLE_FRONTAL) or a template (import): exactly one' },
);
export type FaceSample = Static<typeof FaceSample>;

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

export const AlgorithmExportResponse = {
  200: Type.Object({
    export: Type.Record(Type.String(), Type.Record(Type.String(), Type.String()), {
      description: 'face type -> algorithm -> template (base64)',
    }),
  }),
  ...errorResponses,
};

/** How the summaries of the routes shared with the other matching service (RouteSchemas) name the sample. */
const exportSummary = 'Template of a face image (F500 unless the workflow says otherwise)';
const wording = { one: 'face', many: 'faces', raw: 'image', raws: 'images', export: exportSummary };
export const RouteSchemas = matchingRouteSchemas(FaceSample, Encounter, Workflow, wording);
export const ExportBody = RouteSchemas.bodies.export;
export type ExportBody = Static<typeof ExportBody>;
