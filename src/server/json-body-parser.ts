import type { FastifyBodyParser, FastifyInstance } from 'fastify';
import { MAX_JSON_DEPTH, jsonNestingExceeds } from '../lib/json-depth.js';
import { ApiError, ErrorCode } from './errors/api-error.js';

/**
 * Fastify's JSON body parser (prototype poisoning refused, any parse failure the spec's 400 -2) with
 * the nesting bounded to {@link MAX_JSON_DEPTH} before parsing: a deeper body is 400 -2 too, and never
 * built in memory.
 *
 * @example
 * scope.addContentTypeParser('text/plain', { parseAs: 'string' }, boundedJsonParser(scope));
 */
export function boundedJsonParser(scope: FastifyInstance): FastifyBodyParser<string> {
  const parse = scope.getDefaultJsonParser('error', 'error');
  return (request, body, done) => {
    if (jsonNestingExceeds(body, MAX_JSON_DEPTH)) {
      done(
        new ApiError(
          400,
          ErrorCode.invalidJson,
          `input request JSON invalid: nested deeper than ${MAX_JSON_DEPTH} levels`,
        ),
        undefined,
      );
      return;
    }
    void parse(request, body, done);
  };
}

/**
 * Parses `application/json` bodies with {@link boundedJsonParser} in this scope and its children.
 *
 * @example
 * useBoundedJsonParser(app); // before the services are mounted
 */
export function useBoundedJsonParser(app: FastifyInstance): void {
  app.addContentTypeParser('application/json', { parseAs: 'string' }, boundedJsonParser(app));
}
