/**
 * Where each field and check digit of every format sits (ICAO 9303 Parts 4–7; the French card from its
 * published layout), and the character type of each position, which the repairs force characters to.
 */

import type { MrzCheckName, MrzFieldName, MrzFormat, MrzPosition, MrzSegment } from './mrz-types.js';

/**
 * What a position may hold. `letter`: A–Z or `<`; `name`: the same, in a name field; `digit`: 0–9 or `<`
 * (dates print `<<` for an unknown month or day); `check`: a check digit (0–9, or `<` where the field
 * it checks may be all fillers); `sex`: M, F, X or `<`; `alnum`: anything of the alphabet.
 */
export type PositionKind = 'letter' | 'name' | 'digit' | 'check' | 'sex' | 'alnum';

/** `names` is the ICAO name field, split into surname and given names by parse-mrz. */
export type LayoutFieldName = MrzFieldName | 'names';

export interface LayoutField {
  readonly name: LayoutFieldName;
  readonly segments: readonly MrzSegment[];
}

export interface LayoutCheck {
  readonly name: MrzCheckName;
  readonly digit: MrzPosition;
  readonly covers: readonly MrzSegment[];
  /** The digit may be `<` when everything it covers is fillers (TD3's empty personal number). */
  readonly fillerWhenEmpty: boolean;
  /**
   * A second reading issuers use: a long TD1/TD2 document number's check digit is computed over the
   * number with or without the `<` between its two parts (ICAO 9303 leaves it open; Belgian cards include
   * it, ICAO's own example gives the same digit both ways), so either passes.
   */
  readonly alternativeCovers?: readonly MrzSegment[];
}

export interface MrzLayout {
  readonly format: MrzFormat;
  readonly lineCount: number;
  readonly lineLength: number;
  readonly fields: readonly LayoutField[];
  readonly kinds: readonly { readonly segment: MrzSegment; readonly kind: PositionKind }[];
  readonly checks: readonly LayoutCheck[];
}

const seg = (line: number, start: number, end: number): MrzSegment => ({ line, start, end });
const at = (line: number, column: number): MrzPosition => ({ line, column });
const field = (name: LayoutFieldName, ...segments: MrzSegment[]): LayoutField => ({ name, segments });
const kind = (segment: MrzSegment, k: PositionKind) => ({ segment, kind: k });
const check = (name: MrzCheckName, digit: MrzPosition, covers: MrzSegment[], fillerWhenEmpty = false): LayoutCheck => ({
  name,
  digit,
  covers,
  fillerWhenEmpty,
});

// The document code's first character is a letter; the second is the issuer's choice (`<`, a letter, and
// in practice a digit: the US passport card prints `C1`).
const documentCodeKinds = [kind(seg(0, 0, 1), 'letter'), kind(seg(0, 1, 2), 'alnum')];

/** Line 2 of TD2, TD3, MRV-A and MRV-B up to the expiry check digit: the same 28 positions in all four. */
function secondLineStart(): { fields: LayoutField[]; kinds: MrzLayout['kinds'][number][]; checks: LayoutCheck[] } {
  return {
    fields: [
      field('documentNumber', seg(1, 0, 9)),
      field('nationality', seg(1, 10, 13)),
      field('dateOfBirth', seg(1, 13, 19)),
      field('sex', seg(1, 20, 21)),
      field('dateOfExpiry', seg(1, 21, 27)),
    ],
    kinds: [
      kind(seg(1, 0, 9), 'alnum'),
      kind(seg(1, 9, 10), 'check'),
      kind(seg(1, 10, 13), 'letter'),
      kind(seg(1, 13, 19), 'digit'),
      kind(seg(1, 19, 20), 'check'),
      kind(seg(1, 20, 21), 'sex'),
      kind(seg(1, 21, 27), 'digit'),
      kind(seg(1, 27, 28), 'check'),
    ],
    checks: [
      check('documentNumber', at(1, 9), [seg(1, 0, 9)]),
      check('dateOfBirth', at(1, 19), [seg(1, 13, 19)]),
      check('dateOfExpiry', at(1, 27), [seg(1, 21, 27)]),
    ],
  };
}

/** First line of TD2, TD3, MRV-A, MRV-B: code, issuing state, names to the end of the line. */
function nameLine(length: number): { fields: LayoutField[]; kinds: MrzLayout['kinds'][number][] } {
  return {
    fields: [
      field('documentCode', seg(0, 0, 2)),
      field('issuingState', seg(0, 2, 5)),
      field('names', seg(0, 5, length)),
    ],
    kinds: [...documentCodeKinds, kind(seg(0, 2, 5), 'letter'), kind(seg(0, 5, length), 'name')],
  };
}

