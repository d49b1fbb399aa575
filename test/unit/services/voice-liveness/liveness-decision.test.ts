import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { VoiceLivenessOutput } from '../../../../src/engines/voice/voice-liveness-analysis.js';
import { parseVoiceWorkflow } from '../../../../src/engines/voice/voice-liveness-levels.js';
import { VoiceSampleError } from '../../../../src/engines/voice/voice-sample-error.js';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import { livenessDecision, voiceWorkflowOf } from '../../../../src/services/voice-liveness/liveness-decision.js';
import { fromVoiceSample, sampleBytes } from '../../../../src/services/voice-liveness/voice-samples.js';

const measurement = {
  durationSeconds: 3,
  speechSeconds: 2,
  clippedShare: 0,
  format: 'wav' as const,
  sourceSampleRate: 16_000,
  sourceChannels: 1,
};
const scored = (pLive: number): VoiceLivenessOutput => ({ kind: 'scored', measurement, pLive, cues: {} });
const refused = (status: number, code: number, pattern: RegExp) => (error: unknown) =>
  error instanceof ApiError && error.statusCode === status && error.code === code && pattern.test(error.description);

describe('voice liveness decision', () => {
  const alfa4 = parseVoiceWorkflow('alfa4');

  it('lets the least live sample decide: LIVE 100, SPOOF 0', () => {
    assert.deepEqual(
      { ...livenessDecision([scored(1)], alfa4), score_frr: 0 },
      { decision: 'LIVE', score: 100, score_frr: 0, feedback: [] },
    );
    const mixed = livenessDecision([scored(1), scored(0)], alfa4);
    assert.equal(mixed.decision, 'SPOOF');
    assert.equal(mixed.score, 0);
  });

  it('answers UNABLE_TO_CALCULATE_LIVENESS with every cause once when any sample cannot be judged', () => {
    const result = livenessDecision(
      [
        scored(1),
        { kind: 'unable', measurement, problem: 'clipped' },
        { kind: 'unable', measurement, problem: 'too-short' },
        { kind: 'unable', measurement, problem: 'clipped' },
      ],
      alfa4,
    );
    assert.deepEqual(result, {
      decision: 'UNABLE_TO_CALCULATE_LIVENESS',
      score: -1,
      score_frr: 0,
      feedback: ['VOICE_CLIPPED', 'VOICE_TOO_SHORT'],
    });
  });

  it('maps the workflow to -9 and the securityLevel to -6', () => {
    assert.equal(voiceWorkflowOf(undefined, undefined).name, 'alfa4');
    assert.equal(voiceWorkflowOf('alfa2', 6).securityLevel, 6);
    assert.throws(() => voiceWorkflowOf('charlie4', undefined), refused(400, -9, /alfa2, alfa4, alfa6/));
    assert.throws(() => voiceWorkflowOf('alfa4', 11), refused(400, -6, /securityLevel/));
    assert.throws(() => voiceWorkflowOf('alfa4', 2.5), refused(400, -6, /securityLevel/));
  });

  it('answers missing samples -8 and unreadable ones -7, naming the sample', async () => {
    assert.throws(() => sampleBytes(undefined), refused(400, -8, /voiceSamples/));
    assert.throws(() => sampleBytes([]), refused(400, -8, /at least one/));
    await assert.rejects(
      fromVoiceSample(2, Promise.reject(new VoiceSampleError('empty', 'voice sample has no bytes'))),
      refused(400, -8, /voice\.voiceSamples\[2\]/),
    );
    await assert.rejects(
      fromVoiceSample(1, Promise.reject(new VoiceSampleError('undecodable', 'not a WAV'))),
      refused(400, -7, /voice\.voiceSamples\[1\]: not a WAV/),
    );
    await assert.rejects(
      fromVoiceSample(0, Promise.reject(new VoiceSampleError('too-long', 'over 60 s'))),
      refused(400, -7, /over 60 s/),
    );
    await assert.rejects(fromVoiceSample(0, Promise.reject(new Error('boom'))), /boom/);
  });
});
