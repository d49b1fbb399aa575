import type { FastifyInstance, FastifyRequest } from 'fastify';
import { UNSCOPED_CUSTOMER } from '../../store/biometric-encounters.js';

/**
 * The namespace of a call when authentication is off (`VERIPORT_AUTH=off`): every caller shares it, as
 * every caller of a loopback-only server is the operator. Customer names never take this value.
 */
export const UNSCOPED = UNSCOPED_CUSTOMER;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The customer a call acts for: the owner of its credentials when authentication is on, {@link UNSCOPED}
     * when it is off. Caches, encounters and usage rows are kept under it.
     */
    customerScope: string;
    /**
     * Whether the call carried the operator's admin credential (authentication on), or any call when
     * authentication is off: admin-only operations and reports across all customers need it.
     */
    adminAccess: boolean;
  }
}

/**
 * Gives every request a customer scope, {@link UNSCOPED}, and no admin access until an authentication hook
 * sets them.
 *
 * @example
 * decorateCustomerScope(app); // once, on the root instance
 */
export function decorateCustomerScope(app: FastifyInstance): void {
  app.decorateRequest('customerScope', UNSCOPED);
  app.decorateRequest('adminAccess', false);
}

/**
 * The customer scope of a request: where its caches, encounters and usage rows live.
 *
 * @example
 * const scope = customerScopeOf(request); // 'acme', or '' with authentication off
 */
export function customerScopeOf(request: FastifyRequest): string {
  return request.customerScope;
}
