import { checkWeight } from './check-digit.js';
import { forcedCharacter } from './force-character-types.js';
import {
  mrzLayout,
  positionKinds,
  resolveMrzLayout,
  type LayoutCheck,
  type MrzLayout,
  type PositionKind,
} from './mrz-layouts.js';
import type { RepairMark } from './field-confidence.js';
import type { MrzChange, MrzFormat, MrzSegment } from './mrz-types.js';
import { classifyStateCode } from './state-codes.js';

const ALPHABET = '<0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** With two characters missing, one is taken to be a filler and the other one of these. */
const SECOND_INSERTION = '<0123456789';
/** A name as ICAO writes it: components joined by `<`, at most one `<<`, then padding. */
const NAME_SHAPE = /^(?:[A-Z]+(?:<[A-Z]+)*)?(?:<<[A-Z]+(?:<[A-Z]+)*)?<*$/;
const CODE_0 = 48;
const CODE_A = 65;
const CODE_LT = 60;

interface Edit {
  /** Column on the line before the repair; an insertion goes before it. */
  readonly column: number;
  readonly from: string;
  readonly to: string;
}

type Visit = (line: string, edits: readonly Edit[]) => void;

/**
 * Visits every line one or two deletions or insertions away. Positions run from the end so that, of the
 * edits giving the same line (a filler dropped anywhere in a run), the one nearest the end comes first:
 * it moves the fewest fields.
 */
function forEachCandidate(line: string, difference: number, visit: Visit): void {
  const n = line.length;
  const del = (s: string, i: number) => s.slice(0, i) + s.slice(i + 1);
  const ins = (s: string, i: number, c: string) => s.slice(0, i) + c + s.slice(i);
  if (difference === 1)
    for (let i = n - 1; i >= 0; i--) visit(del(line, i), [{ column: i, from: line.charAt(i), to: '' }]);
  if (difference === 2)
    for (let j = n - 1; j >= 0; j--)
      for (let i = j - 1; i >= 0; i--)
        visit(del(del(line, j), i), [
          { column: i, from: line.charAt(i), to: '' },
          { column: j, from: line.charAt(j), to: '' },
        ]);
  if (difference === -1)
    for (let i = n; i >= 0; i--) for (const c of ALPHABET) visit(ins(line, i, c), [{ column: i, from: '', to: c }]);
  if (difference === -2)
    for (let j = n; j >= 0; j--)
      for (let i = j; i >= 0; i--)
        for (const c of SECOND_INSERTION) {
          visit(ins(ins(line, j, c), i, '<'), [
            { column: i, from: '', to: '<' },
            { column: j, from: '', to: c },
          ]);
          if (c !== '<')
            visit(ins(ins(line, j, '<'), i, c), [
              { column: i, from: '', to: c },
              { column: j, from: '', to: '<' },
            ]);
        }
}

/** A character code's check-digit value, 0 for anything outside the alphabet (as computeCheckDigit). */
function codeValue(code: number): number {
  if (code >= CODE_0 && code <= CODE_0 + 9) return code - CODE_0;
  if (code >= CODE_A && code <= CODE_A + 25) return code - CODE_A + 10;
  return 0;
}

/** The check digit of segments and whether they are all fillers, without building strings. */
function digitOf(segments: readonly MrzSegment[], lines: readonly string[]): { digit: number; allFillers: boolean } {
  let sum = 0;
  let k = 0;
  let allFillers = true;
  for (const s of segments) {
    const text = lines[s.line] ?? '';
    for (let c = s.start; c < s.end; c++, k++) {
      const code = text.charCodeAt(c);
      if (code !== CODE_LT) allFillers = false;
      sum += codeValue(code) * checkWeight(k);
    }
  }
  return { digit: sum % 10, allFillers };
}

/** evaluateCheck's verdict, computed for every candidate line. */
function checkHolds(check: LayoutCheck, lines: readonly string[]): boolean {
  const printed = (lines[check.digit.line] ?? '').charCodeAt(check.digit.column);
  const main = digitOf(check.covers, lines);
  if (printed === CODE_0 + main.digit) return true;
  if (check.fillerWhenEmpty && printed === CODE_LT && main.allFillers) return true;
  return check.alternativeCovers !== undefined && printed === CODE_0 + digitOf(check.alternativeCovers, lines).digit;
}

