import { parseCalibrationTable, type CalibrationTable } from '../scoring/score-calibration.js';
import type { VoiceAlgorithmName, VoiceSampleType } from './voice-algorithms.js';
import V600_STATIC_PHRASE from './calibration/V600.STATIC_PHRASE.json' with { type: 'json' };
import V600_TEXT_INDEPENDENT from './calibration/V600.TEXT_INDEPENDENT.json' with { type: 'json' };
import V900_STATIC_PHRASE from './calibration/V900.STATIC_PHRASE.json' with { type: 'json' };
import V900_TEXT_INDEPENDENT from './calibration/V900.TEXT_INDEPENDENT.json' with { type: 'json' };

// Checked when this module loads, so a malformed table stops the server at start, not at a comparison.
const TABLES: Readonly<Record<VoiceAlgorithmName, Readonly<Record<VoiceSampleType, CalibrationTable>>>> = {
  V600: {
    TEXT_INDEPENDENT: checkedTable('V600', 'TEXT_INDEPENDENT', V600_TEXT_INDEPENDENT),
    STATIC_PHRASE: checkedTable('V600', 'STATIC_PHRASE', V600_STATIC_PHRASE),
  },
  V900: {
    TEXT_INDEPENDENT: checkedTable('V900', 'TEXT_INDEPENDENT', V900_TEXT_INDEPENDENT),
    STATIC_PHRASE: checkedTable('V900', 'STATIC_PHRASE', V900_STATIC_PHRASE),
  },
};

function checkedTable(algorithm: VoiceAlgorithmName, sampleType: VoiceSampleType, json: unknown): CalibrationTable {
  const origin = `src/engines/voice/calibration/${algorithm}.${sampleType}.json`;
  const table = parseCalibrationTable(json, origin);
  if (table.algorithm !== algorithm)
    throw new Error(`${origin} holds the table of ${table.algorithm}, not ${algorithm}`);
  return table;
}

/**
 * The score calibration table of a voice algorithm (score → scoreFmr = −log10 FMR), written by
 * `npm run eval -- voice-verification <dir>` from impostor comparisons on speakers the model was not trained on:
 * TEXT_INDEPENDENT (the default) from held-out LibriSpeech speakers (cross-validated), STATIC_PHRASE from the
 * Free Spoken Digit Dataset's ten-digit phrases (same text, other speaker). Each file names its data.
 *
 * @example
 * fmrScoreOf(voiceCalibration('V600'), 0.6);
 * fmrScoreOf(voiceCalibration('V900', 'STATIC_PHRASE'), 0.6);
 */
export function voiceCalibration(
  algorithm: VoiceAlgorithmName,
  sampleType: VoiceSampleType = 'TEXT_INDEPENDENT',
): CalibrationTable {
  return TABLES[algorithm][sampleType];
}
