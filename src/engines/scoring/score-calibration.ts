/**
 * Maps a raw similarity to the FMR scale (`-log10 FMR`) with a calibration table measured on impostor
 * comparisons by the evaluation script.
 */

export interface CalibrationTable {
  readonly algorithm: string;
  /** Where the impostor scores came from, and how to reproduce the table. */
  readonly source: { readonly dataset: string; readonly command: string; readonly date: string };
  readonly impostorPairs: number;
  /** [score, fmrScore] pairs, score strictly increasing, fmrScore non-decreasing. */
  readonly points: ReadonlyArray<readonly [number, number]>;
  /** fmrScore gained per unit of score beyond the last point (fit on the measured tail). */
  readonly tailSlope: number;
  /** Highest fmrScore reported: beyond it the extrapolation says nothing more. */
  readonly maxFmrScore: number;
}

/**
 * `-log10(FMR)` at a raw score: piecewise-linear between the measured points, linear extrapolation
 * past the last one (capped), 0 below the first.
 *
 * @example
 * fmrScoreOf(F500_TABLE, 0.62); // e.g. 3.1: a threshold there lets ~1 impostor in 1,260 through
 */
export function fmrScoreOf(table: CalibrationTable, score: number): number {
  const { points } = table;
  if (!Number.isFinite(score) || points.length === 0) return 0;
  const first = points[0]!;
  if (score <= first[0]) return first[1];
  const last = points[points.length - 1]!;
  if (score >= last[0]) return Math.min(table.maxFmrScore, last[1] + table.tailSlope * (score - last[0]));
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (points[mid]![0] <= score) lo = mid;
    else hi = mid;
  }
  const [s0, f0] = points[lo]!;
  const [s1, f1] = points[hi]!;
  return f0 + ((f1 - f0) * (score - s0)) / (s1 - s0);
}

/**
 * The inverse of {@link fmrScoreOf} over the measured points: the raw score at which the table reaches
 * an FMR score (linear between its points; the last point's score beyond them).
 *
 * @example
 * scoreAtFmrScore(faceCalibration('F200'), 2); // the F200 cosine of FMR 10^-2
 */
export function scoreAtFmrScore(table: CalibrationTable, fmrScore: number): number {
  const points = table.points;
  for (let i = 1; i < points.length; i++) {
    const [s0, f0] = points[i - 1]!;
    const [s1, f1] = points[i]!;
    if (f1 >= fmrScore) return f1 === f0 ? s1 : s0 + ((fmrScore - f0) * (s1 - s0)) / (f1 - f0);
  }
  return points[points.length - 1]![0];
}

/**
 * Builds a table from impostor scores (ascending): at fmrScore levels 0, 0.25, 0.5, … while at least
 * `minTailCount` impostors remain above, the score where that share of impostors is reached.
 *
 * @example
 * const table = buildCalibrationTable('F500', sortedImpostorScores, { dataset, command, date });
 */
export function buildCalibrationTable(
  algorithm: string,
  impostorAscending: Float64Array,
  source: CalibrationTable['source'],
  options: { step?: number; minTailCount?: number; maxFmrScore?: number } = {},
): CalibrationTable {
  const n = impostorAscending.length;
  if (n < 100) throw new RangeError(`calibration needs at least 100 impostor scores (got ${n})`);
  const step = options.step ?? 0.25;
  const minTailCount = options.minTailCount ?? 10;
  const points: Array<[number, number]> = [];
  for (let level = 0; n * 10 ** -level >= minTailCount; level += step) {
    const above = Math.ceil(n * 10 ** -level);
    const score = impostorAscending[n - above]!;
    const previous = points[points.length - 1];
    if (previous && score <= previous[0]) {
      previous[1] = round(level);
      continue;
    }
    points.push([round(score), round(level)]);
  }
  // Tail slope: least squares over the points from fmrScore 1.5 on (the upper tail), never below the
  // slope of the last step so the extrapolation stays monotone and conservative.
  const tail = points.filter(([, f]) => f >= 1.5);
  const slope = tail.length >= 2 ? leastSquaresSlope(tail) : 0;
  return {
    algorithm,
    source,
    impostorPairs: n,
    points,
    tailSlope: round(Math.max(slope, 0)),
    maxFmrScore: options.maxFmrScore ?? 12,
  };
}

function leastSquaresSlope(points: ReadonlyArray<readonly [number, number]>): number {
  const mx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const my = points.reduce((s, p) => s + p[1], 0) / points.length;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den > 0 ? num / den : 0;
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}
