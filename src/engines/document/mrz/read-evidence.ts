/**
 * What the OCR saw, as the repairs use it: a repair may change a character only where the read left
 * room for the change. A character read with a probability of at least SURE_READ, and no meaningful
 * probability for the character the repair would put there, was printed as read: a check digit that
 * fails over it is a finding, not a misread to repair.
 */

import type { MrzCharacterEvidence, MrzChange, MrzReadEvidence } from './mrz-types.js';

/** A read character at or above this probability is sure, unless the repair's character has a MEANINGFUL one. */
export const SURE_READ = 0.9;
/** An alternative at or above this probability is a reading the OCR itself held possible. */
export const MEANINGFUL_ALTERNATIVE = 0.002;

/** Whether a repair may change a character: the gate every repair asks (line and column on the current lines). */
export type RepairGate = (line: number, column: number, to: string) => boolean;

/** The gate of a read with no evidence (typed text, an OCR that gives none): every repair may act. */
export const UNGATED: RepairGate = () => true;

/**
 * Whether the OCR was unsure of a character in the way the repair needs: the character read had less
 * than SURE_READ, or the character the repair would write had at least MEANINGFUL_ALTERNATIVE.
 *
 * @example
 * unsureOf({ probability: 0.99, alternatives: [] }, '8'); // false: a sure 'B' stays a 'B'
 * unsureOf({ probability: 0.7, alternatives: [{ character: '8', probability: 0.28 }] }, '8'); // true
 */
export function unsureOf(evidence: MrzCharacterEvidence, to: string): boolean {
  if (evidence.probability < SURE_READ) return true;
  return evidence.alternatives.some((a) => a.character === to && a.probability >= MEANINGFUL_ALTERNATIVE);
}

/**
 * The repair gate of a read's evidence, per line and character of the lines being repaired. A line
 * without evidence (null, or not the length of its evidence: the columns would not line up), and a
 * character without it (inserted by the length repair), may be changed.
 *
 * @example
 * const may = repairGate(evidence, lines);
 * may(1, 16, '8'); // false where the OCR read a sure 'B' at line 2, column 17
 */
export function repairGate(evidence: MrzReadEvidence | undefined, lines: readonly string[]): RepairGate {
  if (!evidence) return UNGATED;
  return (line, column, to) => {
    const perLine = evidence[line];
    if (!perLine || perLine.length !== (lines[line] ?? '').length) return true;
    const character = perLine[column];
    return !character || unsureOf(character, to);
  };
}

/**
 * The evidence moved along with the length repair's edits (columns on the line before the repair; an
 * inserted character has none, a deleted one's is dropped), so that it lines up with the repaired lines.
 *
 * @example
 * shiftEvidence(evidence, [{ kind: 'length', line: 0, column: 3, from: 'K', to: '', … }])[0]?.length; // one less
 */
export function shiftEvidence(evidence: MrzReadEvidence, changes: readonly MrzChange[]): MrzReadEvidence {
  return evidence.map((perLine, line) => {
    const edits = changes.filter((c) => c.kind === 'length' && c.line === line);
    if (!perLine || edits.length === 0) return perLine;
    const out: (MrzCharacterEvidence | null)[] = [];
    for (let column = 0; column <= perLine.length; column++) {
      for (const e of edits) if (e.column === column && e.from === '') out.push(null);
      const deleted = edits.some((e) => e.column === column && e.to === '');
      if (column < perLine.length && !deleted) out.push(perLine[column] ?? null);
    }
    return out;
  });
}
