import { importedVectors } from '../../biometric-matching/exported-templates.js';
import { decodeBase64 } from '../../crypto/base64.js';
import type { ExportedTemplateSealer } from '../../crypto/exported-template-sealing.js';
import { familyAlgorithm, type TemplateVectors } from '../../engines/matching/template-family.js';
import {
  VOICE_SAMPLE_TYPES,
  type VoiceAlgorithmName,
  type VoiceSampleType,
} from '../../engines/voice/voice-algorithms.js';
import { VOICE_TEMPLATES } from '../../engines/voice/voice-template-family.js';
import { VoiceSampleError } from '../../engines/voice/voice-sample-error.js';
import { MIN_TEMPLATE_SPEECH_SECONDS, type VoiceTemplateOutput } from '../../engines/voice/voice-templating.js';
import { normalisedSum } from '../../lib/vectors.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import type { VoiceSamples, Workflow } from './schemas.js';

/** What voice matching needs of the voice engine: the templates of one sample (task `template`). */
export interface VoiceTemplater {
  /** @throws {VoiceSampleError} for a sample that does not decode, is empty or too long */
  template(
    sample: Uint8Array,
    algorithms: readonly VoiceAlgorithmName[],
    minSpeechSeconds: number,
  ): Promise<VoiceTemplateOutput>;
}

/** Unit vectors of one voice, per algorithm; an imported template has only its own algorithm's. */
export type VoiceVectors = TemplateVectors<VoiceAlgorithmName>;

/**
 * The algorithm a workflow asks for (V600 when no workflow is given); its sample-type list, under either
 * spelling, is checked here ({@link sampleTypesOf}).
 *
 * @example
 * algorithmOf({ comparator: { algorithm: 'V900', voiceSampleType: ['STATIC_PHRASE'] } }); // 'V900'
 * @throws {ApiError} 400 -6 for an unknown algorithm or sample type
 */
export function algorithmOf(workflow: Workflow | undefined): VoiceAlgorithmName {
  sampleTypesOf(workflow);
  const name = workflow?.comparator.algorithm ?? VOICE_TEMPLATES.defaultAlgorithm;
  const algorithm = familyAlgorithm(VOICE_TEMPLATES, name);
  if (algorithm === undefined)
    throw invalidValue(
      `workflow.comparator.algorithm must be one of ${VOICE_TEMPLATES.algorithms.join(', ')} (got '${name}')`,
    );
  return algorithm;
}

/**
 * The sample types a workflow's comparator accepts: `voiceSampleTypes` (the spec's model) or
 * `voiceSampleType` (its examples), or both if they agree; undefined when neither is given (any type).
 *
 * @example
 * sampleTypesOf({ comparator: { algorithm: 'V600', voiceSampleType: ['TEXT_INDEPENDENT'] } }); // ['TEXT_INDEPENDENT']
 * @throws {ApiError} 400 -6 for a type the spec does not name, an empty list, or two lists that differ
 */
export function sampleTypesOf(workflow: Workflow | undefined): readonly VoiceSampleType[] | undefined {
  const model = workflow?.comparator.voiceSampleTypes;
  const example = workflow?.comparator.voiceSampleType;
  if (model !== undefined && example !== undefined && [...model].sort().join() !== [...example].sort().join())
    throw invalidValue('workflow.comparator: voiceSampleTypes and voiceSampleType differ: give one list');
  const list = model ?? example;
  if (list === undefined) return undefined;
  const field = model !== undefined ? 'voiceSampleTypes' : 'voiceSampleType';
  if (list.length === 0) throw invalidValue(`workflow.comparator.${field} must name at least one sample type`);
  return list.map((type) => checkedSampleType(type, `workflow.comparator.${field}`));
}

/**
 * The sample type whose calibration table scores a comparison: STATIC_PHRASE when the workflow's list names
 * only that type (the same phrase on both sides), TEXT_INDEPENDENT otherwise.
 *
 * @example
 * calibrationTypeOf({ comparator: { algorithm: 'V900', voiceSampleType: ['STATIC_PHRASE'] } }); // 'STATIC_PHRASE'
 */
