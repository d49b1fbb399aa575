/**
 * `x` rounded to `digits` decimal places (half up, as `Math.round`), for figures that leave the
 * server: `Math.round(x * 10^digits) / 10^digits`, where 10^digits is exact for 0 to 22 digits.
 *
 * @example
 * roundTo(0.123456789, 4); // 0.1235
 * roundTo(2 / 3, 6); // 0.666667
 */
export function roundTo(x: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(x * scale) / scale;
}
