import type { CalibratedScore } from '../scoring/calibrated-score.js';
import type { Modality } from '../templates/template-codec.js';

/**
 * What the matching machinery (caches, identification, template import and export) needs to know of one
 * modality's algorithms: their names, vector lengths and score calibration. Face and voice each give one
 * (src/engines/face/face-template-family.ts, src/engines/voice/voice-template-family.ts), so one cache and
 * gallery implementation serves both.
 *
 * @example
 * const family: TemplateFamily<'F200' | 'F500'> = FACE_TEMPLATES;
 * family.calibrated('F500', 0.9).scoreFmr; // -log10 FMR of a cosine of 0.9
 */
export interface TemplateFamily<A extends string> {
  /** The modality written into every template (src/engines/templates/template-codec.ts). */
  readonly modality: Modality;
  /** Every algorithm, in a fixed order; an encounter enrolled from a raw sample gets a template of each. */
  readonly algorithms: readonly A[];
  /** The algorithm used when a request names none. */
  readonly defaultAlgorithm: A;
  /** Length of the algorithm's (unit) template vector. */
  dimensions(algorithm: A): number;
  /** A score of two templates of the algorithm ({@link similarity}) with its calibrated forms. */
  calibrated(algorithm: A, score: number): CalibratedScore;
  /**
   * The vector a unit template is scored as, in galleries and searches: the template itself (face), or the
   * template scaled by its score normalisation (voice: src/engines/voice/score-normalisation.ts), so the dot
   * product of two scoring vectors is the family's score. Stored and exported templates stay unit vectors.
   */
  scoringVector(algorithm: A, unit: Float32Array): Float32Array;
  /**
   * The score of two unit templates: the dot product of their scoring vectors (for face, the cosine clamped to
   * [-1, 1]); `/compare` answers it, and a gallery search of the same pair gives it to int8 precision.
   */
  similarity(algorithm: A, a: Float32Array, b: Float32Array): number;
}

/** Unit template vectors of one sample, per algorithm; an imported template has only its own algorithm's. */
export type TemplateVectors<A extends string> = Partial<Record<A, Float32Array>>;

/**
 * The algorithm of a family a name denotes, or undefined for a name the family lacks.
 *
 * @example
 * familyAlgorithm(FACE_TEMPLATES, 'F200'); // 'F200'
 * familyAlgorithm(FACE_TEMPLATES, 'V600'); // undefined
 */
export function familyAlgorithm<A extends string>(family: TemplateFamily<A>, name: string): A | undefined {
  return family.algorithms.find((a) => a === name);
}
