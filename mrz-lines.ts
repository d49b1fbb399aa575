import { MrzInputError } from './mrz-input-error.js';
import type { MrzChange } from './mrz-types.js';

const MRZ_LINE = /^[A-Z0-9<]*$/;
const MAX_INPUT_CHARACTERS = 1000;

/**
 * Splits the input into its non-empty lines (one string with line breaks, or one string per line),
 * trimmed. Refuses more than 1000 characters: an MRZ has at most 90.
 */
function splitLines(input: string | readonly string[]): string[] {
  const parts = typeof input === 'string' ? input.split(/\r?\n/) : [...input];
  if (parts.reduce((n, p) => n + p.length, 0) > MAX_INPUT_CHARACTERS)
    throw new MrzInputError('LINE_LENGTH', `an MRZ has at most 90 characters, not over ${MAX_INPUT_CHARACTERS}`);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/**
 * The lines of an MRZ as parseMrz takes them: trimmed, empty lines dropped, and nothing else changed.
 *
 * @example
 * strictMrzLines(`${line1}\n${line2}\n${line3}`); // [line1, line2, line3]
 * @throws {MrzInputError} for a character outside A–Z, 0–9 and `<`
 */
export function strictMrzLines(input: string | readonly string[]): string[] {
  const lines = splitLines(input);
  lines.forEach((line, i) => {
    if (!MRZ_LINE.test(line))
      throw new MrzInputError('CHARACTERS', `MRZ line ${i + 1} holds a character other than A-Z, 0-9 and <`);
  });
  return lines;
}

/**
 * The lines of an MRZ as repairMrz takes them: trimmed and empty lines dropped like strictMrzLines, then
 * the OCR's spacing and typography undone, each change reported: spaces inside a line removed,
 * lower-case letters raised, `«` and `‹` read as fillers. Other foreign characters stay for the length
 * repair to delete or the parse to report.
 *
 * @example
 * lenientMrzLines(['p<uto eriksson«anna']).lines; // ['P<UTOERIKSSON<<ANNA']
 */
export function lenientMrzLines(input: string | readonly string[]): { lines: string[]; changes: MrzChange[] } {
  const changes: MrzChange[] = [];
  const lines = splitLines(input).map((line, lineIndex) => {
    let out = '';
    for (const character of line) {
      const column = out.length;
      const note = (to: string, reason: string) =>
        changes.push({ kind: 'normalize', line: lineIndex, column, from: character, to, reason, ambiguous: false });
      if (/\s/.test(character)) note('', 'space inside an MRZ line');
      else if (character === '«') note('<<', 'typographic double chevron');
      else if (character === '‹') note('<', 'typographic chevron');
      else if (character !== character.toUpperCase() && character.toUpperCase().length === 1)
        note(character.toUpperCase(), 'lower-case letter');
      else {
        out += character;
        continue;
      }
      out += changes.at(-1)?.to ?? '';
    }
    return out;
  });
  return { lines, changes };
}
