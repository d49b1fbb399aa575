import { MrzInputError } from './mrz-input-error.js';
import type { MrzFormat } from './mrz-types.js';

/** Digits an OCR reads for the letters a document code starts with. */
const LETTER_FOR_DIGIT: Readonly<Record<string, string>> = { '1': 'I', '0': 'O', '5': 'S', '8': 'B', '2': 'Z' };

const asLetter = (c: string) => LETTER_FOR_DIGIT[c] ?? c;

/**
 * The format of an MRZ from its line count, line lengths and document code: 3 lines of 30 are TD1; 2 lines
 * of 44 are MRV-A when the code starts with V, else TD3; 2 lines of 36 are MRV-B for V, the French
 * national card for `IDFRA`, else TD2. `tolerance` lets lengths be off by that many characters (repairMrz
 * uses 2; the bands 28–32, 34–38 and 42–46 do not overlap). Digits in the code are read as the letters
 * they resemble (`1DFRA` is the French card) so that a misread code still finds its layout.
 *
 * @example
 * detectMrzFormat(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<', 'L898902C36UTO7408122F1204159ZE184226B<<<<<10']);
 * // 'TD3'
 * @throws {MrzInputError} when no format has that many lines of those lengths
 */
export function detectMrzFormat(lines: readonly string[], tolerance = 0): MrzFormat {
  const near = (length: number, expected: number) => Math.abs(length - expected) <= tolerance;
  if (lines.length === 3) {
    if (lines.every((l) => near(l.length, 30))) return 'TD1';
    throw new MrzInputError('LINE_LENGTH', `3 MRZ lines are TD1 and have 30 characters each${tolerance ? ` (±${tolerance})` : ''}`);
  }
  if (lines.length !== 2)
    throw new MrzInputError('LINE_COUNT', `an MRZ has 2 or 3 lines, not ${lines.length}`);
  const first = lines[0] ?? '';
  const code = [...first.slice(0, 5)].map(asLetter).join('');
  if (lines.every((l) => near(l.length, 44))) return code.startsWith('V') ? 'MRV-A' : 'TD3';
  if (lines.every((l) => near(l.length, 36))) {
    if (code.startsWith('V')) return 'MRV-B';
    return code === 'IDFRA' ? 'FRENCH_ID' : 'TD2';
  }
  throw new MrzInputError(
    'LINE_LENGTH',
    `2 MRZ lines have 36 or 44 characters each${tolerance ? ` (±${tolerance})` : ''}, not ${lines.map((l) => l.length).join(' and ')}`,
  );
}
