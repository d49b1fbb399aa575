import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { decryptJsonEnvelope } from '../../crypto/envelope.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { CodedError } from '../../server/schemas/coded-error.js';
import { EncryptedRequest } from './schemas.js';

async function faceLivenessRoutes(app: FastifyInstance, deps: ServiceDependencies): Promise<void> {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  addVersionRoute(app, 'face-liveness');

  scope.post(
    '/decrypt',
    {
      schema: {
        summary: 'Opens an encrypted package and returns it as it was before encryption',
        body: EncryptedRequest,
        response: { 200: { description: 'the original package: any JSON, as it was encrypted' }, '4xx': CodedError, '5xx': CodedError },
      },
    },
    async (request) => decryptJsonEnvelope(request.body, deps.serverKeys.privateKey),
  );
}

/** Face liveness (spec Doc 2 A). So far `GET /version` and `POST /decrypt`; issue 4 adds the analyses. */
export const faceLivenessService: ServiceDefinition = {
  name: 'face-liveness',
  prefix: '/face-liveness',
  description: 'Face liveness: passive and active workflows (Doc 2 A)',
  errorStyle: 'coded',
  jsonAsTextPlain: false,
  plugin: faceLivenessRoutes,
};
