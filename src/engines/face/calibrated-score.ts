import type { FaceAlgorithmName } from './algorithms.js';
import { faceCalibration } from './face-calibration.js';
import { percentOfFmrScore } from '../scoring/fusion.js';
import { fmrScoreOf } from '../scoring/score-calibration.js';
import { roundTo } from '../../lib/rounding.js';
import { dot } from '../../lib/vectors.js';

export interface CalibratedScore {
  /** Cosine similarity of the two templates. */
  readonly score: number;
  /** `-log10(FMR)` from the algorithm's calibration table. */
  readonly scoreFmr: number;
  /** 0-100, linear in scoreFmr (docs/scores.md). */
  readonly scorePercent: number;
}

/**
 * A raw similarity with its calibrated forms.
 *
 * @example
 * calibrated('F500', 0.95); // { score: 0.95, scoreFmr: 3.6, scorePercent: 60 } (values depend on the table)
 */
export function calibrated(algorithm: FaceAlgorithmName, score: number): CalibratedScore {
  const scoreFmr = fmrScoreOf(faceCalibration(algorithm), score);
  return {
    score: roundTo(score, 6),
    scoreFmr: roundTo(scoreFmr, 6),
    scorePercent: roundTo(percentOfFmrScore(scoreFmr), 6),
  };
}

/** Dot product of two unit vectors (cosine similarity), clamped to [-1, 1] against rounding. */
export function cosine(a: Float32Array, b: Float32Array): number {
  return Math.max(-1, Math.min(1, dot(a, b)));
}
