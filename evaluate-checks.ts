import { computeCheckDigit } from './check-digit.js';
import type { LayoutCheck, MrzLayout } from './mrz-layouts.js';
import type { MrzCheckDigit, MrzSegment } from './mrz-types.js';

/** The characters of segments, in order. */
export function segmentText(lines: readonly string[], segments: readonly MrzSegment[]): string {
  return segments.map((s) => (lines[s.line] ?? '').slice(s.start, s.end)).join('');
}

/**
 * One check digit as read: the digit its characters give against the character printed. `<` passes
 * only where the layout allows it and everything covered is fillers; a long document number passes on
 * either of its two readings.
 *
 * @example
 * evaluateCheck(mrzLayout('TD3').checks[0], ['…', 'L898902C36UTO…']).valid; // true
 */
export function evaluateCheck(check: LayoutCheck, lines: readonly string[]): MrzCheckDigit {
  const covered = segmentText(lines, check.covers);
  const printed = (lines[check.digit.line] ?? '').charAt(check.digit.column);
  const expected = computeCheckDigit(covered);
  const emptyField = check.fillerWhenEmpty && printed === '<' && /^<*$/.test(covered);
  const alternativeExpected = check.alternativeCovers
    ? computeCheckDigit(segmentText(lines, check.alternativeCovers))
    : null;
  if (printed === String(alternativeExpected) && printed !== String(expected))
    return { name: check.name, position: check.digit, printed, expected: alternativeExpected ?? expected, valid: true };
  return {
    name: check.name,
    position: check.digit,
    printed,
    expected,
    valid: printed === String(expected) || emptyField,
  };
}

/**
 * Every check digit of the layout, in layout order.
 *
 * @example
 * evaluateCheckDigits(layout, lines).every((c) => c.valid);
 */
export function evaluateCheckDigits(layout: MrzLayout, lines: readonly string[]): MrzCheckDigit[] {
  return layout.checks.map((c) => evaluateCheck(c, lines));
}
