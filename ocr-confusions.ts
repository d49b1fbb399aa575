/**
 * The OCR confusions the repairs and the confidence model assume on OCR-B: the letter/digit pairs
 * O/0, I/1, B/8, S/5, Z/2, G/6 (either way), D and Q read for 0, and the filler `<` read as K, L or C
 * (one way: the chevron loses or gains a stroke; a letter read as a filler is not modelled).
 */

import { characterValue } from './check-digit.js';
import type { PositionKind } from './mrz-layouts.js';

const PAIRS: readonly (readonly [letter: string, digit: string])[] = [
  ['O', '0'],
  ['I', '1'],
  ['B', '8'],
  ['S', '5'],
  ['Z', '2'],
  ['G', '6'],
];

const DIGIT_FOR_LETTER: ReadonlyMap<string, string> = new Map([...PAIRS, ['D', '0'], ['Q', '0']]);
const LETTER_FOR_DIGIT: ReadonlyMap<string, string> = new Map(PAIRS.map(([letter, digit]) => [digit, letter]));

/** Letters an OCR reads for a filler. */
export const FILLER_MISREADS: ReadonlySet<string> = new Set(['K', 'L', 'C']);

/**
 * The digit a letter stands for in a digit-only position, or null when the letter is no usual misread
 * of a digit.
 *
 * @example
 * digitForLetter('O'); // '0'
 * digitForLetter('X'); // null
 */
export function digitForLetter(letter: string): string | null {
  return DIGIT_FOR_LETTER.get(letter) ?? null;
}

/**
 * The letter a digit stands for in a letter-only position, or null.
 *
 * @example
 * letterForDigit('5'); // 'S'
 */
export function letterForDigit(digit: string): string | null {
  return LETTER_FOR_DIGIT.get(digit) ?? null;
}

/**
 * What the character read may really be, in a position that holds letters and digits: its partner in a
 * letter/digit pair, and the filler for K, L and C.
 *
 * @example
 * alternativesOf('O'); // ['0']
 * alternativesOf('K'); // ['<']
 * alternativesOf('<'); // []
 */
export function alternativesOf(character: string): string[] {
  const out: string[] = [];
  const digit = digitForLetter(character);
  if (digit !== null && character !== 'D' && character !== 'Q') out.push(digit);
  const letter = letterForDigit(character);
  if (letter !== null) out.push(letter);
  if (FILLER_MISREADS.has(character)) out.push('<');
  return out;
}

/**
 * Whether a check digit cannot tell `a` from `b` anywhere: their values differ by a multiple of 10 and
 * the weights 7, 3, 1 are prime to 10 (G and 6, K and `<`).
 *
 * @example
 * checkDigitBlind('G', '6'); // true
 * checkDigitBlind('O', '0'); // false
 */
export function checkDigitBlind(a: string, b: string): boolean {
  const va = characterValue(a);
  const vb = characterValue(b);
  return va !== null && vb !== null && (va - vb) % 10 === 0;
}

/**
 * Whether a position of this kind can hold the character.
 *
 * @example
 * allowedIn('name', '<'); // true
 * allowedIn('digit', 'O'); // false
 */
export function allowedIn(kind: PositionKind, character: string): boolean {
  if (kind === 'alnum') return /^[A-Z0-9<]$/.test(character);
  if (kind === 'digit' || kind === 'check') return /^[0-9<]$/.test(character);
  if (kind === 'sex') return /^[MFX<]$/.test(character);
  return /^[A-Z<]$/.test(character);
}