/** Two digits at `column`, or -1. */
function twoDigits(text: string, column: number): number {
  const a = text.charCodeAt(column) - CODE_0;
  const b = text.charCodeAt(column + 1) - CODE_0;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

const unknownPart = (text: string, column: number) =>
  text.charCodeAt(column) === CODE_LT && text.charCodeAt(column + 1) === CODE_LT;

/** YYMMDD with a month 1–12 and a day 1–31, or `<<` for unknown parts: enough to rank candidates. */
function dateShaped(text: string, start: number): boolean {
  if (twoDigits(text, start) < 0) return false;
  if (unknownPart(text, start + 2)) return unknownPart(text, start + 4);
  const month = twoDigits(text, start + 2);
  const day = twoDigits(text, start + 4);
  return month >= 1 && month <= 12 && (unknownPart(text, start + 4) || (day >= 1 && day <= 31));
}

function onLines(segments: readonly MrzSegment[], lines: readonly string[], length: number): boolean {
  for (const s of segments) if ((lines[s.line] ?? '').length !== length) return false;
  return true;
}

function plausibleField(name: string, text: string, start: number, end: number): boolean {
  switch (name) {
    case 'dateOfBirth':
    case 'dateOfExpiry':
      return dateShaped(text, start);
    case 'sex':
      return /^[MFX<]$/.test(text.slice(start, end));
    case 'issuingState':
    case 'nationality': {
      const status = classifyStateCode(text.slice(start, end));
      return status === 'known' || status === 'specimen';
    }
    case 'documentCode':
      return /^[A-Z][A-Z0-9<]$/.test(text.slice(start, end));
    case 'names':
      return NAME_SHAPE.test(text.slice(start, end));
    case 'surname':
    case 'givenNames': {
      const raw = text.slice(start, end);
      return /^[A-Z<]*$/.test(raw) && !/<<<+[A-Z]/.test(raw);
    }
    default:
      return false;
  }
}

/**
 * A candidate's valid check digits and its fields of a plausible shape (dates, sex, known state codes,
 * name structure). Checks and fields that involve a line still of the wrong length do not count.
 */
function score(format: MrzFormat, base: MrzLayout, lines: readonly string[]): { checks: number; plausible: number } {
  const layout = format === 'TD1' || format === 'TD2' ? resolveMrzLayout(format, lines) : base;
  const length = layout.lineLength;
  let checks = 0;
  for (const c of layout.checks)
    if (onLines(c.covers, lines, length) && (lines[c.digit.line] ?? '').length === length && checkHolds(c, lines))
      checks++;
  let plausible = 0;
  for (const f of layout.fields) {
    const [first] = f.segments;
    if (
      first &&
      onLines(f.segments, lines, length) &&
      plausibleField(f.name, lines[first.line] ?? '', first.start, first.end)
    )
      plausible++;
  }
  return { checks, plausible };
}

/** Edits in filler runs (a `<` dropped from or doubled in a run) are the usual OCR length error. */
function editCost(line: string, edit: Edit): number {
  const fillerNear =
    line.charAt(edit.column - 1) === '<' || line.charAt(edit.to === '<' ? edit.column : edit.column + 1) === '<';
  return (edit.to === '<' || edit.from === '<') && fillerNear ? 0 : 1;
}

function forceLine(line: string, kinds: readonly PositionKind[] | undefined): string {
  let forced = '';
  for (let i = 0; i < line.length; i++) forced += forcedCharacter(kinds?.[i], line.charAt(i));
  return forced;
}

/**
 * Repair 2: a line one or two characters too long or too short. Every deletion (or insertion: any
 * character for one missing, a filler plus a filler or digit for two) is tried; the candidate kept is
 * the one with the most valid check digits, then the most fields of a plausible shape (dates, sex,
 * known state codes, name structure), each judged as it would read after type forcing, then the
 * edits inside filler runs (OCR merges and splits chevrons far more often than other characters). A
 * tie beyond that is broken towards edits nearer the line's end and the change is marked ambiguous.
 * Lines are repaired one at a time, the lines with check digits first. The confidence mark of a line
 * starts at the first column that any candidate with as many valid check digits edits: before it, every
 * reading the check digits allow agrees.
 *
 * @example
 * repairLineLengths(['P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<', line2], 'TD3').lines[0].length; // 44
 */
export function repairLineLengths(
  lines: readonly string[],
  format: MrzFormat,
): { lines: string[]; changes: MrzChange[]; marks: RepairMark[] } {
  const layout = mrzLayout(format);
  const expected = layout.lineLength;
  // Candidates are judged as they would read after type forcing (repair 3), by the fixed layout's kinds.
  const kinds = positionKinds(layout);
  const out = [...lines];
  const changes: MrzChange[] = [];
  const marks: RepairMark[] = [];
  // TD1 carries its check digits on lines 0 and 1, the other formats on line 1.
  const order = out.map((_, i) => i).sort((a, b) => (format === 'TD1' ? a - b : b - a));
  for (const index of order) {
    const line = out[index] ?? '';
    const difference = line.length - expected;
    if (difference === 0 || Math.abs(difference) > 2) continue;
    const trial = out.map((l, i) => forceLine(l, kinds[i]));
    const seen = new Set<string>();
    const found: { best: { line: string; edits: readonly Edit[]; rank: number; cost: number } | null; tied: boolean } =
      {
        best: null,
        tied: false,
      };
    // Per number of valid check digits, the first column any such candidate edits: the fields before it
    // read the same in all of them, so the check digits cannot have been misled there.
    const firstEdit = new Map<number, number>();
    forEachCandidate(line, difference, (candidate, edits) => {
      // Candidates that read the same once forced (a Z or a 2 inserted into a date) are one reading.
      const forced = forceLine(candidate, kinds[index]);
      if (seen.has(forced)) return;
      seen.add(forced);
      trial[index] = forced;
      const { checks, plausible } = score(format, layout, trial);
      const rank = checks * 100 + plausible;
      const column = Math.min(...edits.map((e) => e.column));
      firstEdit.set(checks, Math.min(firstEdit.get(checks) ?? column, column));
      let cost = 0;
      for (const e of edits) cost += editCost(line, e);
      // Candidates come nearest-the-end first, so an equal one never replaces the best.
      const { best } = found;
      if (best === null || rank > best.rank || (rank === best.rank && cost < best.cost)) {
        found.best = { line: candidate, edits, rank, cost };
        found.tied = false;
      } else if (rank === best.rank && cost === best.cost) found.tied = true;
    });
    const { best: chosen, tied } = found;
    if (!chosen) continue;
    out[index] = chosen.line;
    const fromColumn = firstEdit.get(Math.floor(chosen.rank / 100)) ?? 0;
    marks.push({ kind: 'length', line: index, column: fromColumn, ambiguous: tied, from: '' });
    for (const edit of chosen.edits)
      changes.push({
        kind: 'length',
        line: index,
        column: edit.column,
        from: edit.from,
        to: edit.to,
        reason: `line ${difference > 0 ? 'longer' : 'shorter'} than ${expected} by ${Math.abs(difference)}`,
        ambiguous: tied,
      });
  }
  return { lines: out, changes, marks };
}
