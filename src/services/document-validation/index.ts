import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { springErrorResponses, ValidateRequest, ValidateResponse } from './schemas.js';
import { validateDocument } from './validate-document.js';
import { DOCUMENT_VALIDATION, documentValidationContext } from './validation-context.js';

/** The routes: schemas and one call into validate-document.ts. */
function documentValidationRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const context = documentValidationContext(deps, undefined, (message) => app.log.warn(message));
  addVersionRoute(app, DOCUMENT_VALIDATION);

  scope.get(
    '/getPublicKey',
    {
      schema: {
        summary:
          'Extension (not in the spec): PEM public key that seals chip data (`encryptedDocument` as {key, iv, p})',
        description:
          "SPKI PEM of the envelope purpose 'document-validation' (AES-GCM additional data " +
          "'veriport envelope v1 document-validation'); docs/documents.md, Chip data.",
        produces: ['text/plain'],
        response: { 200: { description: 'SPKI PEM', type: 'string' }, ...springErrorResponses },
      },
    },
    async (_request, reply) => reply.type('text/plain; charset=utf-8').send(context.envelopePublicKeyPem),
  );

  scope.post(
    '/validate',
    {
      schema: {
        summary: 'Fields, page quality, portrait and security checks of a captured identity document',
        body: ValidateRequest,
        response: { 200: ValidateResponse, ...springErrorResponses },
      },
    },
    (request) => validateDocument(context, request.body),
  );
}

/** Document validation (Doc 3 C): MRZ fields and check digits, page quality, portraits, chip passive authentication. */
export const documentValidationService: ServiceDefinition = {
  name: 'document-validation',
  prefix: '/document-validation',
  description: 'Document validation (Doc 3 C)',
  errorStyle: 'spring',
  jsonAsTextPlain: false,
  envelopePurpose: 'document-validation',
  plugin: documentValidationRoutes,
};
