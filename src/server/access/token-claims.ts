import type { FastifyRequest } from 'fastify';

/** Realms are `{customer}-consumers`, as in the Doc 1 token path. */
export const REALM_SUFFIX = '-consumers';

/** Audience of every onboarding access token: the onboarding API and the biometric services accept it. */
export const TOKEN_AUDIENCE = 'veriport-onboarding';

/**
 * The token claim that holds the customer's name. Tokens issued before it was renamed from `realm`
 * are refused (401) and the client fetches a new one: they live minutes (`VERIPORT_TOKEN_TTL_SECONDS`).
 */
export const CUSTOMER_CLAIM = 'customer';

/**
 * The issuer URL of a customer's realm: the configured public URL, else the request's own origin.
 *
 * @example
 * issuerOf('acme', request, undefined); // 'http://localhost:8080/auth/realms/acme-consumers'
 */
export function issuerOf(customer: string, request: FastifyRequest, publicUrl: string | undefined): string {
  return `${publicUrl ?? `${request.protocol}://${request.host}`}/auth/realms/${customer}${REALM_SUFFIX}`;
}
