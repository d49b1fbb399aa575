/**
 * Which value the median of an even count is: `mean`, the mean of the two middle values (the
 * textbook median); `upper`, the upper of them (always a value of the data, and what a threshold
 * compared with measured values has been tuned on).
 */
export type EvenMedian = 'mean' | 'upper';

/**
 * The median of the values (NaN for none), sorted numerically as float64 on a copy: the input is
 * left as it is, and the caller says which middle an even count takes.
 *
 * @example
 * median([3, 1, 2], 'mean'); // 2
 * median([4, 1, 3, 2], 'mean'); // 2.5
 * median([4, 1, 3, 2], 'upper'); // 3
 * median(Float32Array.of(0.5, 0.25), 'upper'); // 0.5
 */
export function median(values: ArrayLike<number>, even: EvenMedian): number {
  const sorted = Float64Array.from(values).sort();
  const middle = sorted.length >> 1;
  const upper = sorted[middle];
  if (upper === undefined) return Number.NaN;
  if (even === 'upper' || sorted.length % 2 === 1) return upper;
  return ((sorted[middle - 1] ?? Number.NaN) + upper) / 2;
}
