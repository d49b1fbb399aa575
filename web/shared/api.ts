/** JSON calls to the Veriport server from the web apps, their answers checked against the fields used. */

/** A refused call: the HTTP status and the description of the server's error body. */
export class ApiCallError extends Error {
  override name = 'ApiCallError';
  constructor(
    readonly status: number,
    readonly description: string,
  ) {
    super(`${status}: ${description}`);
  }
}

/** The type of an answer field the apps read. */
type FieldKind = 'string' | 'number' | 'boolean' | 'nullable-string' | 'optional-string' | 'string-array' | 'object';
export type AnswerShape = Readonly<Record<string, FieldKind>>;
type KindType<K extends FieldKind> = K extends 'string'
  ? string
  : K extends 'number'
    ? number
    : K extends 'boolean'
      ? boolean
      : K extends 'nullable-string'
        ? string | null
        : K extends 'optional-string'
          ? string | undefined
          : K extends 'string-array'
            ? string[]
            : object;
/** The object an {@link AnswerShape} describes. */
export type Answer<S extends AnswerShape> = { -readonly [K in keyof S]: KindType<S[K]> };

/** Whether a value is of the kind. */
function isKind(value: unknown, kind: FieldKind): boolean {
  switch (kind) {
    case 'string':
    case 'number':
    case 'boolean':
      return typeof value === kind;
    case 'nullable-string':
      return value === null || typeof value === 'string';
    case 'optional-string':
      return value === undefined || typeof value === 'string';
    case 'object':
      return typeof value === 'object' && value !== null;
    case 'string-array':
      return Array.isArray(value) && value.every((item) => typeof item === 'string');
  }
}

/**
 * The fields of a JSON answer, each checked to have the kind the shape names.
 *
 * @example
 * readAnswer({ state: 'created', matchCode: null }, { state: 'string', matchCode: 'nullable-string' });
 * @throws {ApiCallError} naming the first field missing or of another kind
 */
export function readAnswer<S extends AnswerShape>(value: unknown, shape: S): Answer<S> {
  if (typeof value !== 'object' || value === null) throw new ApiCallError(0, 'the server answered no JSON object');
  const out: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(shape)) {
    const member: unknown = Reflect.get(value, field);
    if (!isKind(member, kind)) throw new ApiCallError(0, `the server's answer has no ${kind} ${field}`);
    out[field] = member;
  }
  // Every field of the shape was checked above.
  return out as Answer<S>;
}

/**
 * POSTs a JSON body (or, with `form`, the fields as application/x-www-form-urlencoded) and returns the answer's
 * fields that `shape` names, checked.
 *
 * @example
 * const { state } = await postJson('/b2c/proxy/sessionStatus', headers, { sessionToken }, { state: 'string' });
 * @throws {ApiCallError} for any answer but 2xx, with the server's description; or an answer of another shape
 */
export async function postJson<S extends AnswerShape>(
  url: string,
  headers: Readonly<Record<string, string>>,
  body: unknown,
  shape: S,
  form?: Readonly<Record<string, string>>,
): Promise<Answer<S>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json; charset=UTF-8',
      },
      body: form ? new URLSearchParams(form).toString() : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch {
    throw new ApiCallError(0, 'the server cannot be reached: check the connection and try again');
  }
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (!response.ok) throw new ApiCallError(response.status, describeError(parsed, text));
  return readAnswer(parsed, shape);
}

/** The description of an error body: coded (`error.description`), OAuth (`error_description`) or text. */
function describeError(body: unknown, text: string): string {
  if (typeof body === 'object' && body !== null) {
    const error: unknown = Reflect.get(body, 'error');
    if (typeof error === 'object' && error !== null) {
      const description: unknown = Reflect.get(error, 'description');
      if (typeof description === 'string') return description;
    }
    const oauth: unknown = Reflect.get(body, 'error_description');
    if (typeof oauth === 'string') return oauth;
    if (typeof error === 'string') return error;
  }
  return text.slice(0, 200) || 'no answer';
}
