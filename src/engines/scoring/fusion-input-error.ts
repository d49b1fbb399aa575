/**
 * Scores that fusion cannot combine (none, negative, not finite, an overflowing sum, an encounter count
 * that is not a whole number >= 1). The message names the value and never holds more of the request;
 * the server answers it as an invalid value (400 -6).
 *
 * @example
 * try { fuseScores([]); } catch (error) { error instanceof FusionInputError; } // true
 */
export class FusionInputError extends RangeError {
  override name = 'FusionInputError';
}
