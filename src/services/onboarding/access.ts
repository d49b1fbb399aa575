import type { FastifyRequest } from 'fastify';
import { errors as joseErrors, jwtVerify } from 'jose';
import { ApiError } from '../../server/errors/api-error.js';
import type { Customer, CustomersRepository } from '../../store/customers.js';
import { CUSTOMER_CLAIM, issuerOf, TOKEN_AUDIENCE } from './realm.js';
import type { TokenSigner } from './token-signer.js';

/** A refused onboarding call: answered 401 in the service's error style; the reason never holds a secret. */
export class AccessDeniedError extends ApiError {
  override name = 'AccessDeniedError';
  constructor(reason: string) {
    super(401, 401, `unauthorized: ${reason}`);
  }
}

/** Checks the `Authorization: Bearer` token and the `apikey` header of an onboarding call. */
export type VerifyAccess = (request: FastifyRequest) => Promise<Customer>;

/**
 * Builds the check the onboarding calls share: the bearer token must be an RS256 JWT signed by a
 * published key (by `kid`), unexpired, for the onboarding audience, naming a customer and issued by
 * that customer's realm on this server; the API key must be active; and both must belong to that customer.
 *
 * @example
 * const verifyAccess = accessVerifier({ customers, signer, publicUrl: config.publicUrl });
 * const customer = await verifyAccess(request); // throws AccessDeniedError
 */
export function accessVerifier(options: {
  customers: CustomersRepository;
  signer: TokenSigner;
  publicUrl: string | undefined;
}): VerifyAccess {
  const { customers, signer, publicUrl } = options;
  return async (request) => {
    const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    if (bearer === undefined) throw new AccessDeniedError('missing bearer token');
    const apiKey = request.headers.apikey;
    if (typeof apiKey !== 'string' || apiKey === '') throw new AccessDeniedError('missing apikey header');

    let customerName: unknown;
    let issuer: unknown;
    try {
      const { payload } = await jwtVerify(bearer, await signer.keyResolver(), {
        algorithms: ['RS256'],
        audience: TOKEN_AUDIENCE,
      });
      customerName = payload[CUSTOMER_CLAIM];
      issuer = payload.iss;
    } catch (error) {
      if (error instanceof joseErrors.JOSEError) throw new AccessDeniedError(`invalid bearer token (${error.code})`);
      throw error;
    }
    if (typeof customerName !== 'string' || customerName === '') throw new AccessDeniedError('token names no customer');
    // The issuer pins the token to this server and to the customer's realm.
    if (issuer !== issuerOf(customerName, request, publicUrl))
      throw new AccessDeniedError('token issued by another realm or server');
    const keyOwner = await customers.customerOfApiKey(apiKey);
    if (keyOwner === undefined) throw new AccessDeniedError('unknown or revoked api key');
    if (keyOwner !== customerName) throw new AccessDeniedError('api key and token belong to different customers');
    const customer = await customers.find(customerName);
    if (customer === undefined) throw new AccessDeniedError('customer no longer exists');
    return customer;
  };
}
