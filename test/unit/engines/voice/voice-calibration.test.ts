import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fmrScoreOf } from '../../../../src/engines/scoring/score-calibration.js';
import { VOICE_ALGORITHM_NAMES, VOICE_SAMPLE_TYPES } from '../../../../src/engines/voice/voice-algorithms.js';
import { voiceCalibration } from '../../../../src/engines/voice/voice-calibration.js';
import { normalisedSpeakerVector } from '../../../../src/engines/voice/score-normalisation.js';
import { loadSpeakerModel } from '../../../../src/engines/voice/speaker-model.js';
import { dot, unitVector } from '../../../../src/lib/vectors.js';

test('every voice algorithm has a table per sample type, TEXT_INDEPENDENT by default, rising with the score', () => {
  const model = loadSpeakerModel();
  for (const algorithm of VOICE_ALGORITHM_NAMES) {
    assert.equal(voiceCalibration(algorithm), voiceCalibration(algorithm, 'TEXT_INDEPENDENT'));
    // A template against itself: its normalised score n(x)·n(x) = 1/σ(x) (a cohort row: a real template).
    const cohort = model.cohort[algorithm];
    const row = Float32Array.from(cohort.values.subarray(0, cohort.dims), (v) => v * (cohort.scales[0] ?? 0));
    const self = normalisedSpeakerVector(unitVector(row), algorithm);
    for (const sampleType of VOICE_SAMPLE_TYPES) {
      const table = voiceCalibration(algorithm, sampleType);
      assert.equal(table.algorithm, algorithm);
      assert.ok(table.impostorPairs >= 100);
      let previous = -Infinity;
      // Normalised scores (score-normalisation.ts): impostors about 0 ± 1, not bounded by ±1.
      for (let score = -10; score <= 20; score += 0.25) {
        const fmrScore = fmrScoreOf(table, score);
        assert.ok(fmrScore >= previous, `${algorithm} ${sampleType}: scoreFmr never falls as the score rises`);
        previous = fmrScore;
      }
      assert.equal(fmrScoreOf(table, -10), 0, 'a pair below every impostor is as likely as any impostor');
      assert.ok(fmrScoreOf(table, 0) < 1, 'a score of 0 is an ordinary impostor score');
      // (FSDD phrase impostors share text and recording conditions: their normalised scores sit far above a
      // LibriSpeech template's, so this holds for the text-independent tables only.)
      if (sampleType === 'TEXT_INDEPENDENT')
        assert.ok(fmrScoreOf(table, dot(self, self)) >= 2, 'identical templates are far into the impostor tail');
    }
  }
});