const TD1: MrzLayout = {
  format: 'TD1',
  lineCount: 3,
  lineLength: 30,
  fields: [
    field('documentCode', seg(0, 0, 2)),
    field('issuingState', seg(0, 2, 5)),
    field('documentNumber', seg(0, 5, 14)),
    field('optionalData1', seg(0, 15, 30)),
    field('dateOfBirth', seg(1, 0, 6)),
    field('sex', seg(1, 7, 8)),
    field('dateOfExpiry', seg(1, 8, 14)),
    field('nationality', seg(1, 15, 18)),
    field('optionalData2', seg(1, 18, 29)),
    field('names', seg(2, 0, 30)),
  ],
  kinds: [
    ...documentCodeKinds,
    kind(seg(0, 2, 5), 'letter'),
    kind(seg(0, 5, 14), 'alnum'),
    kind(seg(0, 14, 15), 'check'),
    kind(seg(0, 15, 30), 'alnum'),
    kind(seg(1, 0, 6), 'digit'),
    kind(seg(1, 6, 7), 'check'),
    kind(seg(1, 7, 8), 'sex'),
    kind(seg(1, 8, 14), 'digit'),
    kind(seg(1, 14, 15), 'check'),
    kind(seg(1, 15, 18), 'letter'),
    kind(seg(1, 18, 29), 'alnum'),
    kind(seg(1, 29, 30), 'check'),
    kind(seg(2, 0, 30), 'name'),
  ],
  checks: [
    check('documentNumber', at(0, 14), [seg(0, 5, 14)]),
    check('dateOfBirth', at(1, 6), [seg(1, 0, 6)]),
    check('dateOfExpiry', at(1, 14), [seg(1, 8, 14)]),
    check('composite', at(1, 29), [seg(0, 5, 30), seg(1, 0, 7), seg(1, 8, 15), seg(1, 18, 29)]),
  ],
};

function td2Like(format: 'TD2' | 'MRV-B'): MrzLayout {
  const line1 = nameLine(36);
  const line2 = secondLineStart();
  const optional = format === 'TD2' ? seg(1, 28, 35) : seg(1, 28, 36);
  return {
    format,
    lineCount: 2,
    lineLength: 36,
    fields: [...line1.fields, ...line2.fields, field('optionalData1', optional)],
    kinds: [
      ...line1.kinds,
      ...line2.kinds,
      kind(optional, 'alnum'),
      ...(format === 'TD2' ? [kind(seg(1, 35, 36), 'check')] : []),
    ],
    checks: [
      ...line2.checks,
      ...(format === 'TD2' ? [check('composite', at(1, 35), [seg(1, 0, 10), seg(1, 13, 20), seg(1, 21, 35)])] : []),
    ],
  };
}

const TD3: MrzLayout = (() => {
  const line1 = nameLine(44);
  const line2 = secondLineStart();
  return {
    format: 'TD3',
    lineCount: 2,
    lineLength: 44,
    fields: [...line1.fields, ...line2.fields, field('personalNumber', seg(1, 28, 42))],
    kinds: [...line1.kinds, ...line2.kinds, kind(seg(1, 28, 42), 'alnum'), kind(seg(1, 42, 44), 'check')],
    checks: [
      ...line2.checks,
      check('personalNumber', at(1, 42), [seg(1, 28, 42)], true),
      check('composite', at(1, 43), [seg(1, 0, 10), seg(1, 13, 20), seg(1, 21, 43)]),
    ],
  };
})();

const MRV_A: MrzLayout = (() => {
  const line1 = nameLine(44);
  const line2 = secondLineStart();
  return {
    format: 'MRV-A',
    lineCount: 2,
    lineLength: 44,
    fields: [...line1.fields, ...line2.fields, field('optionalData1', seg(1, 28, 44))],
    kinds: [...line1.kinds, ...line2.kinds, kind(seg(1, 28, 44), 'alnum')],
    checks: line2.checks,
  };
})();

/**
 * The French national identity card issued until 2021: line 1 `ID`, `FRA`, surname (25), the issuing
 * department and office (6); line 2 the 12-character card number (issue year and month, department,
 * office, sequence) and its check digit, given names (14), birth date and check digit, sex, and a final
 * check digit over both lines. No nationality and no expiry date are printed.
 */