export function calibrationTypeOf(workflow: Workflow | undefined): VoiceSampleType {
  const types = sampleTypesOf(workflow);
  return types !== undefined && types.every((t) => t === 'STATIC_PHRASE') ? 'STATIC_PHRASE' : 'TEXT_INDEPENDENT';
}

/**
 * Turns a probe, gallery item or encounter into unit vectors: each voice sample goes to the voice engine
 * (every algorithm in `algorithms` from one pass over its speech) and the samples' vectors are averaged; a
 * template is opened and checked.
 *
 * @example
 * const vectors = await voiceVectors(engine, exports, body.probe, 'probe', ['V600'], body.workflow);
 * @throws {ApiError} 400: -3 neither member; -6 both, an unknown sample type or one the workflow does not
 *   take, a sample that does not decode (or is empty, or over 60 s), a sample with less speech than
 *   `minVoiceLengthSeconds` (0.25 s at least), a template that is not an intact voice export; -5 bad base64
 */
export async function voiceVectors(
  engine: VoiceTemplater,
  exports: ExportedTemplateSealer,
  sample: VoiceSamples,
  field: string,
  algorithms: readonly VoiceAlgorithmName[],
  workflow?: Workflow,
): Promise<VoiceVectors> {
  const { voiceSamples, import: template } = sample;
  if (template !== undefined) {
    if (voiceSamples !== undefined) throw invalidValue(`${field}: give voiceSamples or import, not both`);
    return importedVectors(exports, VOICE_TEMPLATES, template, field);
  }
  if (voiceSamples === undefined)
    throw new ApiError(
      400,
      ErrorCode.missingField,
      `mandatory field missing: '${field}.voiceSamples' or '${field}.import'`,
    );
  const accepted = sampleTypesOf(workflow);
  const bytes = voiceSamples.map((s, i) => {
    const where = `${field}.voiceSamples[${i}]`;
    if (s.voiceSampleType !== undefined) {
      const type = checkedSampleType(s.voiceSampleType, `${where}.voiceSampleType`);
      if (accepted !== undefined && !accepted.includes(type))
        throw invalidValue(`${where}.voiceSampleType ${type} is not among the workflow's ${accepted.join(', ')}`);
    }
    return decodeBase64(s.data, `${where}.data`);
  });
  const minimum = sample.minVoiceLengthSeconds ?? 0;
  const outputs = await Promise.all(
    bytes.map((data, i) =>
      engine.template(data, algorithms, minimum).catch((error: unknown) => {
        if (error instanceof VoiceSampleError) throw invalidValue(`${field}.voiceSamples[${i}].data: ${error.message}`);
        throw error;
      }),
    ),
  );
  const vectorsOf = outputs.map((output, i) => {
    if (output.vectors === undefined)
      throw invalidValue(
        `${field}.voiceSamples[${i}]: ${output.measurement.speechSeconds.toFixed(2)} s of speech, less than the ` +
          `${output.minSpeechSeconds} s required (minVoiceLengthSeconds, never below ${MIN_TEMPLATE_SPEECH_SECONDS} s)`,
      );
    return output.vectors;
  });
  // Several recordings of one speaker: the mean of their unit vectors, back to unit length.
  const vectors: VoiceVectors = {};
  for (const algorithm of algorithms) {
    const each = vectorsOf.map((v) => v[algorithm]).filter((v): v is Float32Array => v !== undefined);
    if (each.length > 0) vectors[algorithm] = normalisedSum(each);
  }
  return vectors;
}
function checkedSampleType(type: string, field: string): VoiceSampleType {
  const known = VOICE_SAMPLE_TYPES.find((t) => t === type);
  if (known === undefined)
    throw invalidValue(`${field} must be one of ${VOICE_SAMPLE_TYPES.join(', ')} (got '${type}')`);
  return known;
}
