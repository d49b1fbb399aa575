import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { toApiError } from '../../server/errors/to-api-error.js';
import type { TriggerError } from './session-schemas.js';

/**
 * The error handler of the trigger calls (Doc 1 endpoints 7 and 8): a refusal answers in the shape of the
 * trigger answer, `status` FAILURE with `errorSummary` saying why (the spec's fields, which a portal reads),
 * plus the `error` {code, description} every other onboarding call answers with (docs/onboarding.md, Errors).
 * Logged as the service's own handler logs (server/errors/error-handlers.ts).
 *
 * @example
 * scope.setErrorHandler(triggerErrorHandler);
 * // 409 {"status":"FAILURE","sessionCallbackURL":null,"qrcodeImage":null,"sessionToken":null,
 * //      "errorSummary":"the user is enrolled already: ...","error":{"code":409,"description":"..."}}
 */
export function triggerErrorHandler(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const apiError = toApiError(error, request.id);
  if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.info({ code: apiError.code, description: apiError.description }, 'request rejected');
  const body: TriggerError = {
    status: 'FAILURE',
    sessionCallbackURL: null,
    qrcodeImage: null,
    sessionToken: null,
    errorSummary: apiError.description,
    error: { code: apiError.code, description: apiError.description },
  };
  return reply.code(apiError.statusCode).headers(apiError.headers).type('application/json').send(body);
}
