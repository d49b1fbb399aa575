/** Why a voice sample cannot be used: the services map these to their error codes (-7 undecodable, -8 empty). */
export type VoiceSampleProblem = 'undecodable' | 'empty' | 'too-long';

/**
 * A voice sample the engine cannot read: bytes in no supported format or broken inside one (`undecodable`),
 * a well-formed file without samples (`empty`), or a recording over the length limit (`too-long`).
 *
 * @example
 * try {
 *   await decodeVoiceSample(bytes);
 * } catch (error) {
 *   if (error instanceof VoiceSampleError && error.reason === 'empty') reply(-8);
 * }
 */
export class VoiceSampleError extends Error {
  override name = 'VoiceSampleError';

  constructor(
    readonly reason: VoiceSampleProblem,
    message: string,
  ) {
    super(message);
  }
}
