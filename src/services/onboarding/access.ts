import type { FastifyRequest } from 'fastify';
import { AccessDeniedError } from '../../server/access/access-denied.js';
import { bearerTokenOf, customerOfAccessToken } from '../../server/access/access-token.js';
import { throttledKeyLookup, type FailedCredentials } from '../../server/access/failed-credentials.js';
import type { AccessTokenKeys } from '../../server/access/signing-key-cache.js';
import type { Customer, CustomersRepository } from '../../store/customers.js';

/** Checks the `Authorization: Bearer` token and the `apikey` header of an onboarding call. */
export type VerifyAccess = (request: FastifyRequest) => Promise<Customer>;

/**
 * Builds the check the onboarding calls share, stricter than the biometric services' (server/access/):
 * both the bearer token (verified by {@link customerOfAccessToken}) and an active API key, of one customer.
 *
 * @example
 * const verifyAccess = accessVerifier({ customers, signer, publicUrl: config.publicUrl });
 * const customer = await verifyAccess(request); // throws AccessDeniedError
 */
export function accessVerifier(options: {
  customers: CustomersRepository;
  signer: AccessTokenKeys;
  publicUrl: string | undefined;
  /** Throttles failed API keys per key id and per source network (shared with the token endpoint). */
  failures?: FailedCredentials;
}): VerifyAccess {
  const { customers, signer, publicUrl, failures } = options;
  return async (request) => {
    const bearer = bearerTokenOf(request.headers.authorization);
    if (bearer === undefined) throw new AccessDeniedError('missing bearer token');
    const apiKey = request.headers.apikey;
    if (typeof apiKey !== 'string' || apiKey === '') throw new AccessDeniedError('missing apikey header');
    const customerName = await customerOfAccessToken(bearer, signer, request, publicUrl);
    const keyOwner = await throttledKeyLookup(failures, request, apiKey, () => customers.customerOfApiKey(apiKey));
    if (keyOwner === undefined) throw new AccessDeniedError('unknown or revoked api key');
    if (keyOwner !== customerName) throw new AccessDeniedError('api key and token belong to different customers');
    const customer = await customers.find(customerName);
    if (customer === undefined) throw new AccessDeniedError('customer no longer exists');
    return customer;
  };
}
