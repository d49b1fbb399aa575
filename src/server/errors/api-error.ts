/**
 * Errors a service raises to answer with a spec error body. `code` is the spec's integer code
 * (Doc 2/3: -1..-9 and the service-specific ones for 400s); `description` is shown to the caller,
 * so it must never hold internal details.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly statusCode: number,
    readonly code: number,
    readonly description: string,
    /** Response headers the answer needs (a 401's `WWW-Authenticate`); never secrets. */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(description);
  }
}

/** The 400 codes shared by every coded service (Doc 2 and Doc 3). */
export const ErrorCode = {
  unknown: -1,
  invalidJson: -2,
  missingField: -3,
  wrongType: -4,
  invalidBase64: -5,
  invalidValue: -6,
  /** Codes for statuses other than 400 (the spec shows only 500s; see docs/errors.md). */
  internal: 1,
} as const;

/**
 * A 400 for a value that is present and well typed but not acceptable.
 *
 * @example
 * throw invalidValue(`month must be from 1 to 12 (got 13)`);
 */
export function invalidValue(description: string): ApiError {
  return new ApiError(400, ErrorCode.invalidValue, description);
}

/**
 * A non-400 client error (403, 404, 409, 429, ...): the code is the HTTP status, see docs/errors.md.
 *
 * @example
 * throw clientError(403, 'reset is disabled: set VERIPORT_ADMIN_CONFIRM to enable it');
 */
export function clientError(statusCode: number, description: string): ApiError {
  return new ApiError(statusCode, statusCode, description);
}
