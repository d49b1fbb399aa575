import { detectMrzFormat } from './detect-format.js';
import type { RepairMark } from './field-confidence.js';
import { forceCharacterTypes } from './force-character-types.js';
import { lenientMrzLines } from './mrz-lines.js';
import type { MrzChange, MrzOptions, MrzReadEvidence, MrzRepairResult } from './mrz-types.js';
import { repairGate, shiftEvidence } from './read-evidence.js';
import { readMrzFields } from './read-fields.js';
import { repairFillerMisreads } from './repair-fillers.js';
import { repairLineLengths } from './repair-length.js';
import { repairUniqueSwaps } from './repair-swaps.js';

/**
 * Character repairs as confidence marks. They are made on lines of their final length (repair 1 skips
 * lines of the wrong length until repair 2 has fixed them), so their columns hold; length repairs bring
 * their own marks.
 */
function marksOf(changes: readonly MrzChange[]): RepairMark[] {
  return changes
    .filter((c) => c.kind !== 'normalize' && c.kind !== 'length')
    .map((c) => ({ kind: c.kind, line: c.line, column: c.column, ambiguous: c.ambiguous, from: c.from }));
}

/**
 * Reads an MRZ as an OCR gave it, repairing what OCR typically gets wrong, in this order, and reporting
 * every change (position, from, to, reason):
 * 1. a K, L or C inside a run of fillers is a filler (repair-fillers.ts);
 * 2. a line 1–2 characters too long or short: the deletion or insertion with the most valid check
 *    digits (repair-length.ts);
 * 3. each character forced to its position's type: digits in dates and check digits, letters in names
 *    and codes (force-character-types.ts);
 * 4. an O/0 I/1 B/8 S/5 Z/2 G/6 swap in a number or optional data, only when it is the only one that
 *    makes a failing check digit valid (repair-swaps.ts).
 * With the OCR's evidence (`options.evidence`), repairs 1, 3 and 4 change only characters the OCR was
 * unsure of (read-evidence.ts): a string read sure, character by character, is parsed as printed.
 * Check digits that no such repair satisfies stay invalid, with CHECK_DIGIT_MISMATCH issues: a printed
 * check digit that is wrong is a finding, never repaired away. A valid check digit is no proof of a
 * right read (G/6 and K/`<` weigh the same; repairs spend the check digit's evidence), so every field
 * carries a confidence that says how much of it was verified (field-confidence.ts).
 *
 * @example
 * const mrz = repairMrz([
 *   'P<UT0ERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<',
 *   'L898902C36UTO740812ZF1204159ZE184226B<<<<<10',
 * ]);
 * mrz.valid; // true
 * mrz.changes.map((c) => `${c.from}→${c.to}`); // ['0→O', 'Z→2']
 * @throws {MrzInputError} for lines of no known format even 2 characters off
 */
export function repairMrz(input: string | readonly string[], options: MrzOptions = {}): MrzRepairResult {
  const referenceDate = options.referenceDate ?? new Date();
  const normalized = lenientMrzLines(input);
  const format = detectMrzFormat(normalized.lines, 2);
  const evidence = options.evidence && evidenceOfLines(input, options.evidence);
  const fillers = repairFillerMisreads(normalized.lines, format, repairGate(evidence, normalized.lines));
  const lengths = repairLineLengths(fillers.lines, format);
  // From here on the columns are those of the repaired lengths; the evidence moves with them.
  const gate = repairGate(evidence && shiftEvidence(evidence, lengths.changes), lengths.lines);
  const fillersAfterLength = repairFillerMisreads(lengths.lines, format, gate);
  const types = forceCharacterTypes(fillersAfterLength.lines, format, gate);
  const swaps = repairUniqueSwaps(types.lines, format, gate);
  const changes = [
    ...normalized.changes,
    ...fillers.changes,
    ...lengths.changes,
    ...fillersAfterLength.changes,
    ...types.changes,
    ...swaps.changes,
  ];
  const result = readMrzFields(format, swaps.lines, referenceDate, [...lengths.marks, ...marksOf(changes)]);
  return { ...result, input: typeof input === 'string' ? input.split(/\r?\n/) : [...input], changes };
}

/** The evidence of the lines repairMrz keeps (empty lines are dropped, as lenientMrzLines drops them). */
function evidenceOfLines(input: string | readonly string[], evidence: MrzReadEvidence): MrzReadEvidence {
  const parts = typeof input === 'string' ? input.split(/\r?\n/) : input;
  return parts.flatMap((part, i) => (part.trim().length > 0 ? [evidence[i] ?? null] : []));
}
