/** A stored column holds a value the program never writes: the database was changed outside it. */
export class StoredValueError extends Error {
  override name = 'StoredValueError';
}

/**
 * A text column read back as one of the values the program writes to it, checked rather than cast.
 *
 * @example
 * storedOneOf(ENROLLMENT_STATES, row.state, 'onboarding_enrollments.state'); // 'pending'
 * @throws {StoredValueError} for any other value
 */
export function storedOneOf<T extends string>(allowed: readonly T[], value: string, column: string): T {
  const known = allowed.find((candidate) => candidate === value);
  if (known === undefined)
    throw new StoredValueError(`${column} holds '${value}', which is none of ${allowed.join(', ')}`);
  return known;
}
