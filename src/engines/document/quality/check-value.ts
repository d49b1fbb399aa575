/** The spec's check values (Doc 3 C) a quality measure can give; NOT_SUPPORTED is the services' to say. */
export type CheckValue = 'PASS' | 'FAIL' | 'NOT_PERFORMED';

/** One quality measure of a page: its value, the rule applied, and the result. */
export interface QualityCheck {
  readonly result: CheckValue;
  /** The measured value (unit in `unit`); null when not performed. */
  readonly value: number | null;
  readonly unit: string;
  /** The rule, readable: `>= 14`, `<= 0.02`. */
  readonly rule: string;
}

/**
 * A check from a measured value and its threshold; a null value is NOT_PERFORMED.
 *
 * @example
 * checkOf(16.5, 'px', '>=', 12); // { result: 'PASS', value: 16.5, unit: 'px', rule: '>= 12' }
 */
export function checkOf(value: number | null, unit: string, comparison: '>=' | '<=', threshold: number): QualityCheck {
  const rule = `${comparison} ${threshold}`;
  if (value === null || !Number.isFinite(value)) return { result: 'NOT_PERFORMED', value: null, unit, rule };
  const pass = comparison === '>=' ? value >= threshold : value <= threshold;
  return { result: pass ? 'PASS' : 'FAIL', value: Math.round(value * 1000) / 1000, unit, rule };
}
