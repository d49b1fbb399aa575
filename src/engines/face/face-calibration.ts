import { parseCalibrationTable, type CalibrationTable } from '../scoring/score-calibration.js';
import type { FaceAlgorithmName } from './algorithms.js';
import F200 from './calibration/F200.json' with { type: 'json' };
import F500 from './calibration/F500.json' with { type: 'json' };

// Checked when this module loads, so a malformed table stops the server at start, not at a comparison.
const TABLES: Readonly<Record<FaceAlgorithmName, CalibrationTable>> = {
  F200: checkedTable('F200', F200),
  F500: checkedTable('F500', F500),
};

function checkedTable(algorithm: FaceAlgorithmName, json: unknown): CalibrationTable {
  const origin = `src/engines/face/calibration/${algorithm}.json`;
  const table = parseCalibrationTable(json, origin);
  if (table.algorithm !== algorithm)
    throw new Error(`${origin} holds the table of ${table.algorithm}, not ${algorithm}`);
  return table;
}

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
