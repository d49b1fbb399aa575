/**
 * fast-check generators of malformed requests for one operation: bodies built from the route's schema
 * and then mutated (wrong types, missing and extra fields, huge, negative and non-finite numbers, long
 * strings, control characters, bad base64, bad images), random JSON, broken JSON text, deep nesting,
 * wrong content types, hostile path parameters and, for onboarding, every kind of missing or wrong
 * credential. A request is plain JSON, so a failing one is written to a file and replayed as it is.
 */
import fc from 'fast-check';
import type { KeyObject } from 'node:crypto';
import { encryptEnvelope } from '../src/client/envelope.js';
import { isEnvelopePurpose, type EnvelopePurpose } from '../src/lib/envelope-purpose.js';
import type { JsonSchema, Operation } from './operations.js';
import { IMAGE, SEALED_IMAGE, SEEDS } from './seeds.js';

export type FuzzMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'OPTIONS';

/**
 * Stand-ins for what only the running app knows (its credentials, its envelope keys): requests are
 * generated and stored with these, and {@link materialize} puts the real values in just before sending,
 * so a stored case replays against a fresh app.
 */
export const PLACEHOLDER = {
  bearer: 'FUZZ_BEARER',
  alteredBearer: 'FUZZ_ALTERED_BEARER',
  apiKey: 'FUZZ_API_KEY',
  otherApiKey: 'FUZZ_OTHER_API_KEY',
  clientId: 'FUZZ_CLIENT_ID',
  clientSecret: 'FUZZ_CLIENT_SECRET',
  /** A pending enrollment's token (device added), fresh for each request: addFace reaches the frames. */
  enrollmentToken: 'FUZZ_ENROLLMENT_TOKEN',
  /** The enrolled user's registration code and device id (authenticate). */
  registrationCode: 'FUZZ_REGISTRATION_CODE',
  deviceId: 'FUZZ_DEVICE_ID',
  /** A started authentication's token, fresh for each request, and the device's signature of it (verifyDevice). */
  startedAuthToken: 'FUZZ_STARTED_AUTH_TOKEN',
  deviceSignature: 'FUZZ_DEVICE_SIGNATURE',
  /** A device-verified authentication's token, fresh for each request: verifyFace reaches the frames. */
  authToken: 'FUZZ_AUTH_TOKEN',
} as const;

/**
 * `FUZZ_SEALED_FRAME:<base64>` in a JSON string: an onboarding frame, replaced at send time by the JSON
 * text of an envelope sealing those bytes with the onboarding frame key (`/getPublicKey`).
 */
export const SEALED_FRAME = 'FUZZ_SEALED_FRAME:';
const SEALED_FRAME_PATTERN = /FUZZ_SEALED_FRAME:([A-Za-z0-9+/=]*)/g;

/** The placeholders standing for per-request onboarding state, minted by the target only when used. */
export const FRESH_STATE = [
  PLACEHOLDER.enrollmentToken,
  PLACEHOLDER.startedAuthToken,
  PLACEHOLDER.deviceSignature,
  PLACEHOLDER.authToken,
] as const;

/** A request as generated and stored: `seal`, when set, is a body to send sealed in an envelope. */
export interface FuzzRequest {
  readonly method: FuzzMethod;
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly payload?: string;
  /** The plaintext of an envelope `{key, iv, p}` sealed at send time for the route's service ({@link materialize}). */
  readonly seal?: string;
}

/** What the generators need beyond the operation. */
export interface FuzzContext {
  /** The customer whose credentials the placeholders stand for (its realm is `<customer>-consumers`). */
  readonly customer: string;
  /** Images put into base64 fields, by name. */
  readonly images: Readonly<Record<string, Buffer>>;
  /** The body schema of an `*Encrypted` route's plain sibling, by the encrypted route's key. */
  readonly innerBodies: ReadonlyMap<string, JsonSchema>;
}

/** The real values behind the placeholders, known once the app runs. */
export interface Secrets {
  readonly bearer: string;
  readonly apiKey: string;
  readonly otherApiKey: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The public key of each envelope purpose (face liveness's, face analysis's, ...). */
  readonly envelopeKey: (purpose: EnvelopePurpose) => KeyObject;
  /** The onboarding frame key (`/getPublicKey`), PEM. */
  readonly frameKey: string;
  /** Real values of the other placeholders (onboarding state), by placeholder. */
  readonly state: Readonly<Record<string, string>>;
}

/**
 * The request to send: placeholders replaced by the app's credentials, `seal` sealed with its key.
 *
 * @example
 * await app.inject(materialize(request, secrets));
 */
