import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Customer } from '../../store/customers.js';
import type { VerifyAccess } from './access.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The customer whose bearer token and API key the call carried (set by {@link requireAccess}). */
    onboardingCustomer: Customer | null;
  }
}

/**
 * Makes every route of `scope` check the bearer token and the API key before anything else is read
 * (an unauthenticated caller learns nothing about bodies or tokens), and exposes the customer, also as the
 * request's customer scope.
 *
 * @example
 * await app.register(async (scope) => {
 *   requireAccess(scope, verifyAccess);
 *   scope.get('/getPublicKey', async (request) => customerOf(request).name);
 * });
 */
export function requireAccess(scope: FastifyInstance, verifyAccess: VerifyAccess): void {
  scope.decorateRequest('onboardingCustomer', null);
  scope.addHook('onRequest', async (request) => {
    request.onboardingCustomer = await verifyAccess(request);
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
