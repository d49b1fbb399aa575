import { STATUS_CODES } from 'node:http';
import type { ApiError } from './api-error.js';

/**
 * How a service shapes its error bodies.
 * - `coded`: `{"error":{"code":..,"description":..}}` (Doc 2, Doc 3 A/B/D, and onboarding until it decides otherwise)
 * - `spring`: `{"timestamp","status","path","error","message"}` (Doc 3 C, document validation)
 */
export type ErrorStyle = 'coded' | 'spring';

export interface CodedErrorBody {
  error: { code: number; description: string };
}

export interface SpringErrorBody {
  timestamp: string;
  status: number;
  path: string;
  error: string;
  message: string;
}

/**
 * Renders an error in the service's style.
 *
 * @example
 * errorBody('coded', new ApiError(400, -3, "missing mandatory field 'id'"), '/face-matching/delete/c');
 * // { error: { code: -3, description: "missing mandatory field 'id'" } }
 */
export function errorBody(
  style: ErrorStyle,
  error: ApiError,
  path: string,
  now = new Date(),
): CodedErrorBody | SpringErrorBody {
  if (style === 'coded') return { error: { code: error.code, description: error.description } };
  return {
    timestamp: now.toISOString(),
    status: error.statusCode,
    path,
    error: STATUS_CODES[error.statusCode] ?? 'Error',
    message: error.description,
  };
}
