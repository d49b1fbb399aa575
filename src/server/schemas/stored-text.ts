import { Type } from '@sinclair/typebox';

/** The Ajv format of strings the server stores or looks up in the store (registered in validation.ts). */
export const STORED_TEXT_FORMAT = 'stored-text';

/** What {@link STORED_TEXT_FORMAT} refuses, worded for the 400 description after the field name. */
export const STORED_TEXT_RULE = 'must not contain control characters (U+0000-U+001F, U+007F-U+009F) or lone surrogates';

// PostgreSQL refuses U+0000 in text (PGlite too) and a lone surrogate has no UTF-8 form; the other
// control characters are storable but never belong in an id or a name. One character class: no backtracking.
const STORED_TEXT = /^[^\p{Cc}\p{Cs}]*$/u;

/**
 * Whether a string may be stored as an id or a name: no control character (C0, DEL, C1) and no lone
 * surrogate. Paired surrogates (emoji) and every other character pass.
 *
 * @example
 * isStoredText('Zoë 😀'); // true
 * isStoredText('alice\u0000'); // false
 */
export function isStoredText(value: string): boolean {
  return STORED_TEXT.test(value);
}

/**
 * A string member that reaches the store (an id, a name, an e-mail address): bounded in length and
 * checked by {@link isStoredText}, so bad input is a 400 -6 naming the field instead of a database error.
 *
 * @example
 * const Body = Type.Object({ id: StoredText('encounter id', { minLength: 1, maxLength: 256 }) });
 * // {"id":"\u0000"} -> 400 {"code":-6,"description":"field 'id' must not contain control characters ..."}
 */
export const StoredText = (description: string, bounds: { minLength?: number; maxLength: number }) =>
  Type.String({
    format: STORED_TEXT_FORMAT,
    minLength: bounds.minLength ?? 0,
    maxLength: bounds.maxLength,
    description,
  });
