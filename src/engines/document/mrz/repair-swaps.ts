import { evaluateCheckDigits } from './evaluate-checks.js';
import { positionKinds, resolveMrzLayout, type LayoutCheck } from './mrz-layouts.js';
import { allowedIn, alternativesOf } from './ocr-confusions.js';
import type { MrzChange, MrzCheckName, MrzFormat, MrzSegment } from './mrz-types.js';
import { UNGATED, type RepairGate } from './read-evidence.js';

interface Swap {
  readonly line: number;
  readonly column: number;
  readonly from: string;
  readonly to: string;
  readonly lines: string[];
}

const inAny = (line: number, column: number, segments: readonly MrzSegment[]) =>
  segments.some((s) => s.line === line && column >= s.start && column < s.end);

/**
 * Every single confusion swap in the given segments that the position's type allows: any in document
 * numbers and optional data, K/L/C to `<` in names and codes (letters and digits there were already
 * forced to their type). Every position the failing check digit covers and the gate lets change (the OCR
 * was unsure there) is a suspect, so a swap is only unique when no other explanation fits as well.
 */
function swapsIn(
  lines: readonly string[],
  format: MrzFormat,
  segments: readonly MrzSegment[],
  gate: RepairGate,
): Swap[] {
  const kinds = positionKinds(resolveMrzLayout(format, lines));
  const out: Swap[] = [];
  for (const s of segments) {
    const text = lines[s.line] ?? '';
    for (let column = s.start; column < s.end; column++) {
      const kind = kinds[s.line]?.[column] ?? 'alnum';
      const from = text.charAt(column);
      for (const to of alternativesOf(from)) {
        if (!allowedIn(kind, to) || !gate(s.line, column, to)) continue;
        const swapped = [...lines];
        swapped[s.line] = text.slice(0, column) + to + text.slice(column + 1);
        out.push({ line: s.line, column, from, to, lines: swapped });
      }
    }
  }
  return out;
}

function validNames(format: MrzFormat, lines: readonly string[]): Set<MrzCheckName> {
  const layout = resolveMrzLayout(format, lines);
  return new Set(
    evaluateCheckDigits(layout, lines)
      .filter((c) => c.valid)
      .map((c) => c.name),
  );
}

/**
 * Repair 4: for a check digit that still fails, tries every single O/0, I/1, B/8, S/5, Z/2, G/6 swap (and
 * K, L, C to `<`) the types of the positions it covers allow, and makes one only when exactly one swap
 * makes it valid, the composite digit deciding between several. A failing composite whose own checks
 * all hold is tried over the positions only it covers (TD1's and TD2's optional data, the French card's
 * names and office code). Only characters the gate lets change are swapped: where the OCR was sure of
 * every character, nothing is. Anything else stays as printed and is reported invalid: a document whose
 * check digits are wrong is not "repaired" into a valid one.
 *
 * @example
 * repairUniqueSwaps(['P<UTO…', 'L8989O2C36UTO7408122F1204159ZE184226B<<<<<10'], 'TD3').lines[1].slice(0, 9);
 * // 'L898902C3'
 */
export function repairUniqueSwaps(
  lines: readonly string[],
  format: MrzFormat,
  gate: RepairGate = UNGATED,
): { lines: string[]; changes: MrzChange[] } {
  let out = [...lines];
  const changes: MrzChange[] = [];
  const apply = (swap: Swap, check: MrzCheckName, among: number) => {
    out = swap.lines;
    changes.push({
      kind: 'swap',
      line: swap.line,
      column: swap.column,
      from: swap.from,
      to: swap.to,
      reason: `the only swap${among > 1 ? ` of ${among} that also satisfies the composite` : ''} that makes the ${check} check digit valid`,
      ambiguous: false,
    });
  };

  const layout = resolveMrzLayout(format, out);
  const own: LayoutCheck[] = layout.checks.filter((c) => c.name !== 'composite');
  const hasComposite = layout.checks.some((c) => c.name === 'composite');
  for (const check of own) {
    if (validNames(format, out).has(check.name)) continue;
    const fixing = swapsIn(out, format, [...check.covers, ...(check.alternativeCovers ?? [])], gate).filter((s) =>
      validNames(format, s.lines).has(check.name),
    );
    const unique = dedupe(fixing);
    if (unique.length === 1 && unique[0]) apply(unique[0], check.name, 1);
    else if (unique.length > 1 && hasComposite) {
      const withComposite = unique.filter((s) => validNames(format, s.lines).has('composite'));
      if (withComposite.length === 1 && withComposite[0]) apply(withComposite[0], check.name, unique.length);
    }
  }

  const now = resolveMrzLayout(format, out);
  const composite = now.checks.find((c) => c.name === 'composite');
  const valid = validNames(format, out);
  if (composite && !valid.has('composite') && now.checks.every((c) => c.name === 'composite' || valid.has(c.name))) {
    const ownCovers = now.checks
      .filter((c) => c.name !== 'composite')
      .flatMap((c) => [...c.covers, ...(c.alternativeCovers ?? [])]);
    const onlyComposite = swapsIn(out, format, composite.covers, gate).filter(
      (s) => !inAny(s.line, s.column, ownCovers),
    );
    const fixing = dedupe(
      onlyComposite.filter((s) => {
        const after = validNames(format, s.lines);
        return now.checks.every((c) => after.has(c.name));
      }),
    );
    if (fixing.length === 1 && fixing[0]) apply(fixing[0], 'composite', 1);
  }
  return { lines: out, changes };
}

/** The same position swapped to the same character once, even where segments overlap. */
function dedupe(swaps: readonly Swap[]): Swap[] {
  const seen = new Set<string>();
  return swaps.filter((s) => {
    const key = `${s.line}:${s.column}:${s.to}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
