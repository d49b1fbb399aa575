import type { FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify } from 'jose';
import { AccessDeniedError } from './access-denied.js';
import type { AccessTokenKeys } from './signing-key-cache.js';
import { CUSTOMER_CLAIM, issuerOf, TOKEN_AUDIENCE } from './token-claims.js';

/**
 * The token of an `Authorization: Bearer <token>` header value; undefined for any other value.
 *
 * @example
 * bearerTokenOf('Bearer eyJhbGciOi...'); // 'eyJhbGciOi...'
 * bearerTokenOf('Basic dXNlcjpwYXNz'); // undefined
 */
export function bearerTokenOf(authorization: string | undefined): string | undefined {
  return /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
}

/**
 * The customer an onboarding access token was issued to: the token must be an RS256 JWT signed by a
 * published key (by `kid`), unexpired, for the onboarding audience, naming a customer, and issued by that
 * customer's realm on this server (`VERIPORT_PUBLIC_URL`, else the request's origin).
 *
 * @example
 * const customer = await customerOfAccessToken(token, keys, request, config.publicUrl); // 'acme'
 * @throws {AccessDeniedError} for any token that fails one of those checks
 */
export async function customerOfAccessToken(
  token: string,
  keys: AccessTokenKeys,
  request: FastifyRequest,
  publicUrl: string | undefined,
): Promise<string> {
  let customer: unknown;
  let issuer: unknown;
  try {
    const { payload } = await jwtVerify(token, await keys.keyResolver(), {
      algorithms: ['RS256'],
      audience: TOKEN_AUDIENCE,
    });
    customer = payload[CUSTOMER_CLAIM];
    issuer = payload.iss;
  } catch (error) {
    // jose's codes name the failed check (ERR_JWT_EXPIRED, ERR_JWS_SIGNATURE_VERIFICATION_FAILED), never a value.
    if (error instanceof joseErrors.JOSEError) throw new AccessDeniedError(`invalid bearer token (${error.code})`);
    throw error;
  }
  if (typeof customer !== 'string' || customer === '') throw new AccessDeniedError('token names no customer');
  // The issuer pins the token to this server and to the customer's realm.
  if (issuer !== issuerOf(customer, request, publicUrl))
    throw new AccessDeniedError('token issued by another realm or server');
  return customer;
}
