import { isFiniteNumber, isRecord, isUnknownArray } from '../../lib/json-guards.js';
import { roundTo } from '../../lib/rounding.js';

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
 * Checks a calibration table read from JSON (the shape {@link buildCalibrationTable} writes) and returns
 * it typed: every field present and of its type, at least one point, scores strictly increasing and FMR
 * scores non-decreasing, so {@link fmrScoreOf} and {@link scoreAtFmrScore} can rely on the order.
 *
 * @param origin names the file in the error
 * @throws {Error} naming `origin` and the first thing wrong with it
 * @example
 * const table = parseCalibrationTable(JSON.parse(readFileSync(path, 'utf8')), path);
 */
export function parseCalibrationTable(json: unknown, origin: string): CalibrationTable {
  const malformed = (what: string): Error =>
    new Error(`${origin} is not a valid calibration table: ${what} (rewrite it with \`npm run eval -- faces\`)`);
  if (!isRecord(json)) throw malformed('not a JSON object');
  const { algorithm, source, impostorPairs, points, tailSlope, maxFmrScore } = json;
  if (typeof algorithm !== 'string') throw malformed('`algorithm` is not a string');
  if (!isRecord(source)) throw malformed('`source` is not an object');
  const { dataset, command, date } = source;
  if (typeof dataset !== 'string' || typeof command !== 'string' || typeof date !== 'string')
    throw malformed('`source` lacks a string `dataset`, `command` or `date`');
  if (!isFiniteNumber(impostorPairs) || !Number.isInteger(impostorPairs) || impostorPairs < 1)
    throw malformed('`impostorPairs` is not a positive integer');
  if (!isFiniteNumber(tailSlope) || tailSlope < 0) throw malformed('`tailSlope` is not a finite number >= 0');
  if (!isFiniteNumber(maxFmrScore)) throw malformed('`maxFmrScore` is not a finite number');
  if (!isUnknownArray(points) || points.length === 0) throw malformed('`points` is not a non-empty array');
  const parsed: Array<readonly [number, number]> = [];
  for (const [i, point] of points.entries()) {
    if (!isUnknownArray(point) || point.length !== 2) throw malformed(`points[${i}] is not a [score, fmrScore] pair`);
    const [score, fmrScore] = point;
    if (!isFiniteNumber(score) || !isFiniteNumber(fmrScore))
      throw malformed(`points[${i}] holds a value that is not a finite number`);
    const previous = parsed.at(-1);
    if (previous !== undefined && (score <= previous[0] || fmrScore < previous[1]))
      throw malformed(`points[${i}] does not follow points[${i - 1}] (scores must rise, FMR scores not fall)`);
    parsed.push([score, fmrScore]);
  }
  return { algorithm, source: { dataset, command, date }, impostorPairs, points: parsed, tailSlope, maxFmrScore };
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
  const first = points[0];
  const last = points.at(-1);
  if (!Number.isFinite(score) || first === undefined || last === undefined) return 0;
  if (score <= first[0]) return first[1];
  if (score >= last[0]) return Math.min(table.maxFmrScore, last[1] + table.tailSlope * (score - last[0]));
  let lo = 0;
  let hi = points.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >>> 1;
    if (pointAt(points, mid)[0] <= score) lo = mid;
    else hi = mid;
  }
  const [s0, f0] = pointAt(points, lo);
  const [s1, f1] = pointAt(points, hi);
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
    const [s0, f0] = pointAt(points, i - 1);
    const [s1, f1] = pointAt(points, i);
    if (f1 >= fmrScore) return f1 === f0 ? s1 : s0 + ((fmrScore - f0) * (s1 - s0)) / (f1 - f0);
  }
  return pointAt(points, points.length - 1)[0];
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
    // In bounds: 1 <= above <= n while minTailCount >= 1.
    const score = impostorAscending[n - above] ?? 0;
    const previous = points[points.length - 1];
    if (previous && score <= previous[0]) {
      previous[1] = roundTo(level, 6);
      continue;
    }
    points.push([roundTo(score, 6), roundTo(level, 6)]);
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
    tailSlope: roundTo(Math.max(slope, 0), 6),
    maxFmrScore: options.maxFmrScore ?? 12,
  };
}

/** A table point by index; the callers' indices are in range, so a miss is a broken table. */
function pointAt(points: CalibrationTable['points'], index: number): readonly [number, number] {
  const point = points[index];
  if (point === undefined) throw new RangeError(`calibration table has no point ${index}`);
  return point;
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
