import type { FastifyRequest } from 'fastify';
import { CUSTOMER_NAME } from '../../store/customers.js';

/** Realms are `{customer}-consumers`, as in the Doc 1 token path. */
const REALM_SUFFIX = '-consumers';

/** Audience of every onboarding access token: the onboarding API itself. */
export const TOKEN_AUDIENCE = 'veriport-onboarding';

/**
 * The token claim that holds the customer's name. Tokens issued before it was renamed from `realm`
 * are refused (401) and the client fetches a new one: they live minutes (`VERIPORT_TOKEN_TTL_SECONDS`).
 */
export const CUSTOMER_CLAIM = 'customer';

/**
 * The customer name of a realm path segment, or undefined when the segment is not a consumer realm
 * (or names no possible customer: such a name never reaches the store).
 *
 * @example
 * customerOfRealm('acme-consumers'); // 'acme'
 * customerOfRealm('acme'); // undefined
 * customerOfRealm('a\u0000-consumers'); // undefined
 */
export function customerOfRealm(realm: string): string | undefined {
  const name = realm.endsWith(REALM_SUFFIX) ? realm.slice(0, -REALM_SUFFIX.length) : '';
  return CUSTOMER_NAME.test(name) ? name : undefined;
}

/**
 * The issuer URL of a customer's realm: the configured public URL, else the request's own origin.
 *
 * @example
 * issuerOf('acme', request, undefined); // 'http://localhost:8080/auth/realms/acme-consumers'
 */
export function issuerOf(customer: string, request: FastifyRequest, publicUrl: string | undefined): string {
  return `${publicUrl ?? `${request.protocol}://${request.host}`}/auth/realms/${customer}${REALM_SUFFIX}`;
}
