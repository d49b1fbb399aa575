import { evaluateCheckDigits } from './evaluate-checks.js';
import { mrzLayout, resolveMrzLayout, type LayoutField } from './mrz-layouts.js';
import { FILLER_MISREADS } from './ocr-confusions.js';
import type { MrzChange, MrzFormat } from './mrz-types.js';
import { UNGATED, type RepairGate } from './read-evidence.js';

const isName = (f: LayoutField) => f.name === 'names' || f.name === 'surname' || f.name === 'givenNames';

function fillerRunLeft(text: string, column: number, start: number): number {
  let n = 0;
  while (column - n - 1 >= start && text.charAt(column - n - 1) === '<') n++;
  return n;
}

function fillerRunRight(text: string, column: number, end: number): number {
  let n = 0;
  while (column + n + 1 < end && text.charAt(column + n + 1) === '<') n++;
  return n;
}

/**
 * Whether the K, L or C at `column` stands where only a filler can: inside a filler run of its field.
 * Outside names: two fillers before it and one after (or the field's end); after a single filler it may
 * be data (`A0<K`: a long number's tail, then optional data K). In a name a single
 * letter after `<` or `<<` can be a name (`LEE<K`, `SMITH<<K`), so it takes three fillers before it, or two
 * once the name has had its `<<` (a second `<<` cannot start another identifier).
 */
function standsForFiller(text: string, column: number, start: number, end: number, name: boolean): boolean {
  if (!FILLER_MISREADS.has(text.charAt(column))) return false;
  const left = fillerRunLeft(text, column, start);
  const next = text.charAt(column + 1);
  const afterNext = text.charAt(column + 2);
  // A second misread right after this one still closes the run: `<<KK<<`.
  const rightOk =
    column + 1 >= end ||
    fillerRunRight(text, column, end) >= 1 ||
    (FILLER_MISREADS.has(next) && (column + 2 >= end || afterNext === '<'));
  if (name) return rightOk && (left >= 3 || (left >= 2 && text.slice(start, column - left).includes('<<')));
  return left >= 2 && rightOk;
}

/**
 * Repair 1: a K, L or C inside a run of fillers is a misread `<` (the chevron gains a stroke). Lines of
 * the wrong length are skipped (repairMrz runs this again once their length is repaired). A change that
 * would break a check digit that held is not made, nor one the gate refuses (a letter the OCR was sure of).
 *
 * @example
 * repairFillerMisreads(['P<UTOERIKSSON<<ANNA<MARIA<<<<K<<<<<<<<<<<<<<', line2], 'TD3').lines[0];
 * // 'P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<'
 */
export function repairFillerMisreads(
  lines: readonly string[],
  format: MrzFormat,
  gate: RepairGate = UNGATED,
): { lines: string[]; changes: MrzChange[] } {
  const layout = mrzLayout(format);
  const exact = lines.length === layout.lineCount && lines.every((l) => l.length === layout.lineLength);
  const out = [...lines];
  const changes: MrzChange[] = [];
  for (let pass = 0; pass < 3; pass++) {
    let changed = false;
    for (const f of layout.fields) {
      for (const s of f.segments) {
        const text = out[s.line] ?? '';
        if (text.length !== layout.lineLength) continue;
        for (let column = s.start; column < s.end; column++) {
          if (!standsForFiller(out[s.line] ?? '', column, s.start, s.end, isName(f))) continue;
          if (!gate(s.line, column, '<')) continue;
          const before = out[s.line] ?? '';
          const candidate = [...out];
          candidate[s.line] = `${before.slice(0, column)}<${before.slice(column + 1)}`;
          if (exact && breaksACheck(format, out, candidate)) continue;
          changes.push({
            kind: 'filler',
            line: s.line,
            column,
            from: before.charAt(column),
            to: '<',
            reason: 'letter inside a run of fillers',
            ambiguous: false,
          });
          out[s.line] = candidate[s.line] ?? before;
          changed = true;
        }
      }
    }
    if (!changed) break;
  }
  return { lines: out, changes };
}

function breaksACheck(format: MrzFormat, before: readonly string[], after: readonly string[]): boolean {
  const held = evaluateCheckDigits(resolveMrzLayout(format, before), before);
  const now = evaluateCheckDigits(resolveMrzLayout(format, after), after);
  return held.some((c, i) => c.valid && now[i]?.valid === false);
}
