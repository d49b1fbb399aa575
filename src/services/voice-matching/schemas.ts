import { Type, type Static } from '@sinclair/typebox';
import { EncounterId, matchingRouteSchemas } from '../../biometric-matching/schemas.js';
import { Base64 } from '../../server/schemas/encrypted-request.js';

export const VoiceSample = Type.Object(
  {
    data: Base64('voice recording, base64: WAV (PCM or float, any rate), Ogg/Opus or WebM/Opus'),
    voiceSampleType: Type.Optional(Type.String({ description: 'STATIC_PHRASE or TEXT_INDEPENDENT' })),
  },
  { description: 'one recording and what was said in it' },
);
export type VoiceSample = Static<typeof VoiceSample>;

/** The members of the spec's voice samples object, shared by samples and encounters. */
const voiceSamplesMembers = {
  voiceSamples: Type.Optional(
    Type.Array(VoiceSample, {
      minItems: 1,
      maxItems: 20,
      description: 'recordings of one speaker; their speech is pooled into one template',
    }),
  ),
  minVoiceLengthSeconds: Type.Optional(
    Type.Number({
      minimum: 0,
      maximum: 60,
      description: 'speech (voice activity, not recording length) each sample must hold, in seconds; default 0.25',
    }),
  ),
  import: Type.Optional(Base64('template from /export, base64')),
};

/** A voice given as voice samples or as a template: exactly one of the two. */
export const VoiceSamples = Type.Object(voiceSamplesMembers, {
  description: 'a voice samples object (voiceSamples, minVoiceLengthSeconds) or a template (import): exactly one',
});
export type VoiceSamples = Static<typeof VoiceSamples>;

export const Encounter = Type.Object(
  { id: EncounterId, ...voiceSamplesMembers },
  { description: 'an encounter: its id and voice samples or a template (import)' },
);
export type Encounter = Static<typeof Encounter>;

const SampleTypeList = (name: string) =>
  Type.Optional(Type.Array(Type.String(), { maxItems: 2, description: `STATIC_PHRASE, TEXT_INDEPENDENT (${name})` }));

export const Workflow = Type.Object(
  {
    comparator: Type.Object({
      algorithm: Type.String({ description: 'V600 (text-independent, the default) or V900 (fixed phrases)' }),
      voiceSampleTypes: SampleTypeList("the model's spelling"),
      voiceSampleType: SampleTypeList("the examples' spelling"),
    }),
  },
  { description: 'which algorithm compares and which sample types it takes; V600 and any type when left out' },
);
export type Workflow = Static<typeof Workflow>;

/** How the summaries of the routes shared with the other matching service (RouteSchemas) name the sample. */
const exportSummary = 'Template of voice samples (V600 unless the workflow says otherwise), sealed';
const wording = { one: 'voice', many: 'voices', raw: 'voice samples', raws: 'voice samples', export: exportSummary };
export const RouteSchemas = matchingRouteSchemas(VoiceSamples, Encounter, Workflow, wording);
export const ExportBody = RouteSchemas.bodies.export;
export type ExportBody = Static<typeof ExportBody>;
