import type { CalibrationTable } from '../scoring/score-calibration.js';
import type { FaceAlgorithmName } from './algorithms.js';
import F200 from './calibration/F200.json' with { type: 'json' };
import F500 from './calibration/F500.json' with { type: 'json' };

const TABLES: Readonly<Record<FaceAlgorithmName, CalibrationTable>> = {
  F200: F200 as unknown as CalibrationTable,
  F500: F500 as unknown as CalibrationTable,
};

/**
 * The score calibration table of a face algorithm, written by `npm run eval -- faces <dir>` from the
 * impostor comparisons of the dev set (the file names the data it came from).
 *
 * @example
 * fmrScoreOf(faceCalibration('F500'), 0.95);
 */
export function faceCalibration(algorithm: FaceAlgorithmName): CalibrationTable {
  return TABLES[algorithm];
}
