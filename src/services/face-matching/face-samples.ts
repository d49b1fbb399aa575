import { importedVectors } from '../../biometric-matching/exported-templates.js';
import { decodeBase64 } from '../../crypto/base64.js';
import type { ExportedTemplateSealer } from '../../crypto/exported-template-sealing.js';
import { FACE_ALGORITHMS, FACE_ALGORITHM_NAMES, type FaceAlgorithmName } from '../../engines/face/algorithms.js';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import type { EmbeddingOptions } from '../../engines/face/face-pipeline.js';
import { FACE_TEMPLATES } from '../../engines/face/face-template-family.js';
import { selectSubjectFace } from '../../engines/face/face-selection.js';
import type { TemplateVectors } from '../../engines/matching/template-family.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import { fromRequestImage } from '../../server/errors/request-image-error.js';
import type { FaceSample, Workflow } from './schemas.js';

/** Unit vectors of one face, per algorithm; an imported template has only its own algorithm's. */
export type FaceVectors = TemplateVectors<FaceAlgorithmName>;

/**
 * The algorithm a workflow asks for (F500 when no workflow is given).
 *
 * @example
 * algorithmOf({ comparator: { algorithm: 'F200' } }); // 'F200'
 */
export function algorithmOf(workflow: Workflow | undefined): FaceAlgorithmName {
  const name = workflow?.comparator.algorithm ?? 'F500';
  if (!(FACE_ALGORITHM_NAMES as readonly string[]).includes(name)) {
    throw invalidValue(
      `workflow.comparator.algorithm must be one of ${FACE_ALGORITHM_NAMES.join(', ')} (got '${name}')`,
    );
  }
  const types = workflow?.comparator.faceTypes;
  if (types !== undefined && types.some((t) => t !== 'VISIBLE_FRONTAL')) {
    throw invalidValue(`workflow.comparator.faceTypes supports only VISIBLE_FRONTAL (got ${JSON.stringify(types)})`);
  }
  return name as FaceAlgorithmName;
}

/**
 * Turns a probe, gallery item or encounter into unit vectors: an image is analysed by the face
 * engine for every algorithm in `algorithms` (one pass), a template is opened (`exports`), checked
 * and decoded.
 *
 * @example
 * const vectors = await faceVectors(engine, exports, body.probe, 'probe', ['F500']);
 * @throws {ApiError} 400 with the spec code: -3 neither member, -6 both members, an image without a
 *   usable subject face (none, two equally dominant, too small: face-selection.ts), an undecodable
 *   image, a template that is not an intact sealed export of this deployment, or a template of another
 *   modality
 */
export async function faceVectors(
  engine: FaceEngine,
  exports: ExportedTemplateSealer,
  sample: FaceSample,
  field: string,
  algorithms: readonly FaceAlgorithmName[],
): Promise<FaceVectors> {
  const image = sample.VISIBLE_FRONTAL;
  const template = sample.import;
  if (template !== undefined) {
    if (image !== undefined) throw invalidValue(`${field}: give VISIBLE_FRONTAL or import, not both`);
    return importedVectors(exports, FACE_TEMPLATES, template, field);
  }
  if (image === undefined) {
    throw new ApiError(
      400,
      ErrorCode.missingField,
      `mandatory field missing: '${field}.VISIBLE_FRONTAL' or '${field}.import'`,
    );
  }
  const bytes = decodeBase64(image, `${field}.VISIBLE_FRONTAL`);
  const analysis = await fromRequestImage(`${field}.VISIBLE_FRONTAL`, engine.analyze(bytes, embeddingsFor(algorithms)));
  const subject = selectSubjectFace(analysis.faces, analysis);
  if (!subject.ok) throw invalidValue(`${field}.VISIBLE_FRONTAL: ${subject.message}`);
  const vectors: FaceVectors = {};
  for (const name of algorithms) vectors[name] = FACE_ALGORITHMS[name].templateVector(subject.face);
  return vectors;
}

/** What the engine must compute to serve all the given algorithms at once (their views are prefixes of one another). */
export function embeddingsFor(algorithms: readonly FaceAlgorithmName[]): EmbeddingOptions {
  const wanted = algorithms.map((a) => FACE_ALGORITHMS[a].embeddings);
  const views = wanted.reduce(
    (longest, e) => (e.views.length > longest.length ? e.views : longest),
    wanted[0]?.views ?? [],
  );
  return { views, description: wanted.some((e) => e.description) };
}
