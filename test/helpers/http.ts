/**
 * Requests to an app under test (Fastify's inject: no sockets) and the checks of the coded error body
 * every service answers with (`{ error: { code, description } }`).
 */
import assert from 'node:assert/strict';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';

/**
 * POSTs `body` to `url`: an object is sent as JSON (with `application/json` unless `contentType` says
 * otherwise), a string as it is; no body sends none.
 *
 * @example
 * const response = await httpPost(app, '/face-liveness/checkLiveness', { video });
 * const raw = await httpPost(app, '/probe/echo', '{"id": "a",', 'application/json');
 */
export function httpPost(
  app: FastifyInstance,
  url: string,
  body?: string | object,
  contentType?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    payload: body,
    headers: contentType === undefined ? {} : { 'content-type': contentType },
  });
}

/**
 * GETs `url`.
 *
 * @example
 * const response = await httpGet(app, '/face-matching/version');
 */
export function httpGet(app: FastifyInstance, url: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url });
}

/** The `error` of a coded error body. */
export interface CodedError {
  readonly code: number;
  readonly description: string;
}

/**
 * The coded error a response carries, checked to be one.
 *
 * @example
 * assert.equal(codedError(response).code, -6);
 */
export function codedError(response: LightMyRequestResponse): CodedError {
  const body: unknown = response.json();
  assert.ok(typeof body === 'object' && body !== null && 'error' in body, `not a coded error: ${response.body}`);
  const { error } = body;
  assert.ok(typeof error === 'object' && error !== null, `not a coded error: ${response.body}`);
  const code = 'code' in error ? error.code : undefined;
  const description = 'description' in error ? error.description : undefined;
  assert.ok(typeof code === 'number' && typeof description === 'string', `not a coded error: ${response.body}`);
  return { code, description };
}

/**
 * Asserts a coded error response: its HTTP status, its code and, when given, what its description
 * says.
 *
 * @example
 * assertCodedError(await post('/compare', {}), 400, -3, /probe/);
 */
export function assertCodedError(
  response: LightMyRequestResponse,
  status: number,
  code: number,
  description?: RegExp,
): void {
  assert.equal(response.statusCode, status, response.body);
  const error = codedError(response);
  assert.equal(error.code, code, error.description);
  if (description) assert.match(error.description, description);
}
