/**
 * What every answer to a fuzzed request must satisfy: no 5xx, and an error body in the service's shape
 * with a code from the spec's set (docs/errors.md, docs/fuzzing.md).
 */
import type { ErrorShape } from './operations.js';

/** The answer as the oracle needs it. */
export interface Answer {
  readonly statusCode: number;
  readonly body: string;
}

/**
 * The spec's codes for a 400: the shared -1..-9 and the service-specific 100..312 of Doc 2. Every other
 * 4xx carries its HTTP status as its code (docs/errors.md, "Other statuses").
 */
export function isSpecCode(status: number, code: number): boolean {
  if (status === 400) return Number.isInteger(code) && ((code >= -9 && code <= -1) || (code >= 100 && code <= 312));
  return code === status;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const sameKeys = (value: Record<string, unknown>, keys: readonly string[]) =>
  Object.keys(value).sort().join() === [...keys].sort().join();

function shapeProblem(shape: ErrorShape, status: number, body: unknown): string | undefined {
  if (!isRecord(body)) return 'error body is not a JSON object';
  switch (shape) {
    case 'coded': {
      const { error } = body;
      if (!sameKeys(body, ['error']) || !isRecord(error) || !sameKeys(error, ['code', 'description']))
        return 'not a coded error body {error:{code,description}}';
      if (typeof error.code !== 'number' || typeof error.description !== 'string')
        return 'coded error with a code that is not a number or a description that is not a string';
      if (!isSpecCode(status, error.code)) return `code ${error.code} is not a spec code for HTTP ${status}`;
      return undefined;
    }
    case 'spring':
      if (!sameKeys(body, ['timestamp', 'status', 'path', 'error', 'message'])) return 'not a spring error body';
      if (body.status !== status) return `spring body status ${String(body.status)} differs from HTTP ${status}`;
      return typeof body.message === 'string' && typeof body.error === 'string' ? undefined : 'spring body types';
    case 'oauth':
      // The token endpoint answers its own refusals (400, 401, 415) in RFC 6749's shape; what is refused
      // before it (413, 404, a malformed request) is coded.
      if (sameKeys(body, ['error', 'error_description']))
        return typeof body.error === 'string' && typeof body.error_description === 'string'
          ? undefined
          : 'OAuth error body types';
      return shapeProblem('coded', status, body);
    case 'trigger': {
      // What is refused before the route (another method, an unparsable body there) is coded.
      if (sameKeys(body, ['error'])) return shapeProblem('coded', status, body);
      const fields = ['status', 'sessionCallbackURL', 'qrcodeImage', 'sessionToken', 'errorSummary', 'error'];
      if (!sameKeys(body, fields)) return 'not a trigger error body {status,...,errorSummary,error}';
      if (body.status !== 'FAILURE' || body.sessionToken !== null || body.sessionCallbackURL !== null)
        return 'trigger error body that is not a FAILURE without session';
      if (!isRecord(body.error) || body.errorSummary !== body.error.description)
        return 'trigger error body whose errorSummary is not its error description';
      return shapeProblem('coded', status, { error: body.error });
    }
  }
}

/**
 * Why an answer breaks the rules, or undefined when it keeps them.
 *
 * @example
 * checkAnswer('coded', { statusCode: 500, body: '...' }); // 'HTTP 500'
 */
export function checkAnswer(shape: ErrorShape, answer: Answer): string | undefined {
  const { statusCode } = answer;
  if (statusCode >= 500) return `HTTP ${statusCode}`;
  if (statusCode < 400) return statusCode >= 200 && statusCode < 300 ? undefined : `unexpected HTTP ${statusCode}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    return `HTTP ${statusCode} with a body that is not JSON`;
  }
  return shapeProblem(shape, statusCode, body);
}
