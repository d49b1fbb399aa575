/**
 * Global variance of the cepstral trajectories (synthetic-speech cue). Statistical parametric synthesis
 * (clustergen and HTS voices: flite awb/rms/slt, festival slt) generates each cepstral trajectory as the mean
 * of a trained distribution, which over-smooths it: the variance of a coefficient over the utterance (its
 * "global variance", Toda & Tokuda 2007) shrinks, and it shrinks most in the upper cepstra (spectral fine
 * detail), least in the lowest (the broad envelope the model fits best). The cue is the upper cepstra's global
 * variance over the lowest ones', on a log scale, so that loudness, level changes and a channel's fixed
 * colouring (which shifts the cepstral means, not their variances) cancel out.
 */

export interface CepstralFrames {
  /** Row-major cepstra, `values[f * coefficients + c]`, c0 first (features/lfcc.ts). */
  readonly values: Float32Array;
  readonly frames: number;
  readonly coefficients: number;
}

/** Lowest coefficients (c1..c6): the broad spectral envelope. */
const LOW_FIRST = 1;
const LOW_LAST = 6;
/** Upper coefficients (c15..c29 of the 35-filter LFCC): spectral fine detail. */
const HIGH_FIRST = 15;
const HIGH_LAST = 29;

/**
 * Mean log10 variance over the selected frames of c15..c29 minus that of c1..c6 (needs 30 coefficients).
 * Around -1.45 for read speech on the spoof features' LFCC; lower for over-smoothed (parametric) speech.
 *
 * @example
 * const cepstra = lfcc(spectrum, { filters: 35, coefficients: 30, highHz: 7000 });
 * globalVarianceRatio(cepstra, (f) => isSpeech[f] === 1); // ≈ -1.45 live, ≈ -1.75 for a clustergen voice
 * @throws {RangeError} when the cepstra hold fewer than 30 coefficients
 */
export function globalVarianceRatio(cepstra: CepstralFrames, select: (frame: number) => boolean = () => true): number {
  const { values, frames, coefficients } = cepstra;
  if (coefficients <= HIGH_LAST) throw new RangeError(`global variance needs ${HIGH_LAST + 1} cepstral coefficients`);
  const sum = new Float64Array(coefficients);
  const squares = new Float64Array(coefficients);
  let n = 0;
  for (let f = 0; f < frames; f++) {
    if (!select(f)) continue;
    n++;
    for (let c = LOW_FIRST; c <= HIGH_LAST; c++) {
      const v = values[f * coefficients + c] ?? 0;
      sum[c] = (sum[c] ?? 0) + v;
      squares[c] = (squares[c] ?? 0) + v * v;
    }
  }
  if (n < 2) return 0;
  const logVariance = (c: number): number => {
    const mean = (sum[c] ?? 0) / n;
    return Math.log10(Math.max((squares[c] ?? 0) / n - mean * mean, 1e-12));
  };
  const meanLog = (first: number, last: number): number => {
    let total = 0;
    for (let c = first; c <= last; c++) total += logVariance(c);
    return total / (last - first + 1);
  };
  return meanLog(HIGH_FIRST, HIGH_LAST) - meanLog(LOW_FIRST, LOW_LAST);
}
