import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HIGH_CONFIDENCE } from '../../../../src/engines/document/mrz/field-confidence.js';
import type { MrzField, MrzFieldName, MrzParseResult } from '../../../../src/engines/document/mrz/mrz-types.js';
import { parseMrz } from '../../../../src/engines/document/mrz/parse-mrz.js';
import { repairMrz } from '../../../../src/engines/document/mrz/repair-mrz.js';
import { composeMrz, type ComposedFormat, type MrzTruth } from '../../../helpers/mrz-composer.js';

const referenceDate = new Date('2025-06-01T00:00:00Z');
const SEED = 9303;
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('');
const DIGITS = '0123456789'.split('');

const text = (alphabet: string[], min: number, max: number) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max }).map((a) => a.join(''));
const letters = (min: number, max: number) => text(LETTERS, min, max);
const alnum = (min: number, max: number) => text([...LETTERS, ...DIGITS], min, max);
const digits = (n: number) => text(DIGITS, n, n);
const pad2 = (n: number) => String(n).padStart(2, '0');
const date = fc
  .tuple(fc.integer({ min: 0, max: 99 }), fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }))
  .map(([y, m, d]) => pad2(y) + pad2(m) + pad2(d));
const state = fc.oneof(fc.constantFrom('UTO', 'D', 'XXA', 'GBR', 'USA', 'CHE'), letters(3, 3));
const words = (min: number, max: number) =>
  fc.array(letters(1, 8), { minLength: min, maxLength: max }).map((w) => w.join(' '));

/** Field lengths per format: names, optional data 1 and 2, whether long numbers overflow. */
const SIZES: Record<ComposedFormat, { names: number; optional1: number; optional2: number; overflow: boolean }> = {
  TD1: { names: 30, optional1: 15, optional2: 11, overflow: true },
  TD2: { names: 31, optional1: 7, optional2: 0, overflow: true },
  TD3: { names: 39, optional1: 14, optional2: 0, overflow: false },
  'MRV-A': { names: 39, optional1: 16, optional2: 0, overflow: false },
  'MRV-B': { names: 31, optional1: 8, optional2: 0, overflow: false },
  FRENCH_ID: { names: 25, optional1: 6, optional2: 0, overflow: false },
};

function truthFor(format: ComposedFormat): fc.Arbitrary<MrzTruth> {
  const size = SIZES[format];
  const first = format === 'TD3' ? 'P' : format.startsWith('MRV') ? 'V' : null;
  const code =
    format === 'FRENCH_ID'
      ? fc.constant('ID')
      : fc
          .tuple(first ? fc.constant(first) : fc.constantFrom('I', 'A', 'C'), fc.constantFrom('', ...LETTERS))
          .map(([a, b]) => a + b);
  const number =
    format === 'FRENCH_ID'
      ? fc.tuple(digits(4), alnum(3, 3), digits(5)).map((p) => p.join(''))
      : size.overflow
        ? alnum(1, 12)
        : alnum(1, 9);
  return fc
    .record({
      documentCode: code,
      issuingState: format === 'FRENCH_ID' ? fc.constant('FRA') : state,
      surname: words(1, 2),
      givenNames: words(0, format === 'FRENCH_ID' ? 2 : 3),
      documentNumber: number,
      nationality: format === 'FRENCH_ID' ? fc.constant('') : state,
      dateOfBirth: date,
      sex: fc.constantFrom<'M' | 'F' | '<'>('M', 'F', '<'),
      dateOfExpiry: format === 'FRENCH_ID' ? fc.constant('') : date,
      optionalData1: format === 'FRENCH_ID' ? alnum(6, 6) : alnum(0, size.optional1),
      optionalData2: alnum(0, size.optional2),
    })
    .filter((t) => {
      const overflow = size.overflow && t.documentNumber.length > 9 ? t.documentNumber.length - 9 + 2 : 0;
      const names =
        format === 'FRENCH_ID'
          ? t.surname.length <= 25 && t.givenNames.replace(/ /g, '<<').length <= 14
          : t.surname.length + 2 + t.givenNames.length <= size.names;
      // A TD2 "ID" from France would be the French card's layout.
      const notFrench = !(format === 'TD2' && t.documentCode === 'ID' && t.issuingState === 'FRA');
      return names && overflow + t.optionalData1.length <= size.optional1 && notFrench;
    });
}

const FORMATS: ComposedFormat[] = ['TD1', 'TD2', 'TD3', 'MRV-A', 'MRV-B', 'FRENCH_ID'];
const documents = fc
  .constantFrom(...FORMATS)
  .chain((format) => truthFor(format).map((truth) => ({ format, truth, lines: composeMrz(format, truth) })));

