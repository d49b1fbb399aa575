import type { FastifyInstance, FastifyRequest } from 'fastify';
import { failedCredentials, tooManyFailuresText } from '../../server/access/failed-credentials.js';
import { issuerOf } from '../../server/access/token-claims.js';
import { ApiError } from '../../server/errors/api-error.js';
import { isStoredText } from '../../server/schemas/stored-text.js';
import type { ServiceDependencies } from '../../server/service-definition.js';
import type { CustomersRepository } from '../../store/customers.js';
import { clientCredentials } from './client-credentials.js';
import { FORM_MEDIA_TYPE, isFormEncoded, registerFormBody } from './form-body.js';
import { guessThrottle } from './guess-throttle.js';
import { OAuthError, sendOAuthError } from './oauth-error.js';
import { customerOfRealm } from './realm.js';
import type { TokenSigner } from './token-signer.js';

const REALM = '/auth/realms/:realm';

/**
 * Doc 1 endpoint 1 (client-credentials token) plus the OIDC discovery document and JWKS that let
 * callers verify the tokens. The paths name the customer by its realm, `{customer}-consumers`.
 *
 * @example
 * await tokenRoutes(app, deps, customersRepository(deps.store.db), signer);
 */
export async function tokenRoutes(
  app: FastifyInstance,
  deps: ServiceDependencies,
  customers: CustomersRepository,
  signer: TokenSigner,
): Promise<void> {
  registerFormBody(app);
  const limits = deps.config.throttle;
  // Secret guesses: per source address, and per client id wherever the guesses come from.
  const throttle = await guessThrottle(app, deps.throttleStore, limits.windowSeconds, [
    { name: 'token-address', max: limits.tokenPerAddress, key: (request) => request.ip },
    { name: 'token-client', max: limits.tokenPerClient, key: claimedClientId },
  ]);
  // Failed client authentications: per client id and per source network, shared with the API-key check.
  const failures = failedCredentials(deps.throttleStore, limits);
  /** The customer whose realm a path names, or undefined. */
  const customerAt = async (realm: string) => {
    const name = customerOfRealm(realm);
    return name === undefined ? undefined : customers.find(name);
  };

  app.post<{ Params: { realm: string } }>(
    `${REALM}/protocol/openid-connect/token`,
    {
      schema: { summary: 'Access token by the client-credentials grant (form-encoded)' },
      // Before the body is read, so neither the JSON parser nor Fastify's own 415 answers in the coded style.
      onRequest: async (request, reply) => {
        const type = request.headers['content-type'];
        const hasBody =
          request.headers['transfer-encoding'] !== undefined || (request.headers['content-length'] ?? '0') !== '0';
        if (isFormEncoded(type) || (type === undefined && !hasBody)) return;
        // RFC 9110 §15.5.16: Accept names the media type that would have been accepted.
        reply.header('accept', FORM_MEDIA_TYPE);
        return sendOAuthError(reply, new OAuthError(415, 'invalid_request', `the body must be ${FORM_MEDIA_TYPE}`));
      },
      // After the form is parsed, so the client id it names can be counted.
      preHandler: async (request, reply) => {
        const retryAfter = await throttle(request);
        if (retryAfter === undefined) return;
        reply.header('retry-after', String(retryAfter));
        return sendOAuthError(
          reply,
          new OAuthError(429, 'slow_down', `too many token requests; retry after ${retryAfter} s`),
        );
      },
    },
    async (request, reply) => {
      const { realm } = request.params;
      try {
        // Only an empty request without Content-Type gets past the hook unparsed.
        const form = isForm(request.body) ? request.body : undefined;
        if (form === undefined) throw new OAuthError(400, 'invalid_request', `the body must be ${FORM_MEDIA_TYPE}`);
        const credentials = clientCredentials(request.headers.authorization, form, realm);
        const refused = new OAuthError(
          401,
          'invalid_client',
          'invalid client credentials',
          credentials.via === 'basic' ? realm : undefined,
        );
        // Past the failure limits nothing is checked, so a guess there learns nothing.
        const attempt = await failures.attempt(request, `oidc:${credentials.clientId}`);
        if (attempt.retryAfter !== undefined) {
          reply.header('retry-after', String(attempt.retryAfter));
          throw new OAuthError(429, 'slow_down', tooManyFailuresText(attempt.retryAfter));
        }
        // An unknown realm answers like a wrong secret, so customer names cannot be probed. A client id no
        // client can have (a NUL character) answers like an unknown one, without the store.
        const [customer, owner] = await Promise.all([
          customerAt(realm),
          isStoredText(credentials.clientId)
            ? customers.authenticateClient(credentials.clientId, credentials.clientSecret)
            : undefined,
        ]);
        const held = customer !== undefined && owner === customer.name;
        await attempt.settle(held);
        if (!held) throw refused;
        if (form.grant_type === undefined || form.grant_type === '')
          throw new OAuthError(400, 'invalid_request', 'grant_type is required');
        if (form.grant_type !== 'client_credentials')
          throw new OAuthError(
            400,
            'unsupported_grant_type',
            `grant_type '${form.grant_type}' is not supported; use client_credentials`,
          );
        if (form.scope !== undefined && form.scope.split(' ').some((s) => s !== '' && s !== 'openid')) {
          throw new OAuthError(400, 'invalid_scope', "the only scope is 'openid'");
        }
        const tokens = await signer.issue({
          issuer: issuerOf(customer.name, request, deps.config.publicUrl),
          customer: customer.name,
          clientId: credentials.clientId,
        });
        return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(tokens);
      } catch (error) {
        if (error instanceof OAuthError) return sendOAuthError(reply, error);
        throw error;
      }
    },
  );

  app.get<{ Params: { realm: string } }>(
    `${REALM}/.well-known/openid-configuration`,
    { schema: { summary: 'OpenID Connect discovery document of a realm' } },
    async (request) => {
      const customer = await customerAt(request.params.realm);
      if (customer === undefined) throw new ApiError(404, 404, `no such realm: ${request.params.realm}`);
      const issuer = issuerOf(customer.name, request, deps.config.publicUrl);
      return {
        issuer,
        token_endpoint: `${issuer}/protocol/openid-connect/token`,
        jwks_uri: `${issuer}/protocol/openid-connect/certs`,
        grant_types_supported: ['client_credentials'],
        response_types_supported: ['token'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: ['openid'],
      };
    },
  );

  app.get<{ Params: { realm: string } }>(
    `${REALM}/protocol/openid-connect/certs`,
    { schema: { summary: 'JSON Web Key Set that verifies the realm tokens' } },
    async (request) => {
      if ((await customerAt(request.params.realm)) === undefined)
        throw new ApiError(404, 404, `no such realm: ${request.params.realm}`);
      // One key set serves every customer; the issuer and customer claims keep tokens apart.
      return signer.jwks();
    },
  );
}

/** The client id a token request names (Basic or form), unverified: only a throttle key. */
function claimedClientId(request: FastifyRequest): string | undefined {
  if (!isForm(request.body)) return undefined;
  try {
    // The realm only names a refused Basic scheme; the error is dropped here.
    return clientCredentials(request.headers.authorization, request.body, '').clientId;
  } catch {
    return undefined;
  }
}

function isForm(body: unknown): body is Record<string, string> {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    Object.values(body).every((v) => typeof v === 'string')
  );
}
