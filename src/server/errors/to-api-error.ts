import type { FastifyError } from 'fastify';
import { InvalidBase64Error } from '../../crypto/base64.js';
import { EnvelopeError } from '../../crypto/envelope.js';
import { LivenessInputError } from '../../engines/liveness/liveness-input-error.js';
import { FusionInputError } from '../../engines/scoring/fusion-input-error.js';
import { isDataException } from '../../store/database-error.js';
import { STORED_TEXT_FORMAT, STORED_TEXT_RULE } from '../schemas/stored-text.js';
import { ApiError, ErrorCode, clientError, invalidValue } from './api-error.js';
import { RequestImageError } from './request-image-error.js';

/** The part of an Ajv error object the mapping reads. */
interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string | undefined;
  /** The value refused (the body validator is verbose): tells a number out of range from a wrong type. */
  data?: unknown;
}

type ValidationContext = 'body' | 'params' | 'querystring' | 'headers';

/**
 * The one place that turns anything thrown while serving a request into an {@link ApiError}:
 * schema-validation failures, body-parser failures, domain errors, and unexpected errors (a 500
 * whose description names only the request id, never the cause).
 *
 * @example
 * const apiError = toApiError(error, request.id);
 * reply.code(apiError.statusCode).send(errorBody(style, apiError, request.url));
 */
export function toApiError(error: unknown, requestId: string): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof InvalidBase64Error) return new ApiError(400, ErrorCode.invalidBase64, error.message);
  if (error instanceof LivenessInputError) return new ApiError(400, error.code, error.message);
  if (error instanceof RequestImageError) return invalidValue(error.message);
  if (error instanceof FusionInputError) return invalidValue(error.message);
  // A value that validation let through and the database refused: the request's fault, so a 400, never a 500.
  if (isDataException(error)) return invalidValue(`a value in the request cannot be stored (SQLSTATE ${error.code})`);
  if (error instanceof EnvelopeError) {
    const code = error.failure === 'not-json' ? ErrorCode.invalidJson : ErrorCode.invalidValue;
    return new ApiError(400, code, `encrypted package rejected: ${error.message}`);
  }
  const fastifyError = error as Partial<FastifyError> & {
    validation?: ValidationIssue[];
    validationContext?: ValidationContext;
  };
  if (Array.isArray(fastifyError.validation) && fastifyError.validation[0] !== undefined) {
    return fromValidation(fastifyError.validation[0], fastifyError.validationContext ?? 'body');
  }
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, ErrorCode.invalidJson, 'input request JSON invalid: the body is not valid JSON');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, ErrorCode.invalidJson, 'input request JSON invalid: the body is empty');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return clientError(413, 'request body is larger than the configured limit (VERIPORT_BODY_LIMIT)');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return clientError(415, 'unsupported Content-Type: send JSON (application/json)');
    default:
      break;
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    // Fastify's own client errors (bad content length, aborted body, ...) carry safe messages.
    return status === 400
      ? new ApiError(400, ErrorCode.unknown, fastifyError.message ?? 'invalid request')
      : clientError(status, fastifyError.message ?? 'request refused');
  }
  return new ApiError(500, ErrorCode.internal, `internal error (request ${requestId})`);
}

function fromValidation(issue: ValidationIssue, context: ValidationContext): ApiError {
  const where = fieldPath(issue.instancePath);
  switch (issue.keyword) {
    case 'required': {
      const { missingProperty } = issue.params;
      const missing = typeof missingProperty === 'string' ? missingProperty : '';
      const field = where === '' ? missing : `${where}.${missing}`;
      return new ApiError(400, ErrorCode.missingField, `mandatory field missing: '${field}'`);
    }
    case 'type':
      // 1e309 is a JSON number that JSON.parse reads as Infinity: well typed, out of range.
      if (typeof issue.data === 'number' && !Number.isFinite(issue.data)) {
        return invalidValue(`field '${where}' is out of range: a number must be finite (below 1.8e308 in magnitude)`);
      }
      if (where === '' && context === 'body') {
        return new ApiError(400, ErrorCode.wrongType, `the request body must be a JSON ${String(issue.params.type)}`);
      }
      return new ApiError(
        400,
        ErrorCode.wrongType,
        `field '${where}' has the wrong type: must be ${String(issue.params.type)}`,
      );
    case 'format':
      if (issue.params.format === 'base64') {
        return new ApiError(400, ErrorCode.invalidBase64, `field '${where}' is not a valid base64 string`);
      }
      if (issue.params.format === STORED_TEXT_FORMAT) return invalidValue(`field '${where}' ${STORED_TEXT_RULE}`);
      return new ApiError(
        400,
        ErrorCode.invalidValue,
        `field '${where}' must be a valid ${String(issue.params.format)}`,
      );
    default:
      return new ApiError(
        400,
        ErrorCode.invalidValue,
        `field '${where || context}' has an invalid value: ${issue.message ?? issue.keyword}`,
      );
  }
}

/** A JSON pointer such as `/frames/0/data` becomes `frames[0].data`. */
function fieldPath(instancePath: string): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  return parts.reduce(
    (acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc === '' ? part : `${acc}.${part}`),
    '',
  );
}