const FRENCH_ID: MrzLayout = {
  format: 'FRENCH_ID',
  lineCount: 2,
  lineLength: 36,
  fields: [
    field('documentCode', seg(0, 0, 2)),
    field('issuingState', seg(0, 2, 5)),
    field('surname', seg(0, 5, 30)),
    field('optionalData1', seg(0, 30, 36)),
    field('documentNumber', seg(1, 0, 12)),
    field('givenNames', seg(1, 13, 27)),
    field('dateOfBirth', seg(1, 27, 33)),
    field('sex', seg(1, 34, 35)),
  ],
  kinds: [
    ...documentCodeKinds,
    kind(seg(0, 2, 5), 'letter'),
    kind(seg(0, 5, 30), 'name'),
    kind(seg(0, 30, 36), 'alnum'),
    kind(seg(1, 0, 4), 'digit'),
    kind(seg(1, 4, 7), 'alnum'),
    kind(seg(1, 7, 12), 'digit'),
    kind(seg(1, 12, 13), 'check'),
    kind(seg(1, 13, 27), 'name'),
    kind(seg(1, 27, 33), 'digit'),
    kind(seg(1, 33, 34), 'check'),
    kind(seg(1, 34, 35), 'sex'),
    kind(seg(1, 35, 36), 'check'),
  ],
  checks: [
    check('documentNumber', at(1, 12), [seg(1, 0, 12)]),
    check('dateOfBirth', at(1, 33), [seg(1, 27, 33)]),
    check('composite', at(1, 35), [seg(0, 0, 36), seg(1, 0, 35)]),
  ],
};

const LAYOUTS: Readonly<Record<MrzFormat, MrzLayout>> = {
  TD1,
  TD2: td2Like('TD2'),
  TD3,
  'MRV-A': MRV_A,
  'MRV-B': td2Like('MRV-B'),
  FRENCH_ID,
};

/**
 * The fixed layout of a format, before any long document number is resolved (resolveMrzLayout does that).
 *
 * @example
 * mrzLayout('TD3').lineLength; // 44
 */
export function mrzLayout(format: MrzFormat): MrzLayout {
  return LAYOUTS[format];
}

/**
 * The layout of these lines: TD1 and TD2 documents whose number is longer than 9 characters print `<` in
 * the number's check-digit position and continue the number in the optional data, followed by its check
 * digit and a filler (ICAO 9303 Part 5 §4.2.2 note j, Part 6 §4.2.2). The number then covers
 * both parts, the check digit moves, and the optional data starts after the filler. The check digit
 * passes computed with or without the `<` between the parts (LayoutCheck.alternativeCovers).
 *
 * @example
 * const layout = resolveMrzLayout('TD1', ['I<UTOD23145890<7349<<<<<<<<<<<', '…', '…']);
 * layout.checks[0].digit; // { line: 0, column: 18 }: the number is D23145890734
 */
export function resolveMrzLayout(format: MrzFormat, lines: readonly string[]): MrzLayout {
  const base = LAYOUTS[format];
  if (format !== 'TD1' && format !== 'TD2') return base;
  const line = format === 'TD1' ? 0 : 1;
  const checkColumn = format === 'TD1' ? 14 : 9;
  const optional = format === 'TD1' ? seg(0, 15, 30) : seg(1, 28, 35);
  const text = lines[line] ?? '';
  if (text.charAt(checkColumn) !== '<' || text.charAt(optional.start) === '<') return base;
  // The overflow runs to the first filler of the optional data; its last character is the check digit.
  let end = optional.start;
  while (end < optional.end && text.charAt(end) !== '<') end++;
  const digitColumn = end - 1;
  const overflow = seg(line, optional.start, digitColumn);
  const rest = seg(line, Math.min(end, optional.end), optional.end);
  const replaceSegment = (s: MrzSegment): MrzSegment[] =>
    s.line === optional.line && s.start === optional.start && s.end === optional.end ? [rest] : [s];
  return {
    ...base,
    fields: base.fields.map((f) => {
      if (f.name === 'documentNumber') return field('documentNumber', ...f.segments, overflow);
      if (f.name === 'optionalData1') return field('optionalData1', ...f.segments.flatMap(replaceSegment));
      return f;
    }),
    kinds: [
      ...base.kinds.filter((k) => !(k.segment.line === line && k.segment.start === optional.start)),
      kind(overflow, 'alnum'),
      kind(seg(line, digitColumn, digitColumn + 1), 'check'),
      kind(rest, 'alnum'),
    ],
    checks: base.checks.map((c) =>
      c.name === 'documentNumber'
        ? {
            ...check('documentNumber', at(line, digitColumn), [...c.covers, overflow]),
            alternativeCovers: [...c.covers, seg(line, checkColumn, checkColumn + 1), overflow],
          }
        : c,
    ),
  };
}

/**
 * The kind of every position, line by line, for the repairs.
 *
 * @example
 * positionKinds(mrzLayout('TD3'))[1][13]; // 'digit' (first character of the birth date)
 */
export function positionKinds(layout: MrzLayout): PositionKind[][] {
  const kinds = Array.from({ length: layout.lineCount }, () =>
    new Array<PositionKind>(layout.lineLength).fill('alnum'),
  );
  for (const { segment, kind: k } of layout.kinds) {
    const row = kinds[segment.line];
    if (row) for (let c = segment.start; c < segment.end; c++) row[c] = k;
  }
  return kinds;
}
