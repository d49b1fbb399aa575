import type { ServerOptions } from 'node:http';
import type { VeriportConfig } from './config.js';

/** The Fastify options that set the HTTP server's time limits. */
export interface HttpServerOptions {
  readonly connectionTimeout: number;
  readonly keepAliveTimeout: number;
  readonly requestTimeout: number;
  readonly http: ServerOptions;
}

/**
 * Time limits of the Node HTTP server Fastify creates: headers and the whole request must arrive
 * within their limits (else 408), an idle keep-alive connection closes after its timeout, and a
 * connection passing no bytes at all for the socket timeout is closed. Node checks the first two
 * every `connectionsCheckingInterval` (30 s by default), which would stretch a 10 s limit to 40 s, so
 * the check runs at half the shorter limit, at most every second. `requireHostHeader` is off because
 * Node answers a missing `Host` with an empty 400; the app checks it (`requireHost`) to answer in style.
 *
 * @example
 * Fastify({ ...httpServerOptions(config), bodyLimit: config.bodyLimitBytes });
 */
export function httpServerOptions(config: VeriportConfig): HttpServerOptions {
  const shorter = Math.min(config.headersTimeoutMs, config.requestTimeoutMs);
  return {
    connectionTimeout: config.socketTimeoutMs,
    keepAliveTimeout: config.keepAliveTimeoutMs,
    requestTimeout: config.requestTimeoutMs,
    http: {
      headersTimeout: config.headersTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(shorter / 2))),
      requireHostHeader: false,
    },
  };
}
