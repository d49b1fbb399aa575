import { roundTo } from '../../lib/rounding.js';
import { livenessDecision, voiceWorkflowOf } from './liveness-decision.js';
import type { VoiceLivenessContext } from './liveness-context.js';
import type { LivenessResult, VoiceLengthRequest, VoiceLivenessRequest } from './schemas.js';
import { fromVoiceSample, sampleBytes } from './voice-samples.js';

/**
 * `/analyze`: whether the voice samples are live speech or a spoof (synthesis, replay), under the request's
 * workflow (alfa4 by default) or securityLevel.
 *
 * @example
 * await analyzeVoice(liveness, { voice: { voiceSamples: [{ data: wavBase64 }], workflow: 'alfa4' } });
 * // { voice: { livenessResult: { decision: 'LIVE', score: 100, score_frr: 1.9, feedback: [] } } }
 * @throws {ApiError} 400: -8 no samples or one without audio, -7 a sample that does not decode, -9 an unknown
 *   workflow, -6 a securityLevel out of range, -5 data that is not base64
 */
export async function analyzeVoice(
  liveness: VoiceLivenessContext,
  request: VoiceLivenessRequest,
): Promise<{ voice: { livenessResult: LivenessResult } }> {
  const { voice } = request;
  const workflow = voiceWorkflowOf(voice.workflow, voice.securityLevel);
  const samples = sampleBytes(voice.voiceSamples);
  const engine = liveness.engine();
  const analyses = await Promise.all(samples.map((bytes, i) => fromVoiceSample(i, engine.liveness(bytes))));
  return { voice: { livenessResult: livenessDecision(analyses, workflow) } };
}

/**
 * `/calculateVoiceLength`: the seconds of speech (voice activity, not recording length) in each sample.
 *
 * @example
 * await calculateVoiceLength(liveness, { voice: { voiceSamples: [{ data: wavBase64 }] } });
 * // { voice: { voiceSamples: [{ voiceLengthSeconds: 2.34 }] } }
 * @throws {ApiError} 400: -8 no samples or one without audio, -7 a sample that does not decode, -5 bad base64
 */
export async function calculateVoiceLength(
  liveness: VoiceLivenessContext,
  request: VoiceLengthRequest,
): Promise<{ voice: { voiceSamples: Array<{ voiceLengthSeconds: number }> } }> {
  const samples = sampleBytes(request.voice.voiceSamples);
  const engine = liveness.engine();
  const measured = await Promise.all(samples.map((bytes, i) => fromVoiceSample(i, engine.measure(bytes))));
  return { voice: { voiceSamples: measured.map((m) => ({ voiceLengthSeconds: roundTo(m.speechSeconds, 3) })) } };
}
