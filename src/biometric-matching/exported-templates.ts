import { decodeBase64 } from '../crypto/base64.js';
import { ExportedTemplateError, type ExportedTemplateSealer } from '../crypto/exported-template-sealing.js';
import { familyAlgorithm, type TemplateFamily, type TemplateVectors } from '../engines/matching/template-family.js';
import { decodeTemplate, encodeTemplate, TemplateFormatError } from '../engines/templates/template-codec.js';
import { dot, unitVector } from '../lib/vectors.js';
import { invalidValue } from '../server/errors/api-error.js';

/**
 * A template in the export format: float32 (exact), sealed (a fresh IV each time), base64.
 *
 * @example
 * exportTemplate(exports, FACE_TEMPLATES, 'F500', vectors.F500); // 'VlBUUwE...'
 */
export function exportTemplate<A extends string>(
  exports: ExportedTemplateSealer,
  family: TemplateFamily<A>,
  algorithm: A,
  vector: Float32Array,
): string {
  return exports.seal(encodeTemplate({ modality: family.modality, algorithm, vector })).toString('base64');
}

/**
 * The vector of an `import`: opened (an intact sealed export of this deployment), decoded and checked to be a
 * template of the family's modality, of one of its algorithms, of that algorithm's length, not zero.
 *
 * @example
 * importedVectors(exports, VOICE_TEMPLATES, body.probe.import, 'probe'); // { V600: Float32Array(...) }
 * @throws {ApiError} 400 -6 naming what is wrong; -5 for a string that is not base64
 */
export function importedVectors<A extends string>(
  exports: ExportedTemplateSealer,
  family: TemplateFamily<A>,
  base64: string,
  field: string,
): TemplateVectors<A> {
  let template;
  try {
    template = decodeTemplate(exports.open(decodeBase64(base64, `${field}.import`)));
  } catch (error) {
    if (error instanceof ExportedTemplateError || error instanceof TemplateFormatError)
      throw invalidValue(`${field}.import: ${error.message}`);
    throw error;
  }
  if (template.modality !== family.modality)
    throw invalidValue(
      `${field}.import: a ${template.modality} template cannot be used for ${family.modality} matching`,
    );
  const algorithm = familyAlgorithm(family, template.algorithm);
  if (!algorithm) throw invalidValue(`${field}.import: unknown ${family.modality} algorithm '${template.algorithm}'`);
  const dimensions = family.dimensions(algorithm);
  if (template.vector.length !== dimensions) {
    throw invalidValue(
      `${field}.import: an ${algorithm} template has ${dimensions} dimensions, not ${template.vector.length}`,
    );
  }
  if (!(dot(template.vector, template.vector) > 0)) throw invalidValue(`${field}.import: the template vector is zero`);
  const vectors: TemplateVectors<A> = {};
  vectors[algorithm] = unitVector(template.vector);
  return vectors;
}

/**
 * The vector of one algorithm, or a 400 naming what the sample lacks.
 *
 * @example
 * vectorFor(await matching.vectors(body.probe, 'probe', ['F500']), 'F500', 'probe');
 * @throws {ApiError} 400 -6 for a sample (an import) holding only another algorithm's template
 */
export function vectorFor<A extends string>(vectors: TemplateVectors<A>, algorithm: A, field: string): Float32Array {
  const vector = vectors[algorithm];
  if (!vector) {
    const held = Object.keys(vectors).join(', ');
    throw invalidValue(`${field}: the template is of algorithm ${held}; it cannot be compared with ${algorithm}`);
  }
  return vector;
}
