import { detectMrzFormat } from './detect-format.js';
import { strictMrzLines } from './mrz-lines.js';
import type { MrzOptions, MrzParseResult } from './mrz-types.js';
import { readMrzFields } from './read-fields.js';

/**
 * Parses an MRZ exactly as given, changing nothing: TD1, TD2, TD3, MRV-A, MRV-B or the French national
 * card, told apart by line count, line length and document code. Every check digit is verified; a wrong
 * one is an error issue and makes the result invalid (on a genuine read, a security finding). State codes
 * are checked for their shape only: `UTO` and other codes outside the ICAO list are warnings. Dates
 * get their century by the rules of mrz-date.ts, counted from `options.referenceDate` (today).
 * For OCR output, use repairMrz.
 *
 * @example
 * const mrz = parseMrz([
 *   'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
 *   'L898902C36UTO7408122F1204159ZE184226B<<<<<10',
 * ]);
 * mrz.valid; // true
 * mrz.fields.surname.value; // 'ERIKSSON'
 * mrz.fields.dateOfBirth.date?.iso; // '1974-08-12'
 * @throws {MrzInputError} for lines of no known format (count, lengths) or characters outside A–Z, 0–9, `<`
 */
export function parseMrz(input: string | readonly string[], options: MrzOptions = {}): MrzParseResult {
  const lines = strictMrzLines(input);
  const format = detectMrzFormat(lines);
  return readMrzFields(format, lines, options.referenceDate ?? new Date(), []);
}
