import type { GrayImage } from './gray-image.js';
import { MrzInputError } from './mrz/mrz-input-error.js';
import { repairMrz } from './mrz/repair-mrz.js';
import type { MrzFormat } from './mrz/mrz-types.js';
import type { PaddleTextRecognizer, RecognizedLine } from './paddle-text-recognizer.js';

/** A band's lines as read, and how MRZ-like they are. */
export interface MrzRead {
  /** The recogniser's text per line, unrepaired. */
  readonly lines: readonly string[];
  /** Per line, per character, the recogniser's probability. */
  readonly confidences: readonly (readonly number[])[];
  /** The layout repairMrz recognised, or null when the lines fit none. */
  readonly layout: MrzFormat | null;
  /** The lines fit an MRZ layout (line count, lengths within 2) with a mean confidence of at least 0.5. */
  readonly plausible: boolean;
  /** After repair, every check digit is valid. */
  readonly complete: boolean;
  /** Ranks reads of the same band: valid check digits after repair, then mean confidence. */
  readonly score: number;
  readonly meanConfidence: number;
}

/** Below this mean character probability a read is noise that happens to have MRZ line lengths. */
const MIN_MEAN_CONFIDENCE = 0.5;

/**
 * Reads the line images of a band and judges the read: repairMrz (the parser's repair, mrz/) is run only
 * to tell whether the lines are an MRZ and how many check digits hold; the lines returned are the raw
 * read, for the caller to parse.
 *
 * @example
 * const read = await readMrzLines(recognizer, lineImages);
 * read.plausible; // true
 * read.lines; // ['P<UTOERIKSSON<<ANNA<MARIA<<<…', 'L898902C36UT07408122F1204159ZE184226B<<<<<10']
 */
export async function readMrzLines(
  recognizer: PaddleTextRecognizer,
  lineImages: readonly GrayImage[],
): Promise<MrzRead> {
  const recognized = [];
  // One line per model run: padding lines to a common width costs more than it saves (measured).
  for (const image of lineImages) recognized.push(await recognizer.recognize(image));
  return judgeMrzRead(recognized);
}

/**
 * Judges lines already recognised (readMrzLines without the recogniser): for a reader that reads a line
 * ahead of the others (to pick the band's direction) and must not read it twice.
 *
 * @example
 * const read = judgeMrzRead([await recognizer.recognize(line1), await recognizer.recognize(line2)]);
 * read.complete; // true when every check digit holds after repair
 */
export function judgeMrzRead(recognized: readonly RecognizedLine[]): MrzRead {
  const lines = recognized.map((r) => r.text);
  const confidences = recognized.map((r) => r.confidences);
  const all = confidences.flat();
  const meanConfidence = all.length > 0 ? all.reduce((a, b) => a + b, 0) / all.length : 0;
  let layout: MrzFormat | null = null;
  let validChecks = 0;
  let complete = false;
  try {
    const repaired = repairMrz(lines);
    layout = repaired.format;
    validChecks = repaired.checkDigits.filter((c) => c.valid).length;
    complete = repaired.checkDigits.every((c) => c.valid);
  } catch (error) {
    if (!(error instanceof MrzInputError)) throw error;
  }
  const plausible = layout !== null && meanConfidence >= MIN_MEAN_CONFIDENCE;
  return { lines, confidences, layout, plausible, complete, score: validChecks + meanConfidence, meanConfidence };
}
