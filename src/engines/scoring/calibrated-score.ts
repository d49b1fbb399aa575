import { roundTo } from '../../lib/rounding.js';
import { dot } from '../../lib/vectors.js';
import { percentOfFmrScore } from './fusion.js';
import { fmrScoreOf, type CalibrationTable } from './score-calibration.js';

/** A comparison score with its calibrated forms, as the matching services answer it (docs/scores.md). */
export interface CalibratedScore {
  /** Cosine similarity of the two templates. */
  readonly score: number;
  /** `-log10(FMR)` from the algorithm's calibration table. */
  readonly scoreFmr: number;
  /** 0-100, linear in scoreFmr (docs/scores.md). */
  readonly scorePercent: number;
}

/**
 * A raw similarity with its calibrated forms under one calibration table (any modality).
 *
 * @example
 * calibratedScore(faceCalibration('F500'), 0.95); // { score: 0.95, scoreFmr: 3.6, scorePercent: 60 }
 */
export function calibratedScore(table: CalibrationTable, score: number): CalibratedScore {
  const scoreFmr = fmrScoreOf(table, score);
  return {
    score: roundTo(score, 6),
    scoreFmr: roundTo(scoreFmr, 6),
    scorePercent: roundTo(percentOfFmrScore(scoreFmr), 6),
  };
}

/**
 * Dot product of two unit vectors (cosine similarity), clamped to [-1, 1] against rounding.
 *
 * @example
 * cosine(new Float32Array([1, 0]), new Float32Array([0.6, 0.8])); // 0.6
 */
export function cosine(a: Float32Array, b: Float32Array): number {
  return Math.max(-1, Math.min(1, dot(a, b)));
}
