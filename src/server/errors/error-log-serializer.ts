import { isDatabaseError } from '../../store/database-error.js';

/** An error as it is written to the log. */
export interface LoggedError {
  type: string;
  message: string;
  stack: string;
  code?: string | number;
  statusCode?: number;
  cause?: LoggedError | string;
  [databaseField: string]: unknown;
}

// What a database error may keep: names of things, never values. Both drivers attach the statement and
// its parameters (`query`, `params`, `detail`, `where`, `internalQuery`, ...): usernames, e-mail
// addresses, phone numbers, token hashes. Those are dropped by listing only what is kept.
const DATABASE_FIELDS = ['severity', 'routine', 'schema', 'table', 'column', 'constraint', 'dataType'] as const;
const MAX_CAUSES = 5;

/**
 * The pino `err` serializer: type, message, stack, code and status of an error and of its causes, and
 * nothing else, so that values a library attaches to its errors (SQL parameters above all) never reach
 * a log line. A database error's message also loses its quoted parts (`invalid input syntax for type
 * integer: "…"`).
 *
 * @example
 * Fastify({ logger: { serializers: { err: serializeErrorForLog } } });
 * serializeErrorForLog(Object.assign(new Error('boom'), { params: ['alice@example.com'] }));
 * // { type: 'Error', message: 'boom', stack: 'Error: boom\n    at ...' }
 */
export function serializeErrorForLog(error: Error): LoggedError;
// pino hands over whatever was logged under `err`: anything but an error passes unchanged, as pino's own does.
export function serializeErrorForLog(error: unknown): unknown {
  return error instanceof Error ? loggedError(error, MAX_CAUSES) : error;
}

function loggedError(error: Error, causesLeft: number): LoggedError {
  const database = isDatabaseError(error);
  const message = database ? withoutQuotedValues(error.message) : error.message;
  const stack = error.stack ?? '';
  const logged: LoggedError = {
    type: error.constructor.name,
    message,
    stack: database ? stack.replace(error.message, message) : stack,
  };
  const code = 'code' in error ? error.code : undefined;
  const statusCode = 'statusCode' in error ? error.statusCode : undefined;
  if (typeof code === 'string' || typeof code === 'number') logged.code = code;
  if (typeof statusCode === 'number') logged.statusCode = statusCode;
  if (database) {
    for (const field of DATABASE_FIELDS) {
      const value: unknown = Reflect.get(error, field);
      if (typeof value === 'string') logged[field] = value;
    }
  }
  if (error.cause instanceof Error) {
    logged.cause = causesLeft > 0 ? loggedError(error.cause, causesLeft - 1) : error.cause.constructor.name;
  }
  return logged;
}

/** PostgreSQL quotes the values (and names) it reports: `"alice"` becomes `"…"`. */
function withoutQuotedValues(message: string): string {
  return message.replace(/"[^"]*"/g, '"…"');
}
