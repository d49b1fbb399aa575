/**
 * The deepest nesting of objects and arrays accepted in any JSON the server parses (request bodies,
 * opened envelopes). The deepest request the schemas describe is 7 levels (active liveness, onboarding
 * addFace); 64 leaves room without letting a 100,000-deep document through, which parses but cannot be
 * serialised back (stack overflow), and costs hundreds of MB to build when it is millions deep.
 */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22; // '"'
const BACKSLASH = 0x5c; // '\'
const OPEN_BRACE = 0x7b; // '{'
const OPEN_BRACKET = 0x5b; // '['
const CLOSE_BRACE = 0x7d; // '}'
const CLOSE_BRACKET = 0x5d; // ']'

/**
 * Whether JSON text nests objects and arrays deeper than `limit`, read without parsing it: one pass that
 * counts brackets outside strings and jumps over each string with a native search (a photo's base64 costs
 * almost nothing). Malformed text is not judged here; the parser that follows refuses it.
 *
 * @example
 * jsonNestingExceeds('{"a":[1,2]}', 2); // false (depth 2)
 * jsonNestingExceeds('[[["x"]]]', 2);   // true (depth 3)
 * jsonNestingExceeds('["[[[["]', 2);    // false (brackets inside a string do not count)
 */
export function jsonNestingExceeds(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i + 1);
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
    i++;
  }
  return false;
}

/** The index of the quote closing a string whose content starts at `from` (the text's length if none). */
function stringEnd(text: string, from: number): number {
  let at = text.indexOf('"', from);
  while (at !== -1 && escaped(text, at)) at = text.indexOf('"', at + 1);
  return at === -1 ? text.length : at;
}

/** A quote is escaped when an odd number of backslashes precede it (each run is counted once: linear). */
function escaped(text: string, quote: number): boolean {
  let backslashes = 0;
  for (let k = quote - 1; k >= 0 && text.charCodeAt(k) === BACKSLASH; k--) backslashes++;
  return backslashes % 2 === 1;
}
