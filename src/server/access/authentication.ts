import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { adminKeysRepository } from '../../store/admin-keys.js';
import { customersRepository } from '../../store/customers.js';
import type { Database } from '../../store/schema.js';
import { signingKeysRepository } from '../../store/signing-keys.js';
import { isLoopbackHost, type VeriportConfig } from '../config.js';
import type { ThrottleStore } from '../throttle-store.js';
import { adminOnly } from './access-denied.js';
import { credentialCheck, type CheckCredentials, type CheckIssuedCredentials } from './credentials.js';
import { failedCredentials } from './failed-credentials.js';
import { signingKeyCache } from './signing-key-cache.js';

/**
 * Who may call a route of a service that `mountService` authenticates (`authentication: 'customer'`):
 * - `public`: anyone (`GET /version`);
 * - `customer` (the default): a customer's token or API key, or the admin key;
 * - `admin`: the admin key only (a customer's credentials are 403): reset and shutdown.
 */
export type RouteAccess = 'public' | 'customer' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route when authentication is on ({@link RouteAccess}); unset: `customer`. */
    access?: RouteAccess;
  }
}

/** How the OpenAPI document names the two credentials (registered by server/openapi.ts). */
export const SECURITY_SCHEMES = {
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: "a customer's onboarding access token (client credentials at /auth/realms/{customer}-consumers/...)",
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'apikey',
    description: "a customer's API key, or the operator's admin key (veriport_admin_...) for admin-only calls",
  },
} as const;

/**
 * The OpenAPI `security` of a route of a service that `mountService` authenticates: either credential, the
 * admin key for admin-only routes, none for public ones.
 *
 * @example
 * routeSecurity('admin'); // [{ apiKey: [] }]
 */
export function routeSecurity(access: RouteAccess | undefined): Array<Record<string, string[]>> | undefined {
  if (access === 'public') return undefined;
  if (access === 'admin') return [{ apiKey: [] }];
  return [{ bearerToken: [] }, { apiKey: [] }];
}

/** The check a service scope runs on every request before anything else is read. */
export type Authenticate = (request: FastifyRequest) => Promise<void>;

/**
 * The `onRequest` hook of the biometric services. With `VERIPORT_AUTH=required` it checks the credentials
 * ({@link credentialCheck}) before the body is read or validated, sets `request.customerScope` to the
 * caller's customer (an admin key: `request.adminAccess`, scope unscoped), and refuses an admin-only route to
 * a customer (403). With `off` nothing is checked and every caller is the operator (`adminAccess`).
 *
 * @example
 * scope.addHook('onRequest', authenticationHook('required', credentialCheck(sources)));
 */
export function authenticationHook(
  mode: VeriportConfig['authentication'],
  check: CheckCredentials,
  issued?: CheckIssuedCredentials,
): Authenticate {
  return async (request) => {
    const access = request.routeOptions.config.access ?? 'customer';
    if (access === 'public') return;
    if (mode === 'off') {
      request.adminAccess = true;
      return;
    }
    const caller = (await issued?.(request)) ?? (await check(request));
    if (caller.kind === 'admin') request.adminAccess = true;
    else request.customerScope = caller.customer;
    if (access === 'admin' && !request.adminAccess) throw adminOnly('this call');
  };
}

/**
 * The hook of the configured mode over the store's customers, admin keys and token signing keys: built
 * once per server and shared by every service it mounts (one key cache). `issued`: credentials a mounted
 * service issues for other services' routes (onboarding's QR sessions), checked first. `throttles`: where
 * failed API keys are counted (with the token endpoint's failed secrets); unset: they are not throttled.
 *
 * @example
 * const authenticate = serverAuthentication(config, store.db, undefined, throttleStore);
 * await mountService(app, faceMatchingService, dependencies, recordUsage, authenticate);
 */
export function serverAuthentication(
  config: VeriportConfig,
  db: Kysely<Database>,
  issued?: CheckIssuedCredentials,
  throttles?: ThrottleStore,
): Authenticate {
  return authenticationHook(
    config.authentication,
    credentialCheck({
      customers: customersRepository(db),
      adminKeys: adminKeysRepository(db),
      tokenKeys: signingKeyCache(signingKeysRepository(db), config.tokenTtlSeconds),
      publicUrl: config.publicUrl,
      failures: throttles === undefined ? undefined : failedCredentials(throttles, config.throttle),
    }),
    issued,
  );
}

/**
 * Warns, once at start, when the server answers other machines without asking for credentials.
 *
 * @example
 * warnIfUnauthenticated(config, app.log);
 */
export function warnIfUnauthenticated(config: VeriportConfig, log: FastifyBaseLogger): void {
  if (config.authentication === 'off' && !isLoopbackHost(config.host)) {
    log.warn(
      { host: config.host },
      'VERIPORT_AUTH=off on a non-loopback address: every caller that reaches the port may use and administer the biometric services',
    );
  }
}
