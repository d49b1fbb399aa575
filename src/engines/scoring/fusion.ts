/**
 * Score fusion on the FMR scale (DESIGN.md §6). A `scoreFmr` is `-log10(FMR)`: the false-match rate a
 * threshold at that score would give, estimated on impostor comparisons. For independent modalities
 * the FMRs multiply, so their FMR scores add.
 */

import { FusionInputError } from './fusion-input-error.js';

/** scoreFmr at which a percent reaches 100: an FMR (or FPIR) of one in a million. */
export const FMR_SCORE_AT_FULL_PERCENT = 6;

/**
 * Fuses 1:1 scores of independent modalities (face, voice, ...): the sum of their FMR scores.
 *
 * @example
 * fuseScores([3, 2.5]); // 5.5, i.e. FMR 10^-3 × 10^-2.5
 * @throws {FusionInputError} for an empty list, a negative or non-finite score, or a sum beyond the double range
 */
export function fuseScores(scoresFmr: readonly number[]): number {
  if (scoresFmr.length === 0) throw new FusionInputError('at least one score is needed');
  for (const s of scoresFmr) {
    if (!Number.isFinite(s) || s < 0) throw new FusionInputError(`an FMR score is a finite number >= 0 (got ${s})`);
  }
  const sum = scoresFmr.reduce((total, s) => total + s, 0);
  // Finite scores near 1.8e308 can still add up to Infinity, which no JSON answer can carry.
  if (!Number.isFinite(sum)) throw new FusionInputError('the FMR scores add up to more than a double can hold');
  return sum;
}

/** One modality's result for one candidate of a 1:N search. */
export interface IdentificationScore {
  readonly scoreFmr: number;
  /** Number of encounters in the gallery searched (N). */
  readonly encounterCount: number;
}

export interface FusedIdentificationScore {
  /** `-log10(FPIR)`. */
  readonly fusedScoreFpir: number;
  readonly fusedScoreFpirPercent: number;
}

/**
 * Fuses the modalities of one candidate of a 1:N search. The fused FMR is the product of the
 * modalities' FMRs; searching N encounters, the chance that at least one impostor scores as high is
 * FPIR = 1 - (1 - FMR)^N, with N the largest encounter count given (the conservative choice when
 * modalities searched galleries of different sizes).
 *
 * @example
 * fuseForIdentification([{ scoreFmr: 5, encounterCount: 1000 }]).fusedScoreFpir; // ≈ 2 (FPIR ≈ 10^-2)
 * @throws {FusionInputError} for an empty list, a score {@link fuseScores} refuses, or any encounter count
 *   that is not a whole number >= 1
 */
export function fuseForIdentification(items: readonly IdentificationScore[]): FusedIdentificationScore {
  if (items.length === 0) throw new FusionInputError('at least one score is needed per candidate');
  const fmrScore = fuseScores(items.map((i) => i.scoreFmr));
  // Every count, not only the largest: a 0 or 2.5 beside a valid count is a caller's error all the same.
  for (const { encounterCount } of items) {
    if (!Number.isInteger(encounterCount) || encounterCount < 1)
      throw new FusionInputError(`encounterCount is a whole number >= 1 (got ${encounterCount})`);
  }
  const n = Math.max(...items.map((i) => i.encounterCount));
  const fmr = 10 ** -fmrScore;
  // 1 - (1 - FMR)^N without cancellation for tiny FMRs.
  const fpir = -Math.expm1(n * Math.log1p(-Math.min(fmr, 1 - Number.EPSILON)));
  const fusedScoreFpir = Math.max(0, -Math.log10(fpir));
  return { fusedScoreFpir, fusedScoreFpirPercent: percentOfFmrScore(fusedScoreFpir) };
}

/**
 * Maps an FMR-scale score to 0-100: linear in `-log10` of the error rate, 0 at rate 1, 100 at 10^-6.
 *
 * @example
 * percentOfFmrScore(3); // 50
 */
export function percentOfFmrScore(score: number): number {
  return Math.min(100, Math.max(0, (score / FMR_SCORE_AT_FULL_PERCENT) * 100));
}
