/**
 * Frame-by-feature matrices (MFCC, LFCC, ...) and the per-utterance operations every voice feature shares:
 * delta coefficients, cepstral mean and variance normalisation (CMVN), frame selection.
 */

/** `frames` rows of `dims` values, row-major: `values[f * dims + d]`. */
export interface FeatureMatrix {
  readonly frames: number;
  readonly dims: number;
  readonly values: Float32Array;
}

/**
 * The matrix with its delta (regression over ±`window` frames, edges repeated) columns appended:
 * `dims` becomes `2 · dims`.
 *
 * @example
 * const withVelocity = appendDeltas(mfccMatrix); // 20 MFCC + 20 Δ per frame
 */
export function appendDeltas(matrix: FeatureMatrix, window = 2): FeatureMatrix {
  const { frames, dims, values } = matrix;
  const outDims = dims * 2;
  const out = new Float32Array(frames * outDims);
  let denominator = 0;
  for (let n = 1; n <= window; n++) denominator += 2 * n * n;
  const clampFrame = (f: number): number => Math.min(frames - 1, Math.max(0, f));
  for (let f = 0; f < frames; f++) {
    const row = f * outDims;
    for (let d = 0; d < dims; d++) {
      out[row + d] = values[f * dims + d] ?? 0;
      let s = 0;
      for (let n = 1; n <= window; n++) {
        s += n * ((values[clampFrame(f + n) * dims + d] ?? 0) - (values[clampFrame(f - n) * dims + d] ?? 0));
      }
      out[row + dims + d] = s / denominator;
    }
  }
  return { frames, dims: outDims, values: out };
}

/**
 * Per-utterance mean and variance normalisation, in place: every column gets mean 0 and standard deviation 1
 * (a constant column just mean 0). Removes the stationary channel (microphone, room) from cepstra.
 *
 * @example
 * normaliseMeanVariance(features); // features.values changed in place
 */
export function normaliseMeanVariance(matrix: FeatureMatrix): FeatureMatrix {
  const { frames, dims, values } = matrix;
  if (frames === 0) return matrix;
  for (let d = 0; d < dims; d++) {
    let sum = 0;
    let sumSquares = 0;
    for (let f = 0; f < frames; f++) {
      const v = values[f * dims + d] ?? 0;
      sum += v;
      sumSquares += v * v;
    }
    const mean = sum / frames;
    const std = Math.sqrt(Math.max(0, sumSquares / frames - mean * mean));
    const scale = std > 1e-8 ? 1 / std : 1;
    for (let f = 0; f < frames; f++) values[f * dims + d] = ((values[f * dims + d] ?? 0) - mean) * scale;
  }
  return matrix;
}

/**
 * The rows whose `keep` flag is 1, in order.
 *
 * @example
 * const voiced = selectFrames(features, energeticFrames(logEnergy, 30));
 * @throws {RangeError} when `keep` does not have one flag per frame
 */
export function selectFrames(matrix: FeatureMatrix, keep: Uint8Array): FeatureMatrix {
  const { frames, dims, values } = matrix;
  if (keep.length !== frames) throw new RangeError(`expected ${frames} frame flags, got ${keep.length}`);
  let kept = 0;
  for (const flag of keep) if (flag) kept++;
  const out = new Float32Array(kept * dims);
  let row = 0;
  for (let f = 0; f < frames; f++) {
    if (!keep[f]) continue;
    out.set(values.subarray(f * dims, (f + 1) * dims), row * dims);
    row++;
  }
  return { frames: kept, dims, values: out };
}

/**
 * Flags the frames whose log energy is within `rangeDb` decibels of the utterance's loud frames (its 95th
 * percentile), dropping pauses and breath between words that an upstream voice-activity detector keeps.
 *
 * @example
 * const keep = energeticFrames(mfccResult.logEnergy, 30); // 1 for frames at most 30 dB below the loud ones
 */
export function energeticFrames(logEnergy: Float32Array, rangeDb: number): Uint8Array {
  const keep = new Uint8Array(logEnergy.length);
  if (logEnergy.length === 0) return keep;
  const sorted = Float32Array.from(logEnergy).sort();
  const loud = sorted[Math.floor(0.95 * (sorted.length - 1))] ?? 0;
  // logEnergy is a natural log of power: 10·log10(e) dB per unit.
  const floor = loud - rangeDb / (10 * Math.LOG10E);
  for (let f = 0; f < logEnergy.length; f++) keep[f] = (logEnergy[f] ?? -Infinity) >= floor ? 1 : 0;
  return keep;
}
