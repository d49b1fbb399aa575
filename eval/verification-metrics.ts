/**
 * Biometric verification and identification metrics over similarity scores (higher = more alike).
 * Conventions (ISO/IEC 19795-1): FMR(t) = share of impostor scores >= t; FNMR(t) = share of genuine
 * scores < t.
 */

export interface ScoreSets {
  readonly genuine: Float64Array;
  readonly impostor: Float64Array;
}

/** Sorted copies, ascending; the functions below expect these. */
export interface SortedScores {
  readonly genuine: Float64Array;
  readonly impostor: Float64Array;
}

export function sortScores(scores: ScoreSets): SortedScores {
  return { genuine: Float64Array.from(scores.genuine).sort(), impostor: Float64Array.from(scores.impostor).sort() };
}

/** Number of values in an ascending array that are < t. */
function countBelow(sorted: Float64Array, t: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] ?? 0) < t)
      lo = mid + 1; // in bounds: lo <= mid < hi <= length
    else hi = mid;
  }
  return lo;
}

export function fmrAt(s: SortedScores, t: number): number {
  return (s.impostor.length - countBelow(s.impostor, t)) / s.impostor.length;
}

export function fnmrAt(s: SortedScores, t: number): number {
  return countBelow(s.genuine, t) / s.genuine.length;
}

/** Lowest threshold whose FMR is at most `targetFmr` (just above the k-th highest impostor score). */
export function thresholdAtFmr(s: SortedScores, targetFmr: number): number {
  const allowed = Math.floor(targetFmr * s.impostor.length);
  if (allowed >= s.impostor.length) return -Infinity;
  const pivot = s.impostor[s.impostor.length - 1 - allowed];
  if (pivot === undefined) throw new RangeError(`targetFmr must be from 0 to 1 (got ${targetFmr})`);
  return nextUp(pivot);
}

export function fnmrAtFmr(s: SortedScores, targetFmr: number): { fnmr: number; threshold: number } {
  const threshold = thresholdAtFmr(s, targetFmr);
  return { fnmr: fnmrAt(s, threshold), threshold };
}

/** Equal error rate: the point where FMR and FNMR cross, over every observed score as a threshold. */
export function equalErrorRate(s: SortedScores): { eer: number; threshold: number } {
  let best = { gap: Infinity, eer: 1, threshold: 0 };
  const candidates = new Float64Array(s.genuine.length + s.impostor.length);
  candidates.set(s.genuine);
  candidates.set(s.impostor, s.genuine.length);
  candidates.sort();
  // Binary search on the monotone difference FNMR − FMR.
  let lo = 0;
  let hi = candidates.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const t = candidates[mid] ?? 0; // in bounds: 0 <= lo <= mid <= hi < length
    const fmr = fmrAt(s, t);
    const fnmr = fnmrAt(s, t);
    const gap = Math.abs(fmr - fnmr);
    if (gap < best.gap) best = { gap, eer: (fmr + fnmr) / 2, threshold: t };
    if (fnmr < fmr) lo = mid + 1;
    else hi = mid - 1;
  }
  return { eer: best.eer, threshold: best.threshold };
}

/** Area under the ROC curve: P(genuine > impostor) + ½ P(equal). */
export function rocAuc(s: SortedScores): number {
  let area = 0;
  let j = 0;
  for (const g of s.genuine) {
    while (j < s.impostor.length && (s.impostor[j] ?? 0) < g) j++;
    const below = j;
    let equal = 0;
    while (j + equal < s.impostor.length && s.impostor[j + equal] === g) equal++;
    area += below + equal / 2;
  }
  return area / (s.genuine.length * s.impostor.length);
}

/** DET points (FMR, FNMR) at log-spaced FMRs from 1/impostors to 1. */
export function detCurve(s: SortedScores, pointsPerDecade = 10): Array<{ fmr: number; fnmr: number }> {
  const minLog = Math.log10(1 / s.impostor.length);
  const out: Array<{ fmr: number; fnmr: number }> = [];
  for (let l = minLog; l <= 0; l += 1 / pointsPerDecade) {
    const { fnmr, threshold } = fnmrAtFmr(s, 10 ** l);
    out.push({ fmr: fmrAt(s, threshold), fnmr });
  }
  return out;
}

function nextUp(x: number): number {
  if (x === Infinity) return x;
  const buffer = new Float64Array([x]);
  const bits = new BigInt64Array(buffer.buffer);
  if (x === 0) return Number.MIN_VALUE;
  // One-element arrays over one buffer: index 0 is always there.
  bits[0] = (bits[0] ?? 0n) + (x > 0 ? 1n : -1n);
  return buffer[0] ?? x;
}
