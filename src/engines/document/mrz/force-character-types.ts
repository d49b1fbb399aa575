import { positionKinds, resolveMrzLayout, type PositionKind } from './mrz-layouts.js';
import { digitForLetter, FILLER_MISREADS, letterForDigit } from './ocr-confusions.js';
import type { MrzChange, MrzFormat } from './mrz-types.js';
import { UNGATED, type RepairGate } from './read-evidence.js';

/**
 * The character a position of this kind reads a character as: the digit a letter resembles in a date or
 * check digit, the letter a digit resembles in a name or code, the filler for K, L or C in the sex
 * field; the character itself otherwise (including when it has no counterpart).
 *
 * @example
 * forcedCharacter('digit', 'O'); // '0'
 * forcedCharacter('name', '5'); // 'S'
 */
export function forcedCharacter(kind: PositionKind | undefined, character: string): string {
  // The one non-digit a check digit position holds is `<` (an empty personal number, the mark of a long
  // document number): K, L or C there is a misread filler, which lets the layout find a long number.
  if (kind === 'check' && FILLER_MISREADS.has(character)) return '<';
  if (kind === 'digit' || kind === 'check')
    return /[A-Z]/.test(character) ? (digitForLetter(character) ?? character) : character;
  if (kind === 'letter' || kind === 'name')
    return /[0-9]/.test(character) ? (letterForDigit(character) ?? character) : character;
  if (kind === 'sex' && FILLER_MISREADS.has(character)) return '<';
  return character;
}

/**
 * Repair 3: forces each character to the type of its position. A letter in a date or check digit
 * becomes the digit it resembles (O, D, Q→0, I→1, Z→2, S→5, G→6, B→8); a digit in a name, state code
 * or the document code's first character becomes its letter (0→O, 1→I, 2→Z, 5→S, 6→G, 8→B); K, L or C
 * in the sex field or a check digit position, where the only letter-like character allowed is the
 * filler, becomes `<`. Characters with no such counterpart, and characters the gate keeps (read sure by the
 * OCR: a `B` printed in a date is a finding), are left for the parse to report. Document numbers and
 * optional data hold both letters and digits, so nothing is forced there (repairUniqueSwaps may act).
 *
 * @example
 * forceCharacterTypes(['P<UT0ERIK55ON<<ANNA<<<…', 'L898902C36UTO740BIZ2F…'], 'TD3').lines[1].slice(13, 19); // '740812'
 */
export function forceCharacterTypes(
  lines: readonly string[],
  format: MrzFormat,
  gate: RepairGate = UNGATED,
): { lines: string[]; changes: MrzChange[] } {
  const kinds = positionKinds(resolveMrzLayout(format, lines));
  const changes: MrzChange[] = [];
  const out = lines.map((line, lineIndex) => {
    const characters = [...line];
    characters.forEach((character, column) => {
      const kind = kinds[lineIndex]?.[column];
      const to = forcedCharacter(kind, character);
      const reason =
        kind === 'sex' || (kind === 'check' && to === '<')
          ? `filler read as a letter in a ${kind === 'sex' ? 'sex' : 'check digit'} position`
          : kind === 'digit' || kind === 'check'
            ? `letter in a ${kind === 'digit' ? 'date or number' : 'check digit'} position`
            : `digit in a ${kind === 'name' ? 'name' : 'letter'} position`;
      if (to !== character && gate(lineIndex, column, to)) {
        changes.push({ kind: 'type', line: lineIndex, column, from: character, to, reason, ambiguous: false });
        characters[column] = to;
      }
    });
    return characters.join('');
  });
  return { lines: out, changes };
}
