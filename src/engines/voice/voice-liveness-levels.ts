/**
 * Voice liveness security levels, as face liveness defines its own (docs/liveness.md): the workflow digit
 * (alfa2, alfa4, alfa6) is a security level; `securityLevel` (1..10) overrides it. A level aims at a bona
 * fide rejection rate (TARGET_BPCER_BY_LEVEL, shared with face liveness: level 2 = 2%, 4 = 5%, 6 = 10%),
 * and its threshold on P(live) is read off the spoof model's held-out bona fide scores, so a higher level
 * accepts fewer attacks and asks more live speakers to try again. `scoreFrr` is face liveness's score_frr
 * over the same scores.
 */
import { padThreshold, scoreFrr } from '../liveness/pad-calibration.js';
import { TARGET_BPCER_BY_LEVEL } from '../liveness/workflows.js';
import { loadVoiceSpoofModel } from './voice-spoof-classifier.js';
import { VoiceWorkflowError } from './voice-workflow-error.js';

export const VOICE_WORKFLOWS = ['alfa2', 'alfa4', 'alfa6'] as const;
export type VoiceWorkflowName = (typeof VOICE_WORKFLOWS)[number];
/** The workflow of a request that names none. */
export const DEFAULT_VOICE_WORKFLOW: VoiceWorkflowName = 'alfa4';

export interface VoiceWorkflow {
  readonly name: VoiceWorkflowName;
  /** 1..10: the workflow digit unless `securityLevel` overrides it. */
  readonly securityLevel: number;
  /** The bona fide rejection rate this level aims at. */
  readonly targetBpcer: number;
}

/** Live and attack P(live) values the thresholds are read from (ascending). */
export interface VoiceSpoofScores {
  readonly live: readonly number[];
  readonly spoof: readonly number[];
}

/**
 * Parses a workflow name and the optional `securityLevel` override.
 *
 * @example
 * parseVoiceWorkflow('alfa4'); // { name: 'alfa4', securityLevel: 4, targetBpcer: 0.05 }
 * parseVoiceWorkflow('alfa2', 6).securityLevel; // 6
 * @throws {VoiceWorkflowError} `workflow` for a name other than alfa2/4/6, `security-level` for a level that is
 *   not a whole number from 1 to 10
 */
export function parseVoiceWorkflow(name: string = DEFAULT_VOICE_WORKFLOW, securityLevel?: number): VoiceWorkflow {
  const workflow = VOICE_WORKFLOWS.find((known) => known === name);
  if (workflow === undefined)
    throw new VoiceWorkflowError('workflow', `workflow must be one of ${VOICE_WORKFLOWS.join(', ')} (got '${name}')`);
  const level = securityLevel ?? Number(workflow.slice(-1));
  const targetBpcer = Number.isInteger(level) ? TARGET_BPCER_BY_LEVEL[level - 1] : undefined;
  if (targetBpcer === undefined)
    throw new VoiceWorkflowError(
      'security-level',
      `securityLevel must be a whole number from 1 to ${TARGET_BPCER_BY_LEVEL.length} (got ${securityLevel})`,
    );
  return { name: workflow, securityLevel: level, targetBpcer };
}

/**
 * The P(live) a sample needs to be LIVE under a workflow: the threshold that rejects the level's target
 * share of the held-out bona fide scores.
 *
 * @example
 * const live = voiceSpoofScore(samples, activity).pLive >= voiceLivenessThreshold(parseVoiceWorkflow('alfa4'));
 */
export function voiceLivenessThreshold(
  workflow: Pick<VoiceWorkflow, 'targetBpcer'>,
  scores: VoiceSpoofScores = loadVoiceSpoofModel().heldOutScores,
): number {
  return padThreshold(workflow.targetBpcer, scores);
}

/**
 * `score_frr` of a P(live): −log10 of the share of held-out bona fide samples scoring below it (the bona
 * fide rejection rate a threshold there would cause), floored at one in (n + 1).
 *
 * @example
 * voiceScoreFrr(0.9); // e.g. 1.0: a threshold at 0.9 would turn away ~10% of live speakers
 */
export function voiceScoreFrr(pLive: number, scores: VoiceSpoofScores = loadVoiceSpoofModel().heldOutScores): number {
  return scoreFrr(pLive, scores);
}
