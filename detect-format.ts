import { MrzInputError } from './mrz-input-error.js';
import type { MrzFormat } from './mrz-types.js';

/** Digits an OCR reads for the letters a document code starts with. */
const LETTER_FOR_DIGIT: Readonly<Record<string, string>> = { '1': 'I', '0': 'O', '5': 'S', '8': 'B', '2': 'Z' };

const asLetters = (text: string) => [...text].map((c) => LETTER_FOR_DIGIT[c] ?? c).join('');

/** Whether `short` is `long` with some characters left out. */
function isSubsequence(short: string, long: string): boolean {
  let i = 0;
  for (const c of long) if (c === short.charAt(i)) i++;
  return i === short.length;
}

/**
 * Whether a line starts with `prefix`, allowing for the characters its length is off by: a line `excess`
 * too long may carry them inside the prefix, one too short may have lost them from it.
 */
function startsWithAllowing(line: string, prefix: string, excess: number): boolean {
  if (excess === 0) return line.startsWith(prefix);
  if (excess > 0) return isSubsequence(prefix, line.slice(0, prefix.length + excess));
  return isSubsequence(line.slice(0, prefix.length + excess), prefix);
}

/**
 * The format of an MRZ from its line count, line lengths and document code: 3 lines of 30 are TD1; 2 lines
 * of 44 are MRV-A when the code starts with V, else TD3; 2 lines of 36 are MRV-B for V, the French
 * national card for `IDFRA`, else TD2. `tolerance` lets lengths be off by that many characters (repairMrz
 * uses 2; the bands 28–32, 34–38 and 42–46 do not overlap); the code is then looked for allowing the
 * same number of characters lost or added in it. Digits in the code are read as the letters they
 * resemble (`1DFRA` is the French card) so that a misread code still finds its layout.
 *
 * @example
 * detectMrzFormat(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']);
 * // 'TD3'
 * @throws {MrzInputError} when no format has that many lines of those lengths
 */
export function detectMrzFormat(lines: readonly string[], tolerance = 0): MrzFormat {
  const near = (length: number, expected: number) => Math.abs(length - expected) <= tolerance;
  const within = tolerance ? ` (±${tolerance})` : '';
  if (lines.length === 3) {
    if (lines.every((l) => near(l.length, 30))) return 'TD1';
    throw new MrzInputError('LINE_LENGTH', `3 MRZ lines are TD1 and have 30 characters each${within}`);
  }
  if (lines.length !== 2) throw new MrzInputError('LINE_COUNT', `an MRZ has 2 or 3 lines, not ${lines.length}`);
  const first = asLetters((lines[0] ?? '').slice(0, 8));
  const excessOver = (length: number) => (lines[0] ?? '').length - length;
  if (lines.every((l) => near(l.length, 44)))
    return startsWithAllowing(first, 'V', Math.max(0, excessOver(44))) ? 'MRV-A' : 'TD3';
  if (lines.every((l) => near(l.length, 36))) {
    if (startsWithAllowing(first, 'V', Math.max(0, excessOver(36)))) return 'MRV-B';
    return startsWithAllowing(first, 'IDFRA', excessOver(36)) ? 'FRENCH_ID' : 'TD2';
  }
  throw new MrzInputError(
    'LINE_LENGTH',
    `2 MRZ lines have 36 or 44 characters each${within}, not ${lines.map((l) => l.length).join(' and ')}`,
  );
}
