import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fmrScoreOf } from '../../../../src/engines/scoring/score-calibration.js';
import { VOICE_ALGORITHM_NAMES, VOICE_SAMPLE_TYPES } from '../../../../src/engines/voice/voice-algorithms.js';
import { voiceCalibration } from '../../../../src/engines/voice/voice-calibration.js';

test('every voice algorithm has a table per sample type, TEXT_INDEPENDENT by default, rising with the score', () => {
  for (const algorithm of VOICE_ALGORITHM_NAMES) {
    assert.equal(voiceCalibration(algorithm), voiceCalibration(algorithm, 'TEXT_INDEPENDENT'));
    for (const sampleType of VOICE_SAMPLE_TYPES) {
      const table = voiceCalibration(algorithm, sampleType);
      assert.equal(table.algorithm, algorithm);
      assert.ok(table.impostorPairs >= 100);
      let previous = -Infinity;
      for (let score = -1; score <= 1; score += 0.05) {
        const fmrScore = fmrScoreOf(table, score);
        assert.ok(fmrScore >= previous, `${algorithm} ${sampleType}: scoreFmr never falls as the score rises`);
        previous = fmrScore;
      }
      assert.equal(fmrScoreOf(table, -1), 0, 'an anti-correlated pair is as likely as any impostor');
      assert.ok(fmrScoreOf(table, 1) >= 2, 'identical templates are far into the impostor tail');
    }
  }
});
