/**
 * Score normalisation of speaker templates: symmetric score normalisation (S-norm) in dot-product form. A
 * template x is scaled to n(x) = x / √σ(x), σ(x) being the standard deviation of x's scores (dot products)
 * against the model's cohort of background-speaker templates; the cohort's mean score is close to 0, so
 * n(a)·n(b) = a·b / √(σ(a)σ(b)) is S-norm's score and stays one dot product: the matching galleries hold
 * n(x) and search it as they search unit vectors. Stored and exported templates stay unit vectors; the scaling
 * is applied where they are scored. Measured gain and design: docs/voice.md "Speaker templates".
 */
import { VectorGallery } from '../matching/vector-gallery.js';
import { loadSpeakerModel, type SpeakerCohort, type SpeakerModel } from './speaker-model.js';
import type { VoiceAlgorithmName } from './voice-algorithms.js';

/** The cohort of a model as a matching gallery (int8 rows, SIMD scan), built once per cohort. */
const galleries = new WeakMap<SpeakerCohort, VectorGallery>();

function cohortGallery(cohort: SpeakerCohort): VectorGallery {
  let gallery = galleries.get(cohort);
  if (gallery) return gallery;
  gallery = new VectorGallery(cohort.dims, 'int8');
  const row = new Float32Array(cohort.dims);
  for (let r = 0; r < cohort.rows; r++) {
    const scale = cohort.scales[r] ?? 0;
    const offset = r * cohort.dims;
    for (let d = 0; d < cohort.dims; d++) row[d] = (cohort.values[offset + d] ?? 0) * scale;
    gallery.add(String(r), row);
  }
  galleries.set(cohort, gallery);
  return gallery;
}

/**
 * n(x) = x / √σ(x) of a speaker template of `algorithm` (a unit vector as speakerVectors gives it), σ(x) the
 * standard deviation of its dot products with the model's cohort rows (one scan of the cohort gallery). The
 * dot product of two normalised templates is their normalised score, the `score` voice matching answers and
 * its calibration tables are built from. A zero template (no speaker in it) stays zero.
 *
 * @example
 * const a = normalisedSpeakerVector(speakerVector(speechA, 'V600'), 'V600');
 * const b = normalisedSpeakerVector(speakerVector(speechB, 'V600'), 'V600');
 * dot(a, b); // cos(a, b) / √(σ(a)·σ(b)): e.g. 4.1 for one speaker, about 0 ± 1 for two
 * @throws {RangeError} when the template's length is not the algorithm's under `model`
 */
export function normalisedSpeakerVector(
  unit: Float32Array,
  algorithm: VoiceAlgorithmName,
  model: SpeakerModel = loadSpeakerModel(),
): Float32Array {
  const cohort = model.cohort[algorithm];
  const hits = cohortGallery(cohort).search(unit, cohort.rows);
  let sum = 0;
  let squares = 0;
  for (const { score } of hits) {
    sum += score;
    squares += score * score;
  }
  const mean = sum / hits.length;
  const sigma = Math.sqrt(Math.max(0, squares / hits.length - mean * mean));
  if (!(sigma > 0)) return Float32Array.from(unit);
  const k = 1 / Math.sqrt(sigma);
  return Float32Array.from(unit, (v) => v * k);
}
