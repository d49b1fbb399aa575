import type { GrayImage } from './gray-image.js';
import { MrzInputError } from './mrz/mrz-input-error.js';
import { repairMrz } from './mrz/repair-mrz.js';
import type { MrzCharacterEvidence, MrzFormat, MrzReadEvidence } from './mrz/mrz-types.js';
import { alternativesOf, digitForLetter } from './mrz/ocr-confusions.js';
import { unsureOf } from './mrz/read-evidence.js';
import type { CharacterAlternative, PaddleTextRecognizer, RecognizedLine } from './paddle-text-recognizer.js';

/** Which recogniser read a band: our OCR-B cell classifier or PaddleOCR's text recogniser. */
export type MrzRecognizer = 'ocrb' | 'paddle';

/** A band's lines as read, and how MRZ-like they are. */
export interface MrzRead {
  readonly recognizer: MrzRecognizer;
  /**
   * The recogniser's text per line, unrepaired; for PaddleOCR, with a look-alike (O/0, B/8, K/`<`…) our
   * OCR-B recogniser read sure in the same cell taken from ours (judgeMrzRead).
   */
  readonly lines: readonly string[];
  /**
   * Per line, per character, what the OCR-B cells showed, for repairMrz's `evidence`: a repair changes
   * only characters read unsure. Null where no OCR-B cell stands behind the character.
   */
  readonly evidence: MrzReadEvidence;
  /** Per line, per character, the recogniser's probability. */
  readonly confidences: readonly (readonly number[])[];
  /** Per line, per character, the other characters the recogniser gave weight to (RecognizedLine). */
  readonly alternatives: readonly (readonly (readonly CharacterAlternative[])[])[];
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
  return judgeMrzRead(recognized, 'paddle');
}

/** Whether OCR confuses these two characters on OCR-B (the repairs' confusion pairs, ocr-confusions.ts). */
function lookAlikes(a: string, b: string): boolean {
  return (
    alternativesOf(a).includes(b) || alternativesOf(b).includes(a) || digitForLetter(a) === b || digitForLetter(b) === a
  );
}

/**
 * The text and evidence of a read. Our OCR-B recogniser's own probabilities are its evidence. PaddleOCR's
 * are none on OCR-B's look-alikes (it read a printed `O` as `0` at 0.99 on the dev photos), so a
 * PaddleOCR line takes the OCR-B cells of the same line image as evidence where they line up (same
 * length): where both read the same character, the cell's probabilities; where they differ by a
 * look-alike the cell is sure of, the cell's character (our classifier was trained on OCR-B's glyphs,
 * PaddleOCR was not); where they differ otherwise, PaddleOCR's character with no evidence (any repair).
 * A line without cells has no evidence.
 */
function readAndEvidence(
  recognized: readonly RecognizedLine[],
  cells: readonly RecognizedLine[] | undefined,
): { lines: string[]; evidence: MrzReadEvidence } {
  const evidenceOf = (line: RecognizedLine, column: number): MrzCharacterEvidence => ({
    probability: line.confidences[column] ?? 0,
    alternatives: line.alternatives[column] ?? [],
  });
  const lines: string[] = [];
  const evidence: (MrzCharacterEvidence | null)[][] = [];
  recognized.forEach((read, i) => {
    const cell = cells?.[i];
    if (!cell || cell.text.length !== read.text.length) {
      lines.push(read.text);
      evidence.push(read.text.split('').map(() => null));
      return;
    }
    let text = '';
    const perCharacter: (MrzCharacterEvidence | null)[] = [];
    for (let column = 0; column < read.text.length; column++) {
      const ours = cell.text.charAt(column);
      const theirs = read.text.charAt(column);
      const seen = evidenceOf(cell, column);
      const agree = ours === theirs || (lookAlikes(ours, theirs) && !unsureOf(seen, theirs));
      text += agree ? ours : theirs;
      perCharacter.push(agree ? seen : null);
    }
    lines.push(text);
    evidence.push(perCharacter);
  });
  return { lines, evidence };
}

/**
 * Judges lines already recognised (readMrzLines without the recogniser): for a reader that reads a line
 * ahead of the others (to pick the band's direction) and must not read it twice. `cells`: for a
 * PaddleOCR read, our OCR-B recogniser's read of the same line images, the evidence of the repair
 * (readAndEvidence); an OCR-B read is its own.
 *
 * @example
 * const read = judgeMrzRead([await recognizer.recognize(line1), await recognizer.recognize(line2)], 'paddle');
 * read.complete; // true when every check digit holds after repair
 */
export function judgeMrzRead(
  recognized: readonly RecognizedLine[],
  recognizer: MrzRecognizer,
  cells?: readonly RecognizedLine[],
): MrzRead {
  const { lines, evidence } = readAndEvidence(recognized, recognizer === 'ocrb' ? recognized : cells);
  const confidences = recognized.map((r) => r.confidences);
  const alternatives = recognized.map((r) => r.alternatives);
  const all = confidences.flat();
  const meanConfidence = all.length > 0 ? all.reduce((a, b) => a + b, 0) / all.length : 0;
  let layout: MrzFormat | null = null;
  let validChecks = 0;
  let complete = false;
  try {
    const repaired = repairMrz(lines, { evidence });
    layout = repaired.format;
    validChecks = repaired.checkDigits.filter((c) => c.valid).length;
    complete = repaired.checkDigits.every((c) => c.valid);
  } catch (error) {
    if (!(error instanceof MrzInputError)) throw error;
  }
  const plausible = layout !== null && meanConfidence >= MIN_MEAN_CONFIDENCE;
  return {
    recognizer,
    lines,
    evidence,
    confidences,
    alternatives,
    layout,
    plausible,
    complete,
    score: validChecks + meanConfidence,
    meanConfidence,
  };
}
