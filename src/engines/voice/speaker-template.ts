/**
 * Speaker templates: speech in, a unit vector of fixed length per algorithm out, compared by dot product.
 */
import { gmmStatistics, mapMeanSupervector } from './diagonal-gmm.js';
import { normaliseMeanVariance, type FeatureMatrix } from './features/feature-matrix.js';
import { speakerFrames, utteranceStatistics } from './speaker-features.js';
import { loadSpeakerModel, type SpeakerProjection, type SpeakerTemplateModel } from './speaker-model.js';
import type { VoiceAlgorithmName } from './voice-algorithms.js';
import { VoiceSampleError } from './voice-sample-error.js';

/**
 * The template length of an algorithm under the shipped model.
 *
 * @example
 * speakerVectorLength('V600'); // e.g. 120
 */
export function speakerVectorLength(
  algorithm: VoiceAlgorithmName,
  model: SpeakerTemplateModel = loadSpeakerModel(),
): number {
  const v600 = model.V600.projection.outDims;
  if (algorithm === 'V600') return v600;
  const { ubm, statisticsWeight } = model.V900;
  return ubm.components * ubm.dims + (statisticsWeight > 0 ? v600 : 0);
}

/**
 * The speaker vector of speech (16 kHz mono, the speech frames of a sample: voice-activity.ts `speechSamples`):
 * a unit vector of {@link speakerVectorLength} values; the dot product of two is their similarity.
 *
 * @example
 * const a = speakerVector(speechSamples(audio.samples, activity), 'V600');
 * dot(a, b); // cosine similarity, higher for the same speaker (the service scores S-norm scaled templates)
 * @throws {VoiceSampleError} `empty` when the speech is shorter than one 25 ms frame
 */
export function speakerVector(
  speech: Float32Array,
  algorithm: VoiceAlgorithmName,
  model: SpeakerTemplateModel = loadSpeakerModel(),
): Float32Array {
  const vectors = speakerVectors(speech, [algorithm], model);
  const vector = vectors[algorithm];
  if (vector === undefined) throw new Error(`no ${algorithm} vector was computed`);
  return vector;
}

/**
 * Several algorithms' vectors of the same speech, computing the shared features once.
 *
 * @example
 * const { V600, V900 } = speakerVectors(speech, ['V600', 'V900']);
 * @throws {VoiceSampleError} `empty` when the speech is shorter than one 25 ms frame
 */
export function speakerVectors(
  speech: Float32Array,
  algorithms: readonly VoiceAlgorithmName[],
  model: SpeakerTemplateModel = loadSpeakerModel(),
): Partial<Record<VoiceAlgorithmName, Float32Array>> {
  const frames = speakerFrames(speech, model.features);
  if (frames.frames === 0) throw new VoiceSampleError('empty', 'the sample holds no speech to model a speaker on');
  const out: Partial<Record<VoiceAlgorithmName, Float32Array>> = {};
  let v600: Float32Array | undefined;
  const statisticsVector = (): Float32Array => {
    v600 ??= unit(project(model.V600.projection, utteranceStatistics(frames, model.features.coefficients)));
    return v600;
  };
  for (const algorithm of algorithms) {
    out[algorithm] = algorithm === 'V600' ? statisticsVector() : supervectorTemplate(frames, model, statisticsVector);
  }
  return out;
}

function supervectorTemplate(
  frames: FeatureMatrix,
  model: SpeakerTemplateModel,
  statisticsVector: () => Float32Array,
): Float32Array {
  const { ubm, relevance, statisticsWeight } = model.V900;
  // CMVN on a copy: the statistics vector needs the raw cepstral means.
  const normalised = normaliseMeanVariance({
    frames: frames.frames,
    dims: frames.dims,
    values: Float32Array.from(frames.values),
  });
  const supervector = unit(mapMeanSupervector(ubm, gmmStatistics(ubm, normalised), relevance));
  if (statisticsWeight <= 0) return supervector;
  // Concatenating √a·u and √(1−a)·v makes the dot product the weighted sum a·(u·u′) + (1−a)·(v·v′): score fusion
  // of the two systems inside one unit vector.
  const statistics = statisticsVector();
  const out = new Float32Array(statistics.length + supervector.length);
  const a = Math.sqrt(statisticsWeight);
  const b = Math.sqrt(1 - statisticsWeight);
  for (let i = 0; i < statistics.length; i++) out[i] = a * (statistics[i] ?? 0);
  for (let i = 0; i < supervector.length; i++) out[statistics.length + i] = b * (supervector[i] ?? 0);
  return out;
}

function project(p: SpeakerProjection, x: Float64Array): Float64Array {
  const out = new Float64Array(p.outDims);
  for (let k = 0; k < p.outDims; k++) {
    let s = 0;
    const row = k * p.inDims;
    for (let d = 0; d < p.inDims; d++) s += (p.matrix[row + d] ?? 0) * ((x[d] ?? 0) - (p.mean[d] ?? 0));
    out[k] = s;
  }
  return out;
}

function unit(v: ArrayLike<number>): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += (v[i] ?? 0) ** 2;
  norm = Math.sqrt(norm);
  const out = new Float32Array(v.length);
  // A zero vector (silence that passed the gate) stays zero rather than NaN: it matches nothing.
  if (norm > 0) for (let i = 0; i < v.length; i++) out[i] = (v[i] ?? 0) / norm;
  return out;
}
