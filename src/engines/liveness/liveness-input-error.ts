/**
 * A liveness request that cannot be assessed as sent (bad workflow, frame, timestamp, ...). `code` is
 * the face-liveness service's 400 code (spec Doc 2 A); the server renders it, other callers (the
 * onboarding service) map it as they need. The message names the field and never holds frame data.
 */
export class LivenessInputError extends Error {
  override name = 'LivenessInputError';
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
