import type { FaceAlgorithmName } from './algorithms.js';
import { faceCalibration } from './face-calibration.js';
import { calibratedScore, type CalibratedScore } from '../scoring/calibrated-score.js';

export { cosine, type CalibratedScore } from '../scoring/calibrated-score.js';

/**
 * A raw similarity of a face algorithm with its calibrated forms.
 *
 * @example
 * calibrated('F500', 0.95); // { score: 0.95, scoreFmr: 3.6, scorePercent: 60 } (values depend on the table)
 */
export function calibrated(algorithm: FaceAlgorithmName, score: number): CalibratedScore {
  return calibratedScore(faceCalibration(algorithm), score);
}