export function materialize(request: FuzzRequest, secrets: Secrets): Omit<FuzzRequest, 'seal'> {
  const values: Record<string, string> = {
    [PLACEHOLDER.alteredBearer]: `${secrets.bearer.slice(0, -4)}AAAA`,
    [PLACEHOLDER.otherApiKey]: secrets.otherApiKey,
    [PLACEHOLDER.bearer]: secrets.bearer,
    [PLACEHOLDER.apiKey]: secrets.apiKey,
    [PLACEHOLDER.clientId]: secrets.clientId,
    [PLACEHOLDER.clientSecret]: secrets.clientSecret,
    ...secrets.state,
  };
  // A sealed frame's envelope goes into a JSON string, hence its JSON text escaped once more.
  const sealFrame = (_match: string, base64: string) =>
    JSON.stringify(
      JSON.stringify(encryptEnvelope(Buffer.from(base64, 'base64'), secrets.frameKey, 'onboarding')),
    ).slice(1, -1);
  const fill = (text: string) =>
    text.replace(SEALED_FRAME_PATTERN, sealFrame).replace(/FUZZ_[A-Z_]+/g, (name) => values[name] ?? name);
  const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, fill(v)]));
  const payload =
    request.seal !== undefined
      ? toJsonText(sealFor(request.url, request.seal, secrets))
      : request.payload === undefined
        ? undefined
        : fill(request.payload);
  return { method: request.method, url: request.url, headers, ...(payload === undefined ? {} : { payload }) };
}

/**
 * `seal` sealed as a client of the route's service would: for the purpose named by the path's first segment
 * (`/face-liveness/...`), under that purpose's key; a path naming none gets onboarding's (and is refused).
 */
function sealFor(url: string, seal: string, secrets: Secrets): ReturnType<typeof encryptEnvelope> {
  const segment = url.split('/')[1] ?? '';
  const purpose: EnvelopePurpose = isEnvelopePurpose(segment) ? segment : 'onboarding';
  return encryptEnvelope(seal, secrets.envelopeKey(purpose), purpose);
}

// Tokens JSON.stringify cannot write (1e309 reads as Infinity): a marker string replaced after stringify.
const RAW = '§RAW§';
const raw = (token: string) => `${RAW}${token}§`;
const RAW_PATTERN = /"§RAW§([^§"]*)§"/g;

/** JSON text of a generated value, with the raw number tokens put in place. */
export function toJsonText(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(RAW_PATTERN, '$1');
}

const specialNumber: fc.Arbitrary<unknown> = fc.constantFrom(
  raw('1e309'),
  raw('-1e309'),
  raw('1e-400'),
  raw('123456789012345678901234567890'),
  raw('-0'),
  0,
  -1,
  1e308,
  -1e308,
  2 ** 53 + 2,
  2 ** 31,
  -(2 ** 31),
  0.5,
  Number.MIN_VALUE,
);

const nastyString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\n\r\t',
    '\u001b[31m',
    '\u202e',
    '\ud800',
    '\ufeff',
    '../../etc/passwd',
    '%00',
    "' OR 1=1 --",
    '<script>alert(1)</script>',
    'null',
    'NaN',
    '1e309',
    '€'.repeat(5000),
  ),
  fc.integer({ min: 1, max: 20 }).map((k) => 'a'.repeat(k * 5000)),
);

const badBase64: fc.Arbitrary<string> = fc.constantFrom(
  'ab$c',
  '====',
  'A',
  'AB=C',
  'Zm9v\n',
  'data:image/png;base64,iVBORw0KGgo=',
  '-_-_',
  ' ',
  '%%%%',
);

const randomBase64: fc.Arbitrary<string> = fc
  .uint8Array({ maxLength: 300 })
  .map((bytes) => Buffer.from(bytes).toString('base64'));

const nasty: fc.Arbitrary<unknown> = fc.oneof(
  specialNumber,
  nastyString,
  badBase64,
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(null, true, false, [], {}, [[[]]], [null]),
  fc.double(),
  fc.integer(),
);

function imageField(context: FuzzContext): fc.Arbitrary<string> {
  const images = Object.values(context.images).map((image) => image.toString('base64'));
  return fc.oneof(
    { arbitrary: fc.constantFrom(...images), weight: 4 },
    { arbitrary: randomBase64, weight: 1 },
    { arbitrary: badBase64, weight: 1 },
  );
}

