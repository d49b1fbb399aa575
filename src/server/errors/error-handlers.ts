import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { errorBody, type ErrorStyle } from './error-body.js';
import { toApiError } from './to-api-error.js';

/**
 * Error handler rendering every error in one style; 500s are logged with their cause, which never
 * reaches the body. The app sets it for errors outside any service, each service scope for its own.
 *
 * @example
 * app.setErrorHandler(errorHandler('coded'));
 */
export function errorHandler(style: ErrorStyle) {
  return function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
    const apiError = toApiError(error, request.id);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: apiError.code, description: apiError.description }, 'request rejected');
    return reply
      .code(apiError.statusCode)
      .headers(apiError.headers)
      .type('application/json')
      .send(errorBody(style, apiError, pathOf(request)));
  };
}

/**
 * Not-found handler in one style: a 404 naming the method and path asked for.
 *
 * @example
 * scope.setNotFoundHandler(notFoundHandler('spring'));
 */
export function notFoundHandler(style: ErrorStyle) {
  return function handleNotFound(request: FastifyRequest, reply: FastifyReply) {
    const apiError = new ApiError(404, 404, `no such endpoint: ${request.method} ${pathOf(request)}`);
    return reply
      .code(404)
      .type('application/json')
      .send(errorBody(style, apiError, pathOf(request)));
  };
}

/** The request's path without its query string. */
function pathOf(request: FastifyRequest): string {
  return request.url.split('?')[0] ?? '';
}
