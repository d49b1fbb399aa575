import type { VoiceLivenessOutput, VoiceLivenessProblem } from '../../engines/voice/voice-liveness-analysis.js';
import {
  parseVoiceWorkflow,
  voiceLivenessThreshold,
  voiceScoreFrr,
  type VoiceWorkflow,
} from '../../engines/voice/voice-liveness-levels.js';
import { VoiceWorkflowError } from '../../engines/voice/voice-workflow-error.js';
import { roundTo } from '../../lib/rounding.js';
import { ApiError, invalidValue } from '../../server/errors/api-error.js';
import type { LivenessResult } from './schemas.js';
import { VoiceLivenessCode } from './voice-samples.js';

/** The feedback of an UNABLE_TO_CALCULATE_LIVENESS decision, by cause. */
const FEEDBACK: Readonly<Record<VoiceLivenessProblem, string>> = {
  'no-speech': 'NO_SPEECH',
  'too-short': 'VOICE_TOO_SHORT',
  clipped: 'VOICE_CLIPPED',
};

/**
 * The workflow of a request (alfa4 when none) with its `securityLevel` override, checked.
 *
 * @example
 * voiceWorkflowOf('alfa6', undefined).securityLevel; // 6
 * @throws {ApiError} 400 -9 for a workflow other than alfa2, alfa4, alfa6; -6 for a securityLevel that is not a
 *   whole number from 1 to 10
 */
export function voiceWorkflowOf(workflow: string | undefined, securityLevel: number | undefined): VoiceWorkflow {
  try {
    return parseVoiceWorkflow(workflow, securityLevel);
  } catch (error) {
    if (!(error instanceof VoiceWorkflowError)) throw error;
    throw error.reason === 'workflow'
      ? new ApiError(400, VoiceLivenessCode.invalidWorkflow, `invalid workflow: ${error.message}`)
      : invalidValue(error.message);
  }
}

/**
 * The `livenessResult` of the analysed samples of one request: any sample without enough clean speech makes
 * the answer UNABLE_TO_CALCULATE_LIVENESS (score -1, score_frr 0) with the causes as feedback; otherwise the
 * least live sample decides, LIVE (100) when its P(live) reaches the workflow's threshold, SPOOF (0) below
 * it, with its `score_frr`.
 *
 * @example
 * livenessDecision([{ kind: 'scored', pLive: 0.97, cues: {}, measurement }], parseVoiceWorkflow('alfa4'));
 * // { decision: 'LIVE', score: 100, score_frr: 2.1, feedback: [] }
 */
export function livenessDecision(analyses: readonly VoiceLivenessOutput[], workflow: VoiceWorkflow): LivenessResult {
  const problems = [...new Set(analyses.flatMap((a) => (a.kind === 'unable' ? [FEEDBACK[a.problem]] : [])))];
  if (problems.length > 0)
    return { decision: 'UNABLE_TO_CALCULATE_LIVENESS', score: -1, score_frr: 0, feedback: problems };
  const pLive = Math.min(...analyses.map((a) => (a.kind === 'scored' ? a.pLive : 0)));
  const live = pLive >= voiceLivenessThreshold(workflow);
  return {
    decision: live ? 'LIVE' : 'SPOOF',
    score: live ? 100 : 0,
    score_frr: roundTo(voiceScoreFrr(pLive), 4),
    feedback: [],
  };
}