function numberIn(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? -1000;
  const max = Math.max(min, schema.maximum ?? 1000);
  return integer
    ? fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/** A value the schema accepts (mostly: leaves are mutated by {@link fuzzValue} below them). */
function schemaValue(schema: JsonSchema, context: FuzzContext, depth: number): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum !== undefined && schema.enum.length > 0) return fc.constantFrom(...schema.enum);
  if (schema.anyOf !== undefined && schema.anyOf.length > 0)
    return fc.oneof(...schema.anyOf.map((s) => schemaValue(s, context, depth)));
  switch (schema.type) {
    case 'object':
      return objectValue(schema, context, depth);
    case 'array': {
      const minLength = Math.min(schema.minItems ?? 0, 4);
      const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 4));
      return fc.array(fuzzValue(schema.items ?? {}, context, depth + 1), { minLength, maxLength });
    }
    case 'string':
      if (schema.format === 'base64') return imageField(context);
      return fc.string({
        minLength: Math.min(schema.minLength ?? 0, 40),
        maxLength: Math.max(Math.min(schema.minLength ?? 0, 40), Math.min(schema.maxLength ?? 24, 40)),
      });
    case 'integer':
      return numberIn(schema, true);
    case 'number':
      return numberIn(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** `arbitrary` one time in `one`, else null. */
function rarely<T>(arbitrary: fc.Arbitrary<T>, one: number): fc.Arbitrary<T | null> {
  return fc.oneof({ arbitrary: fc.constant(null), weight: one - 1 }, { arbitrary, weight: 1 });
}

/** An object of the schema's properties, sometimes without a required one, sometimes with extra ones. */
function objectValue(schema: JsonSchema, context: FuzzContext, depth: number): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {};
  const keys = Object.keys(properties);
  if (depth > 6 || keys.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), nasty, { maxKeys: 2 });
  const required = (schema.required ?? []).filter((key) => key in properties);
  const record = fc.record(
    Object.fromEntries(keys.map((key) => [key, fuzzValue(properties[key] ?? {}, context, depth + 1)])),
    { requiredKeys: required },
  );
  const dropped = required.length === 0 ? fc.constant(null) : rarely(fc.constantFrom(...required), 6);
  const extra = rarely(fc.dictionary(fc.string({ maxLength: 8 }), nasty, { minKeys: 1, maxKeys: 2 }), 6);
  return fc.tuple(record, dropped, extra).map(([value, drop, more]) => {
    const copy: Record<string, unknown> = { ...more, ...value };
    if (drop !== null) Reflect.deleteProperty(copy, drop);
    return copy;
  });
}

/** A schema value, or (one time in ten) a hostile value of any type in its place. */
function fuzzValue(schema: JsonSchema, context: FuzzContext, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof({ arbitrary: schemaValue(schema, context, depth), weight: 9 }, { arbitrary: nasty, weight: 1 });
}

const brokenJson: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '{',
    '}',
    'null',
    '[]',
    '"text"',
    '1e309',
    '{"a":1,"a":2}',
    '\ufeff{}',
    '{"__proto__":{"polluted":1}}',
    '{"constructor":{"prototype":{"polluted":1}}}',
    "{'single':'quotes'}",
    '{"a":NaN}',
    '{"a":Infinity}',
    '{"a":1}{"b":2}',
    '[1,]',
  ),
  fc.integer({ min: 1, max: 200 }).map((k) => `${'['.repeat(k * 500)}${']'.repeat(k * 500)}`),
  fc.integer({ min: 1, max: 50 }).map((k) => `${'{"a":'.repeat(k * 100)}1${'}'.repeat(k * 100)}`),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.integer({ min: 1, max: 10 }).map((k) => 'x'.repeat(k * 50_000)),
);

type Path = ReadonlyArray<string | number>;

/** Every path into a JSON value, the root included. */
function pathsOf(value: unknown, at: Path = []): Path[] {
  const inner = Array.isArray(value)
    ? value.flatMap((item, i) => pathsOf(item, [...at, i]))
    : typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([key, item]) => pathsOf(item, [...at, key]))
      : [];
  return [at, ...inner];
}

type Mutation = { readonly set: unknown } | { readonly remove: true };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of `value` with `IMAGE` and `SEALED_IMAGE` markers replaced in order by `images` (the latter as
 * frames to seal at send time), then the mutations applied.
 */
