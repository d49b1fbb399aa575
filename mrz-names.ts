/**
 * The name field of ICAO layouts: the primary identifier (surname), `<<`, then the secondary identifier
 * (given names), components separated by single `<` (ICAO 9303 Part 3 §4.6). A field with no `<<` is all
 * primary identifier; one starting with `<<` has none.
 */
export interface SplitName {
  readonly surname: string;
  readonly givenNames: string;
  /** Column (in the field) where the given names start, or the field's length when there are none. */
  readonly givenNamesStart: number;
  /** Column where the surname ends (before its `<<`). */
  readonly surnameEnd: number;
}

/** Fillers to spaces, the trailing padding dropped. */
export function nameValue(raw: string): string {
  return raw.replace(/<+$/, '').replace(/^<+/, '').replace(/<+/g, ' ');
}

/**
 * Splits a name field at its first `<<`; fillers become spaces and the padding is dropped.
 *
 * @example
 * splitMrzName('ERIKSSON<<ANNA<MARIA<<<<<<<<<<'); // { surname: 'ERIKSSON', givenNames: 'ANNA MARIA', … }
 * splitMrzName('OSPELT<BECK<<MARISA<<<<<<<<<<<').surname; // 'OSPELT BECK'
 */
export function splitMrzName(raw: string): SplitName {
  const separator = raw.indexOf('<<');
  if (separator < 0)
    return { surname: nameValue(raw), givenNames: '', givenNamesStart: raw.length, surnameEnd: raw.length };
  const givenNamesStart = separator + 2;
  return {
    surname: nameValue(raw.slice(0, separator)),
    givenNames: nameValue(raw.slice(givenNamesStart)),
    givenNamesStart,
    surnameEnd: separator,
  };
}
