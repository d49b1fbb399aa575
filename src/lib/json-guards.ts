/**
 * Type guards for data read from JSON (model files, calibration tables): each narrows `unknown` only
 * after checking, so loaded data is never cast unchecked.
 *
 * @example
 * const json: unknown = JSON.parse(text);
 * if (!isRecord(json) || !isFiniteNumber(json.bias)) throw new Error('malformed model');
 * json.bias; // number
 */

/** A plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A number that is neither NaN nor infinite. */
export function isFiniteNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** An array whose elements are still to be checked (Array.isArray alone narrows to any[]). */
export function isUnknownArray(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

/** An array of finite numbers, every element checked. */
export function isFiniteNumberArray(value: unknown): value is readonly number[] {
  return isUnknownArray(value) && value.every(isFiniteNumber);
}
