import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { isBase64 } from '../crypto/base64.js';
import { isStoredText, STORED_TEXT_FORMAT } from './schemas/stored-text.js';

// Bodies are checked as sent, so a number sent as a string is a wrong type (-4), not silently coerced.
// Path and query parameters are text by nature and are coerced to the declared type.
const common: Options = { allErrors: false, useDefaults: true, strict: false };
// JSON.parse reads a number beyond the double range (1e309) as Infinity: strictNumbers refuses it as a
// `type` error, and `verbose` keeps the value so the error model answers it as an invalid value (-6).
const bodyAjv = withFormats(new Ajv({ ...common, coerceTypes: false, strictNumbers: true, verbose: true }));
const parameterAjv = withFormats(new Ajv({ ...common, coerceTypes: true }));

function withFormats(ajv: Ajv): Ajv {
  addFormats.default(ajv, ['date-time', 'date', 'uri', 'email', 'uuid']);
  // The same check as decodeBase64, so schema and code agree; a function, linear for photos of any size.
  ajv.addFormat('base64', isBase64);
  ajv.addFormat(STORED_TEXT_FORMAT, isStoredText);
  return ajv;
}

/**
 * Fastify validator compiler: strict types for bodies, coercion for params, querystring and headers.
 *
 * @example
 * app.setValidatorCompiler(validatorCompiler);
 */
export const validatorCompiler: FastifySchemaCompiler<object> = ({ schema, httpPart }) => {
  const ajv = httpPart === 'body' ? bodyAjv : parameterAjv;
  return ajv.compile(schema) as ReturnType<FastifySchemaCompiler<object>>;
};

/** A body that failed its schema outside Fastify's own validation; the error model reads it like Fastify's. */
export class BodyValidationError extends Error {
  override name = 'BodyValidationError';
  readonly validationContext = 'body';
  constructor(readonly validation: ErrorObject[]) {
    super('body does not match its schema');
  }
}

const compiled = new WeakMap<object, ValidateFunction>();

/**
 * Checks a value against a body schema with the body rules (no coercion), for packages that arrive
 * inside another one (an opened envelope).
 *
 * @example
 * const request = checkBody<FaceLivenessRequest>(FaceLivenessRequest, decryptJsonEnvelope(body, key));
 * @throws {BodyValidationError} mapped to the spec's -3/-4/-5/-6 codes like any body error
 */
export function checkBody<T>(schema: object, value: unknown): T {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = bodyAjv.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(value)) throw new BodyValidationError(validate.errors ?? []);
  return value as T;
}