function mutated(value: unknown, images: readonly string[], mutations: ReadonlyArray<[number, Mutation]>): unknown {
  let next = 0;
  const copy: unknown = JSON.parse(JSON.stringify(value), (_key, item: unknown) =>
    item === IMAGE ? (images[next++] ?? '') : item === SEALED_IMAGE ? `${SEALED_FRAME}${images[next++] ?? ''}` : item,
  );
  const paths = pathsOf(copy);
  let root = copy;
  for (const [index, mutation] of mutations) {
    const path = paths[index % paths.length] ?? [];
    const last = path.at(-1);
    if (last === undefined) {
      if ('set' in mutation) root = mutation.set;
      continue;
    }
    let parent: unknown = root;
    for (const key of path.slice(0, -1))
      parent = Array.isArray(parent) ? parent[Number(key)] : isRecord(parent) ? parent[String(key)] : undefined;
    if (Array.isArray(parent)) {
      if ('set' in mutation) parent[Number(last)] = mutation.set;
      else parent.splice(Number(last), 1);
    } else if (isRecord(parent)) {
      if ('set' in mutation) parent[String(last)] = mutation.set;
      else Reflect.deleteProperty(parent, String(last));
    }
  }
  return root;
}

/** A seed body (./seeds.ts) with bad images in its image fields and up to two values replaced or removed. */
function seedValue(seed: unknown, context: FuzzContext): fc.Arbitrary<unknown> {
  const text = JSON.stringify(seed);
  const imageCount = text.split(IMAGE).length + text.split(SEALED_IMAGE).length - 2;
  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    { arbitrary: nasty.map((set) => ({ set })), weight: 3 },
    { arbitrary: fc.constant({ remove: true as const }), weight: 1 },
  );
  return fc
    .tuple(
      fc.array(imageField(context), { minLength: imageCount, maxLength: imageCount }),
      fc.array(fc.tuple(fc.nat(), mutation), { maxLength: 2 }),
    )
    .map(([images, mutations]) => mutated(seed, images, mutations));
}

/** A JSON body for a schema: mostly schema-driven and mutated, else random JSON, cut JSON or broken text. */
function jsonBody(schema: JsonSchema, context: FuzzContext, seed?: unknown): fc.Arbitrary<string> {
  const fromSchema = schemaValue(schema, context, 0);
  const value = (seed === undefined ? fromSchema : fc.oneof(fromSchema, seedValue(seed, context))).map(toJsonText);

  return fc.oneof(
    { arbitrary: value, weight: 8 },
    { arbitrary: fc.jsonValue({ maxDepth: 4 }).map(toJsonText), weight: 1 },
    { arbitrary: fc.tuple(value, fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1))), weight: 1 },
    { arbitrary: brokenJson, weight: 2 },
  );
}

/** A body as text, or the plaintext of a body to seal in an envelope. */
type Body = { readonly text: string } | { readonly seal: string };

/** For an `*Encrypted` route: a validly sealed envelope around a fuzzed plain body, or a fuzzed envelope. */
function envelopeBody(operation: Operation, context: FuzzContext): fc.Arbitrary<Body> {
  const plain = jsonBody(operation.body ?? {}, context, SEEDS[operation.key]).map((text): Body => ({ text }));
  const inner = context.innerBodies.get(operation.key);
  if (inner === undefined) return plain;
  const innerSeed = SEEDS[operation.key.replace(/Encrypted$/, '')];
  return fc.oneof(
    plain,
    jsonBody(inner, context, innerSeed).map((seal): Body => ({ seal })),
  );
}

function formBody(): fc.Arbitrary<string> {
  const field = (valid: string) =>
    fc.option(fc.oneof({ arbitrary: fc.constant(valid), weight: 3 }, { arbitrary: nastyString, weight: 1 }), {
      freq: 5,
    });
  return fc
    .tuple(
      field(PLACEHOLDER.clientId),
      field(PLACEHOLDER.clientSecret),
      field('client_credentials'),
      field('openid'),
      fc.dictionary(fc.string({ maxLength: 8 }), nastyString, { maxKeys: 2 }),
    )
    .map(([id, secret, grant, scope, extra]) => {
      const form = new URLSearchParams(extra);
      if (id !== null) form.set('client_id', id);
      if (secret !== null) form.set('client_secret', secret);
      if (grant !== null) form.set('grant_type', grant);
      if (scope !== null) form.set('scope', scope);
      return form.toString();
    });
}

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

function contentType(usual: string): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    { arbitrary: fc.constant(usual), weight: 12 },
    {
      arbitrary: fc.constantFrom(
        undefined,
        JSON_TYPE,
        'text/plain',
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'APPLICATION/JSON',
        'application/xml',
        FORM_TYPE,
        'multipart/form-data; boundary=x',
        'application/octet-stream',
        'application/jsonx',
        'image/jpeg',
        ';;;',
        '*/*',
      ),
      weight: 3,
    },
  );
}

