/**
 * The fields of an error the database reported (node-postgres' and PGlite's `DatabaseError`), as far
 * as the server reads them: the SQLSTATE code and the severity. Both drivers also attach the failed
 * statement and its parameter values (`query`, `params`, `detail`, `where`, ...), which must never be
 * logged or answered.
 */
export interface DatabaseErrorFields {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
}

const SQLSTATE = /^[0-9A-Z]{5}$/;

/**
 * Whether an error was reported by PostgreSQL or PGlite (a five-character SQLSTATE and a severity),
 * whichever driver raised it.
 *
 * @example
 * isDatabaseError(Object.assign(new Error('invalid byte sequence'), { code: '22021', severity: 'ERROR' })); // true
 * isDatabaseError(new Error('timeout')); // false
 */
export function isDatabaseError(error: unknown): error is Error & DatabaseErrorFields {
  if (!(error instanceof Error)) return false;
  const code = 'code' in error ? error.code : undefined;
  const severity = 'severity' in error ? error.severity : undefined;
  return typeof code === 'string' && SQLSTATE.test(code) && typeof severity === 'string';
}

/**
 * Whether the database refused a value (SQLSTATE class 22, "data exception": a NUL character, bytes
 * that are not UTF-8, a string too long for its column, a number out of range). Such a value came from
 * a request that validation let through: the answer is a 400, never a 500.
 *
 * @example
 * isDataException(Object.assign(new Error('invalid byte sequence'), { code: '22021', severity: 'ERROR' })); // true
 */
export function isDataException(error: unknown): error is Error & DatabaseErrorFields {
  return isDatabaseError(error) && error.code.startsWith('22');
}
