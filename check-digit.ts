/**
 * ICAO 9303 Part 3 §4.9 check digits: each character's value (digits 0–9, A–Z 10–35, the filler `<` 0)
 * times the repeating weights 7, 3, 1, summed, modulo 10.
 */

const WEIGHTS = [7, 3, 1] as const;
const CODE_0 = 48;
const CODE_9 = 57;
const CODE_A = 65;
const CODE_Z = 90;

/**
 * The value a character adds to a check digit before weighting; null for a character outside the MRZ
 * alphabet. Characters whose values differ by a multiple of 10 (`<` K U A, G 6, B L V 1) are
 * indistinguishable to every check digit: weights 7, 3 and 1 are prime to 10.
 *
 * @example
 * characterValue('7'); // 7
 * characterValue('K'); // 20
 * characterValue('<'); // 0
 */
export function characterValue(character: string): number | null {
  if (character === '<') return 0;
  const code = character.length === 1 ? character.charCodeAt(0) : -1;
  if (code >= CODE_0 && code <= CODE_9) return code - CODE_0;
  if (code >= CODE_A && code <= CODE_Z) return code - CODE_A + 10;
  return null;
}

/** The weight of the character at `index` (0-based) of the covered text. */
export function checkWeight(index: number): number {
  return WEIGHTS[index % 3] ?? 1;
}

/**
 * The check digit of a run of MRZ characters; characters outside the alphabet count as 0 (the caller
 * reports them).
 *
 * @example
 * computeCheckDigit('L898902C3'); // 6 (ICAO 9303 specimen passport number)
 * computeCheckDigit('740812'); // 2
 */
export function computeCheckDigit(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum += (characterValue(text.charAt(i)) ?? 0) * checkWeight(i);
  return sum % 10;
}
