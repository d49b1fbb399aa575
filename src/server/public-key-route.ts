import type { FastifyInstance } from 'fastify';
import type { ServerKeyPair } from '../crypto/server-key-pair.js';
import { ENVELOPE_LABEL } from '../lib/envelope-purpose.js';
import { errorResponses } from './schemas/coded-error.js';

/**
 * Adds `GET /getPublicKey` to a service with `*Encrypted` calls, an extension beyond the spec (Doc 2
 * shows no way to obtain the key): the SPKI PEM of the service's own envelope purpose, as text, like
 * onboarding's `GET /getPublicKey` (Doc 1 endpoint 2). Behind the service's authentication like its other
 * routes.
 *
 * @example
 * addPublicKeyRoute(scope, deps.envelopeKeys.key('face-liveness'), '*Encrypted calls and /decrypt');
 * // GET /face-liveness/getPublicKey -> '-----BEGIN PUBLIC KEY-----...'
 */
export function addPublicKeyRoute(scope: FastifyInstance, key: ServerKeyPair, sealedCalls: string): void {
  scope.get(
    '/getPublicKey',
    {
      schema: {
        summary: `Extension (not in the spec): PEM public key that seals the ${sealedCalls}`,
        description:
          `Veriport extension beyond the spec, so capture software knows what to seal with. The SPKI PEM of ` +
          `this service's own key pair (envelope purpose '${key.purpose}'); a package sealed for it carries the ` +
          `AES-GCM additional data '${ENVELOPE_LABEL} ${key.purpose}'. Packages sealed with another service's ` +
          `key (onboarding's GET /getPublicKey included) are refused (400 -6).`,
        produces: ['text/plain'],
        response: { 200: { description: 'SPKI PEM', type: 'string' }, ...errorResponses },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(key.publicKeyPem),
  );
}
