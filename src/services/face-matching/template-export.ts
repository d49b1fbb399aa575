import { exportTemplate, vectorFor } from '../../biometric-matching/exported-templates.js';
import { FACE_TEMPLATES } from '../../engines/face/face-template-family.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import { algorithmOf } from './face-samples.js';
import type { FaceMatchingContext } from './matching-context.js';
import type { ExportBody, FaceSample } from './schemas.js';

/**
 * `/export`: the template of a face image, of the workflow's algorithm (F500 when not given).
 *
 * @example
 * await exportFaceTemplate(matching, { encounter: { VISIBLE_FRONTAL: jpegBase64 } }); // 'VlBUUwE...'
 */
export async function exportFaceTemplate(matching: FaceMatchingContext, body: ExportBody): Promise<string> {
  const algorithm = algorithmOf(body.workflow);
  const sample = imageOnly(body.encounter, 'encounter');
  return exportTemplate(
    matching.exports,
    FACE_TEMPLATES,
    algorithm,
    vectorFor(await matching.vectors(sample, 'encounter', [algorithm]), algorithm, 'encounter'),
  );
}

/**
 * `/exportAlgorithmTemplate`: the templates of a face image for every algorithm, by algorithm name.
 *
 * @example
 * await exportAlgorithmTemplates(matching, { encounter: { VISIBLE_FRONTAL: jpegBase64 } });
 * // { F200: 'VlBUUwE...', F500: 'VlBUUwE...' }
 */
export async function exportAlgorithmTemplates(
  matching: FaceMatchingContext,
  body: ExportBody,
): Promise<Record<string, string>> {
  const found = await matching.vectors(imageOnly(body.encounter, 'encounter'), 'encounter', FACE_TEMPLATES.algorithms);
  const byAlgorithm: Record<string, string> = {};
  for (const algorithm of FACE_TEMPLATES.algorithms)
    byAlgorithm[algorithm] = exportTemplate(
      matching.exports,
      FACE_TEMPLATES,
      algorithm,
      vectorFor(found, algorithm, 'encounter'),
    );
  return byAlgorithm;
}

function imageOnly(sample: FaceSample, field: string): FaceSample {
  if (sample.VISIBLE_FRONTAL === undefined)
    throw new ApiError(400, ErrorCode.missingField, `mandatory field missing: '${field}.VISIBLE_FRONTAL'`);
  if (sample.import !== undefined)
    throw invalidValue(`${field}: export takes an image (VISIBLE_FRONTAL), not a template`);
  return sample;
}
