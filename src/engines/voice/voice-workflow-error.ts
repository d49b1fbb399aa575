/** What is wrong with a voice liveness request's workflow (the services: `workflow` → -9, `security-level` → -6). */
export type VoiceWorkflowProblem = 'workflow' | 'security-level';

/**
 * A voice liveness workflow that is not alfa2, alfa4 or alfa6, or a `securityLevel` outside 1..10.
 *
 * @example
 * try {
 *   parseVoiceWorkflow('alfa3');
 * } catch (error) {
 *   if (error instanceof VoiceWorkflowError && error.reason === 'workflow') reply(-9);
 * }
 */
export class VoiceWorkflowError extends Error {
  override name = 'VoiceWorkflowError';

  constructor(
    readonly reason: VoiceWorkflowProblem,
    message: string,
  ) {
    super(message);
  }
}
