/** Why lines cannot be read as an MRZ at all. */
export type MrzInputProblem = 'LINE_COUNT' | 'LINE_LENGTH' | 'CHARACTERS';

/**
 * Input that is no MRZ of a known format: the wrong number of lines, lines whose lengths fit no format
 * (parseMrz wants them exact, repairMrz within 2 characters), or characters outside the MRZ alphabet.
 * The message says what is wrong without echoing the lines, which hold personal data.
 *
 * @example
 * try { parseMrz(['P<UTO']); } catch (error) { (error as MrzInputError).problem; } // 'LINE_COUNT'
 */
export class MrzInputError extends RangeError {
  override name = 'MrzInputError';

  constructor(
    readonly problem: MrzInputProblem,
    message: string,
  ) {
    super(message);
  }
}
