import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Customer } from '../../store/customers.js';
import type { OnboardingSession } from '../../store/onboarding-sessions.js';
import type { VerifyAccess } from './access.js';
import type { VerifySessionAccess } from './session-access.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The customer whose bearer token and API key the call carried (set by {@link requireAccess}). */
    onboardingCustomer: Customer | null;
    /** The QR session whose credentials the call carried (session-access.ts); null for the customer's own. */
    onboardingSession: OnboardingSession | null;
  }
}

/**
 * Makes every route of `scope` check the bearer token and the API key before anything else is read
 * (an unauthenticated caller learns nothing about bodies or tokens), and exposes the customer, also as the
 * request's customer scope. With `verifySession`, a QR session's credentials (its session key and the
 * accessToken of validateSession) are accepted too, for the customer of the session; the request then
 * carries the session (`onboardingSession`), to which session-confinement.ts confines it.
 *
 * @example
 * await app.register(async (scope) => {
 *   requireAccess(scope, verifyAccess);
 *   scope.get('/getPublicKey', async (request) => customerOf(request).name);
 * });
 */
export function requireAccess(
  scope: FastifyInstance,
  verifyAccess: VerifyAccess,
  verifySession?: VerifySessionAccess,
): void {
  scope.decorateRequest('onboardingCustomer', null);
  scope.decorateRequest('onboardingSession', null);
  scope.addHook('onRequest', async (request) => {
    const session = await verifySession?.(request);
    request.onboardingSession = session?.session ?? null;
    request.onboardingCustomer = session?.customer ?? (await verifyAccess(request));
    // The customer scope (server/access/customer-scope.ts) of a call that acts for this customer.
    request.customerScope = request.onboardingCustomer.name;
  });
}

/**
 * The customer of a request that passed {@link requireAccess}.
 *
 * @example
 * const { name } = customerOf(request);
 */
export function customerOf(request: FastifyRequest): Customer {
  if (request.onboardingCustomer === null) throw new Error('route registered outside requireAccess');
  return request.onboardingCustomer;
}