/** What each field of the parse should read, for the fields the format has. */
function expectedValues(format: ComposedFormat, t: MrzTruth): Partial<Record<MrzFieldName, string>> {
  const common = {
    documentCode: t.documentCode,
    issuingState: t.issuingState,
    surname: t.surname,
    givenNames: t.givenNames,
    documentNumber: t.documentNumber,
    dateOfBirth: t.dateOfBirth,
    sex: t.sex,
  };
  if (format === 'FRENCH_ID') return { ...common, optionalData1: t.optionalData1 };
  const withDates = { ...common, nationality: t.nationality, dateOfExpiry: t.dateOfExpiry };
  if (format === 'TD3') return { ...withDates, personalNumber: t.optionalData1 };
  if (format === 'TD1') return { ...withDates, optionalData1: t.optionalData1, optionalData2: t.optionalData2 };
  return { ...withDates, optionalData1: t.optionalData1 };
}

/** The value to compare: dates by their printed text. */
function readValue(result: MrzParseResult, name: MrzFieldName): { value: string; field: MrzField } | null {
  const field = result.fields[name];
  if (!field) return null;
  const value = 'date' in field ? (field.date?.raw ?? field.raw) : field.value;
  return { value, field };
}

/** Fields read differently from the truth while claiming high confidence: what must never happen. */
function confidentlyWrong(format: ComposedFormat, truth: MrzTruth, result: MrzParseResult): string[] {
  return Object.entries(expectedValues(format, truth)).flatMap(([name, expected]) => {
    const read = readValue(result, name as MrzFieldName);
    if (!read || read.value === expected || read.field.confidence < HIGH_CONFIDENCE) return [];
    return [`${name}: ${JSON.stringify(expected)} read ${JSON.stringify(read.value)} at ${read.field.confidence}`];
  });
}

const CONFUSIONS: Record<string, string[]> = {
  O: ['0'],
  '0': ['O'],
  I: ['1'],
  '1': ['I'],
  B: ['8'],
  '8': ['B'],
  S: ['5'],
  '5': ['S'],
  Z: ['2'],
  '2': ['Z'],
  G: ['6'],
  '6': ['G'],
  '<': ['K', 'L', 'C'],
};

describe('MRZ properties (fast-check)', () => {
  it('a valid MRZ composed from random fields parses back to those fields, all check digits valid', () => {
    fc.assert(
      fc.property(documents, ({ format, truth, lines }) => {
        const result = parseMrz(lines, { referenceDate });
        assert.equal(result.format, format);
        assert.equal(result.valid, true, JSON.stringify(result.issues));
        assert.ok(result.checkDigits.every((c) => c.valid));
        for (const [name, expected] of Object.entries(expectedValues(format, truth)))
          assert.equal(readValue(result, name as MrzFieldName)?.value, expected, name);
        // repairMrz leaves a valid read as it is.
        assert.deepEqual(repairMrz(lines, { referenceDate }).changes, []);
      }),
      { seed: SEED, numRuns: 400 },
    );
  });

  it('one OCR confusion: repair restores the field or reports it below high confidence, never wrong and sure', () => {
    let restored = 0;
    let runs = 0;
    const corrupted = documents.chain((doc) => {
      const positions = doc.lines.flatMap((line, l) =>
        [...line].flatMap((c, column) => (CONFUSIONS[c] ?? []).map((to) => ({ line: l, column, to }))),
      );
      return fc.constantFrom(...positions).map((p) => ({ ...doc, corruption: p }));
    });
    fc.assert(
      fc.property(corrupted, ({ format, truth, lines, corruption }) => {
        const bad = [...lines];
        const line = bad[corruption.line]!;
        bad[corruption.line] = line.slice(0, corruption.column) + corruption.to + line.slice(corruption.column + 1);
        const result = repairMrz(bad, { referenceDate });
        assert.deepEqual(confidentlyWrong(format, truth, result), []);
        runs++;
        if (result.lines.join() === lines.join()) restored++;
      }),
      { seed: SEED, numRuns: 600 },
    );
    // Most single confusions are undone outright (the rest are ambiguous or in unchecked fields).
    assert.ok(restored / runs > 0.6, `${restored} of ${runs} restored`);
  });

  it('one character dropped or doubled: the same guarantee after the length repair', () => {
    const edited = documents.chain((doc) =>
      fc
        .record({ line: fc.integer({ min: 0, max: doc.lines.length - 1 }), column: fc.nat(), drop: fc.boolean() })
        .map((e) => ({ ...doc, edit: e })),
    );
    fc.assert(
      fc.property(edited, ({ format, truth, lines, edit }) => {
        const bad = [...lines];
        const line = bad[edit.line]!;
        const column = edit.column % line.length;
        bad[edit.line] = edit.drop
          ? line.slice(0, column) + line.slice(column + 1)
          : line.slice(0, column + 1) + line.slice(column);
        const result = repairMrz(bad, { referenceDate });
        assert.equal(result.lines[edit.line]?.length, line.length);
        assert.deepEqual(confidentlyWrong(format, truth, result), []);
      }),
      { seed: SEED, numRuns: 150 },
    );
  });
});
