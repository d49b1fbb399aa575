import type { TemplateFamily } from '../matching/template-family.js';
import { FACE_ALGORITHMS, FACE_ALGORITHM_NAMES, type FaceAlgorithmName } from './algorithms.js';
import { calibrated, cosine } from './calibrated-score.js';

/**
 * The face algorithms (F200, F500) as the matching caches and galleries see them; F500 by default.
 *
 * @example
 * new CacheGalleries(repositoryOf, sealer, 'face-matching', FACE_TEMPLATES);
 */
export const FACE_TEMPLATES: TemplateFamily<FaceAlgorithmName> = {
  modality: 'face',
  algorithms: FACE_ALGORITHM_NAMES,
  defaultAlgorithm: 'F500',
  dimensions: (algorithm) => FACE_ALGORITHMS[algorithm].dimensions,
  calibrated,
  scoringVector: (_algorithm, unit) => unit,
  similarity: (_algorithm, a, b) => cosine(a, b),
};
