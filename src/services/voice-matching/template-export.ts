import { exportTemplate, vectorFor } from '../../biometric-matching/exported-templates.js';
import { VOICE_TEMPLATES } from '../../engines/voice/voice-template-family.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import type { VoiceMatchingContext } from './matching-context.js';
import type { ExportBody } from './schemas.js';

/**
 * `/export`: the template of voice samples, of the workflow's algorithm (V600 when not given), sealed like
 * face exports; `import` takes it back in this service.
 *
 * @example
 * await exportVoiceTemplate(matching, { encounter: { voiceSamples: [{ data: wavBase64 }] } }); // 'VlBUUwE...'
 * @throws {ApiError} 400 -3 without voiceSamples, -6 for a template given instead (export takes samples)
 */
export async function exportVoiceTemplate(matching: VoiceMatchingContext, body: ExportBody): Promise<string> {
  const algorithm = matching.algorithmOf(body.workflow);
  const sample = body.encounter;
  if (sample.import !== undefined)
    throw invalidValue('encounter: export takes voice samples (voiceSamples), not a template');
  if (sample.voiceSamples === undefined)
    throw new ApiError(400, ErrorCode.missingField, "mandatory field missing: 'encounter.voiceSamples'");
  const vectors = await matching.vectors(sample, 'encounter', [algorithm], body.workflow);
  return exportTemplate(matching.exports, VOICE_TEMPLATES, algorithm, vectorFor(vectors, algorithm, 'encounter'));
}
