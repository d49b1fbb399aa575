import type { FastifyRequest } from 'fastify';
import { isAdminKeyForm, type AdminKeysRepository } from '../../store/admin-keys.js';
import type { CustomersRepository } from '../../store/customers.js';
import { AccessDeniedError } from './access-denied.js';
import { bearerTokenOf, customerOfAccessToken } from './access-token.js';
import { throttledKeyLookup, type FailedCredentials } from './failed-credentials.js';
import type { AccessTokenKeys } from './signing-key-cache.js';

/** Who a call with valid credentials comes from. */
export type Caller =
  { readonly kind: 'customer'; readonly customer: string } | { readonly kind: 'admin'; readonly keyId: string };

/** Checks the credentials of a call to a biometric service. */
export type CheckCredentials = (request: FastifyRequest) => Promise<Caller>;

/**
 * Checks credentials a service issues itself and lets other services accept (onboarding's QR sessions):
 * the caller, or undefined when the request carries none of them (the customer's credentials are checked).
 */
export type CheckIssuedCredentials = (request: FastifyRequest) => Promise<Caller | undefined>;

/** Where the credentials are verified against. */
export interface CredentialSources {
  readonly customers: Pick<CustomersRepository, 'customerOfApiKey' | 'find'>;
  readonly adminKeys: Pick<AdminKeysRepository, 'keyIdOf'>;
  /** The published token signing keys (a {@link AccessTokenKeys} cache). */
  readonly tokenKeys: AccessTokenKeys;
  /** `VERIPORT_PUBLIC_URL`: the issuer tokens must name (else the request's origin). */
  readonly publicUrl: string | undefined;
  /** Throttles failed API keys per key id and per source network; unset: not throttled. */
  readonly failures?: FailedCredentials;
}

const MISSING =
  'missing credentials: send Authorization: Bearer <onboarding access token> or an apikey header (or both)';

/**
 * Builds the credential check of the biometric services: an onboarding access token
 * (`Authorization: Bearer`, verified as onboarding verifies it) or a customer's API key (`apikey`) suffices;
 * sent together they must belong to one customer. An admin key (`apikey: veriport_admin_...`) is sent alone
 * and makes the caller the operator. Each key is one lookup by its id and a constant-time hash comparison.
 *
 * @example
 * const check = credentialCheck({ customers, adminKeys, tokenKeys, publicUrl: config.publicUrl });
 * const caller = await check(request); // { kind: 'customer', customer: 'acme' }; throws AccessDeniedError
 */
export function credentialCheck(sources: CredentialSources): CheckCredentials {
  const { customers, adminKeys, tokenKeys, publicUrl, failures } = sources;
  return async (request) => {
    const { authorization, apikey } = request.headers;
    let tokenCustomer: string | undefined;
    if (authorization !== undefined) {
      const token = bearerTokenOf(authorization);
      if (token === undefined) throw new AccessDeniedError('the Authorization header is not a bearer token');
      tokenCustomer = await customerOfAccessToken(token, tokenKeys, request, publicUrl);
    }
    if (apikey === undefined) {
      if (tokenCustomer === undefined) throw new AccessDeniedError(MISSING);
      // A token outlives nothing it names: its customer must still exist.
      if ((await customers.find(tokenCustomer)) === undefined) throw new AccessDeniedError('customer no longer exists');
      return { kind: 'customer', customer: tokenCustomer };
    }
    // Repeated headers arrive as an array: one key per call.
    if (typeof apikey !== 'string' || apikey === '') throw new AccessDeniedError('the apikey header must hold one key');
    if (isAdminKeyForm(apikey)) {
      if (tokenCustomer !== undefined)
        throw new AccessDeniedError("an admin key is sent alone, without a customer's bearer token");
      const keyId = await throttledKeyLookup(failures, request, apikey, () => adminKeys.keyIdOf(apikey));
      if (keyId === undefined) throw new AccessDeniedError('unknown or revoked admin key');
      return { kind: 'admin', keyId };
    }
    const keyOwner = await throttledKeyLookup(failures, request, apikey, () => customers.customerOfApiKey(apikey));
    if (keyOwner === undefined) throw new AccessDeniedError('unknown or revoked api key');
    if (tokenCustomer !== undefined && keyOwner !== tokenCustomer)
      throw new AccessDeniedError('api key and token belong to different customers');
    return { kind: 'customer', customer: keyOwner };
  };
}
