/**
 * Errors Node's HTTP layer raises before Fastify routes a request (a malformed request, headers too
 * large, a request not received in time, an unsupported `Expect`, a missing `Host`), answered in the
 * error style of the service the path belongs to instead of Node's empty bodies or Fastify's own shape.
 */
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError, ErrorCode, clientError } from './api-error.js';
import { errorBody, type ErrorStyle } from './error-body.js';

/** Chooses the error style for a request path (undefined when it could not be read). */
export type StyleForPath = (path: string | undefined) => ErrorStyle;

/** A connection-level error as Node reports it to 'clientError' (`rawPacket` is the data parsed so far). */
interface ClientError extends Error {
  code?: string;
  rawPacket?: unknown;
}

/**
 * The requests of each connection whose answers are not finished: the path of a request whose body
 * timed out, and whether an answer already began (then nothing may be written but the close).
 */
export class OpenRequests {
  readonly #bySocket = new WeakMap<Socket, Set<ServerResponse>>();

  /**
   * Follows every request the server receives until its answer is finished or aborted.
   *
   * @example
   * const open = new OpenRequests();
   * open.track(app.server);
   */
  track(server: Server): void {
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket;
      const responses = this.#bySocket.get(socket) ?? new Set<ServerResponse>();
      this.#bySocket.set(socket, responses);
      responses.add(response);
      response.once('close', () => responses.delete(response));
    });
  }

  /** The unfinished answers on a connection, oldest first. */
  on(socket: Socket): readonly ServerResponse[] {
    return [...(this.#bySocket.get(socket) ?? [])];
  }
}

/**
 * Fastify's `clientErrorHandler`: answers a connection-level error with a complete HTTP answer in
 * the path's error style (400 code -1 for a malformed request, 431 for headers too large, 408 for a
 * request not received within the time limits), then closes the connection. Nothing is written when
 * an answer on that connection has already begun: the connection is only closed.
 *
 * @example
 * Fastify({ clientErrorHandler: clientErrorHandler(styleFor, openRequests, () => app.log) });
 */
export function clientErrorHandler(styleFor: StyleForPath, open: OpenRequests, log: () => FastifyBaseLogger) {
  return function handleClientError(error: ClientError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const pending = open.on(socket);
    const apiError = connectionApiError(error);
    log().debug({ code: error.code, status: apiError.statusCode }, 'client error');
    if (socket.writable && pending.every((response) => !response.headersSent)) {
      const path = pending.at(-1)?.req.url ?? requestLinePath(error.rawPacket);
      socket.write(rawAnswer(apiError, styleFor(path), path));
    }
    socket.destroy();
  };
}

/**
 * Answers an `Expect` other than `100-continue` (Node's 'checkExpectation') with a 417 in the path's
 * style rather than Node's empty one, and closes the connection: a body may follow that must not be
 * read as the next request.
 *
 * @example
 * app.server.on('checkExpectation', expectationFailed(styleFor));
 */
export function expectationFailed(styleFor: StyleForPath) {
  return function answerExpectation(request: IncomingMessage, response: ServerResponse): void {
    const apiError = clientError(417, 'unsupported Expect header: only 100-continue is supported');
    const body = JSON.stringify(errorBody(styleFor(request.url), apiError, pathOf(request.url)));
    response.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    response.end(body);
  };
}

/**
 * An onRequest hook refusing an HTTP/1.1 request without `Host` (RFC 9112 §3.2) with 400 code -1,
 * rendered by the error handler of the scope the path falls in. Node's own check answers an empty
 * 400, so the server turns it off (`requireHostHeader: false`) and checks here.
 *
 * @example
 * app.addHook('onRequest', requireHost);
 */
export function requireHost(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const { httpVersionMajor, httpVersionMinor, headers } = request.raw;
  if (httpVersionMajor === 1 && httpVersionMinor >= 1 && headers.host === undefined) {
    // As Node's own check does: a client that sends no Host is not one to keep a connection open for.
    reply.header('connection', 'close');
    done(new ApiError(400, ErrorCode.unknown, 'invalid request: the Host header is required in HTTP/1.1'));
    return;
  }
  done();
}

/**
 * Answers a CONNECT request (Node's 'connect'; without a listener Node closes the connection without
 * a word): 405 in the coded style, as the target is no path, then the connection closes.
 *
 * @example
 * app.server.on('connect', refuseConnect);
 */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  const answer = rawAnswer(clientError(405, 'the CONNECT method is not supported'), 'coded', undefined);
  socket.on('error', () => socket.destroy());
  socket.end(answer, () => socket.destroy());
}

/**
 * An onRequest hook answering 503 in the path's style once a graceful stop has begun (Fastify's
 * `return503OnClosing` answers in its own shape, so the app turns it off), and closing the connection.
 * Answered here rather than thrown: a stop is no failure for the error handler to log as one.
 *
 * @example
 * app.addHook('onRequest', refuseWhileClosing(() => closing, styleFor));
 */
export function refuseWhileClosing(isClosing: () => boolean, styleFor: StyleForPath) {
  return async function answerClosing(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    if (!isClosing()) return undefined;
    const apiError = new ApiError(503, 503, 'the server is shutting down: retry on another instance or later');
    return reply
      .code(503)
      .header('connection', 'close')
      .type('application/json')
      .send(errorBody(styleFor(request.url), apiError, pathOf(request.url)));
  };
}

function connectionApiError(error: ClientError): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return clientError(408, 'request timeout: the request was not received within the time limit');
    case 'HPE_HEADER_OVERFLOW':
      return clientError(431, 'request headers are too large');
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return new ApiError(400, ErrorCode.unknown, 'invalid request: bad Content-Length');
    default:
      // llhttp's codes (HPE_INVALID_METHOD, ...) name the defect without echoing the request.
      return new ApiError(400, ErrorCode.unknown, `malformed HTTP request (${error.code ?? 'unreadable'})`);
  }
}

/** The path of the request line at the start of what was parsed, when it is a readable one. */
function requestLinePath(rawPacket: unknown): string | undefined {
  if (!Buffer.isBuffer(rawPacket)) return undefined;
  const line = rawPacket.subarray(0, 2048).toString('latin1');
  return /^[A-Z]+ (\/[\x21-\x7e]*) HTTP\//.exec(line)?.[1];
}

function pathOf(url: string | undefined): string {
  return url?.split('?')[0] ?? '';
}

function rawAnswer(apiError: ApiError, style: ErrorStyle, url: string | undefined): string {
  const body = JSON.stringify(errorBody(style, apiError, pathOf(url)));
  const reason = STATUS_CODES[apiError.statusCode] ?? 'Error';
  return (
    `HTTP/1.1 ${apiError.statusCode} ${reason}\r\n` +
    `Content-Type: application/json; charset=utf-8\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    `Connection: close\r\n\r\n${body}`
  );
}
