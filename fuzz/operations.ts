/**
 * The operations to fuzz, read from the app itself (its OpenAPI document, `GET /openapi.json`): a new
 * route is fuzzed without editing the fuzzer. Each carries its JSON schemas (body, path, query) and the
 * error shape its service answers with.
 */
import type { FastifyInstance } from 'fastify';
import type { ServiceDefinition } from '../src/server/service-definition.js';

/** The subset of JSON Schema the route schemas use (TypeBox output as @fastify/swagger renders it). */
export interface JsonSchema {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly anyOf?: readonly JsonSchema[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly format?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minItems?: number;
  readonly maxItems?: number;
}

/**
 * How a route answers errors: the coded body, Doc 3 C's spring body (document validation), RFC 6749's
 * `{error, error_description}` (the token endpoint's 400 and 401), or the QR triggers' answer shape with the
 * coded error beside it (`status` FAILURE, `errorSummary`, `error`; docs/onboarding.md).
 */
export type ErrorShape = 'coded' | 'spring' | 'oauth' | 'trigger';

export interface Operation {
  readonly method: 'GET' | 'POST';
  /** OpenAPI path template, `/face-matching/add/{cacheName}`. */
  readonly path: string;
  readonly pathParams: ReadonlyArray<{ readonly name: string; readonly schema: JsonSchema }>;
  readonly query: ReadonlyArray<{ readonly name: string; readonly schema: JsonSchema }>;
  /** The JSON body schema, when the route takes one. */
  readonly body?: JsonSchema;
  /** The route takes `application/x-www-form-urlencoded` (the token endpoint). */
  readonly form: boolean;
  readonly errorShape: ErrorShape;
  /** Calls need the onboarding bearer token and API key. */
  readonly authenticated: boolean;
  /** The key used in counts and case files: `POST /face-matching/add/{cacheName}`. */
  readonly key: string;
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads a schema from the OpenAPI document, keeping the members the generators use. */
export function toSchema(value: unknown): JsonSchema {
  if (!isRecord(value)) return {};
  const number = (key: string) => (typeof value[key] === 'number' ? value[key] : undefined);
  const properties = isRecord(value.properties)
    ? Object.fromEntries(Object.entries(value.properties).map(([k, v]) => [k, toSchema(v)]))
    : undefined;
  return {
    type: typeof value.type === 'string' ? value.type : undefined,
    properties,
    required: Array.isArray(value.required) ? value.required.filter((r) => typeof r === 'string') : undefined,
    items: value.items === undefined ? undefined : toSchema(value.items),
    anyOf: Array.isArray(value.anyOf) ? value.anyOf.map(toSchema) : undefined,
    enum: Array.isArray(value.enum) ? value.enum : undefined,
    const: value.const,
    format: typeof value.format === 'string' ? value.format : undefined,
    minimum: number('minimum'),
    maximum: number('maximum'),
    minLength: number('minLength'),
    maxLength: number('maxLength'),
    minItems: number('minItems'),
    maxItems: number('maxItems'),
  };
}

// Onboarding's client-initiated routes check the bearer token and the API key (docs/onboarding.md).
const AUTHENTICATED = /^\/(onboarding\/|getPublicKey$|b2c\/proxy\/|authenticate$|verifyDevice$|verifyFace$)/;
const TOKEN_ENDPOINT = /\/protocol\/openid-connect\/token$/;
const TRIGGER_ENDPOINT = /^\/b2c\/proxy\/trigger(Enroll|Authenticate)$/;

/**
 * Every GET and POST operation of the app's OpenAPI document, with the error shape of the service whose
 * prefix the path falls under.
 *
 * @example
 * const operations = listOperations(app, ALL_SERVICES);
 * operations.find((o) => o.key === 'POST /face-matching/compare');
 */
export function listOperations(app: FastifyInstance, services: readonly ServiceDefinition[]): Operation[] {
  const document: unknown = app.swagger();
  const paths = isRecord(document) && isRecord(document.paths) ? document.paths : {};
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(paths)) {
    if (!isRecord(methods)) continue;
    for (const [lower, spec] of Object.entries(methods)) {
      if (!isRecord(spec) || (lower !== 'get' && lower !== 'post')) continue;
      const method = lower === 'get' ? 'GET' : 'POST';
      const parameters = Array.isArray(spec.parameters) ? spec.parameters.filter(isRecord) : [];
      const params = (where: string) =>
        parameters
          .filter((p) => p.in === where && typeof p.name === 'string')
          .map((p) => ({ name: String(p.name), schema: toSchema(p.schema) }));
      const content = isRecord(spec.requestBody) && isRecord(spec.requestBody.content) ? spec.requestBody.content : {};
      const json = isRecord(content['application/json']) ? content['application/json'].schema : undefined;
      const service = services.find((s) => s.prefix !== '' && (path === s.prefix || path.startsWith(`${s.prefix}/`)));
      const tokenEndpoint = TOKEN_ENDPOINT.test(path);
      operations.push({
        method,
        path,
        pathParams: params('path'),
        query: params('query'),
        body: json === undefined ? undefined : toSchema(json),
        form: tokenEndpoint,
        errorShape: tokenEndpoint
          ? 'oauth'
          : TRIGGER_ENDPOINT.test(path)
            ? 'trigger'
            : service?.errorStyle === 'spring'
              ? 'spring'
              : 'coded',
        authenticated: AUTHENTICATED.test(path),
        key: `${method} ${path}`,
      });
    }
  }
  return operations.sort((a, b) => a.key.localeCompare(b.key));
}