/** Percent-encodes text; lone surrogates (which encodeURIComponent refuses) become U+FFFD first. */
const encodePath = (text: string) => encodeURIComponent(Buffer.from(text, 'utf8').toString('utf8'));

/** A path parameter: a plausible value of its schema, or a hostile string, percent-encoded or not. */
function pathParam(name: string, schema: JsonSchema, context: FuzzContext): fc.Arbitrary<string> {
  const plausible =
    name === 'realm'
      ? fc.constantFrom(`${context.customer}-consumers`, 'master', 'nobody-consumers')
      : schema.type === 'integer'
        ? fc.integer({ min: 0, max: 3000 }).map(String)
        : fc.oneof(fc.constantFrom('c', 'cache-1', 'face-matching', 'onboarding'), fc.stringMatching(/^[\w.-]{1,20}$/));
  const hostile = fc.oneof(
    nastyString.map(encodePath),
    fc.constantFrom('-1', '1e309', 'NaN', '99999999999999999999999', '0x10', '1.5', '%00', '%E0%A4%A', '%', '..'),
  );
  return fc.oneof({ arbitrary: plausible.map(encodePath), weight: 3 }, { arbitrary: hostile, weight: 1 });
}

type Credentials = 'none' | 'valid' | 'bearerOnly' | 'apiKeyOnly' | 'badBearer' | 'otherCustomerKey' | 'basic';

function credentialHeaders(kind: Credentials): Record<string, string> {
  const { bearer, alteredBearer, apiKey, otherApiKey } = PLACEHOLDER;
  switch (kind) {
    case 'none':
      return {};
    case 'valid':
      return { authorization: `Bearer ${bearer}`, apikey: apiKey };
    case 'bearerOnly':
      return { authorization: `Bearer ${bearer}` };
    case 'apiKeyOnly':
      return { apikey: apiKey };
    case 'badBearer':
      return { authorization: `Bearer ${alteredBearer}`, apikey: apiKey };
    case 'otherCustomerKey':
      return { authorization: `Bearer ${bearer}`, apikey: otherApiKey };
    case 'basic':
      return { authorization: 'Basic Og==', apikey: apiKey };
  }
}

const credentials: fc.Arbitrary<Credentials> = fc.oneof(
  { arbitrary: fc.constant<Credentials>('valid'), weight: 4 },
  fc.constantFrom<Credentials>('none', 'bearerOnly', 'apiKeyOnly', 'badBearer', 'otherCustomerKey', 'basic'),
);

/**
 * Malformed requests for one operation.
 *
 * @example
 * fc.assert(fc.asyncProperty(fuzzRequests(operation, context), async (request) => check(await app.inject(request))));
 */
export function fuzzRequests(operation: Operation, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const params = fc.tuple(...operation.pathParams.map((p) => pathParam(p.name, p.schema, context)));
  const query = rarely(
    fc.dictionary(
      fc.oneof(fc.constantFrom(...operation.query.map((q) => q.name), 'x'), fc.string({ maxLength: 6 })),
      fc.oneof(fc.integer().map(String), nastyString),
      { minKeys: 1, maxKeys: 3 },
    ),
    4,
  );
  const method = fc.oneof(
    { arbitrary: fc.constant<FuzzMethod>(operation.method), weight: 15 },
    fc.constantFrom<FuzzMethod>('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
  );
  const body: fc.Arbitrary<Body | null> = operation.form
    ? formBody().map((text) => ({ text }))
    : operation.body !== undefined
      ? envelopeBody(operation, context)
      : fc.option(
          jsonBody({}, context).map((text) => ({ text })),
          { freq: 4 },
        );
  const type = contentType(operation.form ? FORM_TYPE : JSON_TYPE);
  const auth = operation.authenticated ? credentials : fc.constant<Credentials>('none');
  return fc.record({ params, query, method, body, type, auth }).map((parts) => {
    let index = 0;
    const path = operation.path.replace(/\{[^}]+\}/g, () => parts.params[index++] ?? '');
    const search = parts.query === null ? '' : `?${new URLSearchParams(parts.query).toString()}`;
    const headers = credentialHeaders(parts.auth);
    const request = { method: parts.method, url: path + search, headers };
    if (parts.body === null || parts.method === 'GET') return request;
    if (parts.type !== undefined) headers['content-type'] = parts.type;
    return { ...request, ...('seal' in parts.body ? { seal: parts.body.seal } : { payload: parts.body.text }) };
  });
}
