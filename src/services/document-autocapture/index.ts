import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { addPublicKeyRoute } from '../../server/public-key-route.js';
import { errorResponses } from '../../server/schemas/coded-error.js';
import { EncryptedRequest } from '../../server/schemas/encrypted-request.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { autocaptureDocument } from './autocapture.js';
import { DOCUMENT_AUTOCAPTURE, documentAutocaptureContext } from './autocapture-context.js';
import { openAutocapturePackage } from './autocapture-package.js';
import { captureRegion, minimumResolution } from './capture-geometry.js';
import { documentKind } from './document-kinds.js';
import {
  AutocaptureDocumentRequest,
  AutocaptureDocumentResponse,
  CaptureParametersRequest,
  CaptureParametersResponse,
  CaptureRegionRequest,
  CaptureRegionResponse,
} from './schemas.js';

/** The routes: schemas and one call each into the domain modules. */
function documentAutocaptureRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const context = documentAutocaptureContext(deps);
  addVersionRoute(app, DOCUMENT_AUTOCAPTURE);
  addPublicKeyRoute(app, context.envelopeKey, '/autocaptureDocumentEncrypted packages');

  scope.post(
    '/autocaptureDocument',
    {
      schema: {
        summary: 'Feedback per image and the capture of the requested document',
        body: AutocaptureDocumentRequest,
        response: { 200: AutocaptureDocumentResponse, ...errorResponses },
      },
    },
    (request) => autocaptureDocument(context, request.body),
  );

  scope.post(
    '/autocaptureDocumentEncrypted',
    {
      schema: {
        summary: '/autocaptureDocument of an encrypted package',
        body: EncryptedRequest,
        response: { 200: AutocaptureDocumentResponse, ...errorResponses },
      },
    },
    (request) => autocaptureDocument(context, openAutocapturePackage(context.envelopeKey, request.body)),
  );

  scope.post(
    '/getCaptureParameters',
    {
      schema: {
        summary: 'Minimum capture resolution for the document',
        body: CaptureParametersRequest,
        response: { 200: CaptureParametersResponse, ...errorResponses },
      },
    },
    (request) => minimumResolution(documentKind(request.body.workflow)),
  );

  scope.post(
    '/getCaptureRegion',
    {
      schema: {
        summary: 'Where the document should lie in a frame of the given resolution',
        body: CaptureRegionRequest,
        response: { 200: CaptureRegionResponse, ...errorResponses },
      },
    },
    (request) => captureRegion(documentKind(request.body.workflow), request.body.captureResolution),
  );
}

/** Document autocapture (Doc 2 B): per-image feedback from the MRZ band and page quality, capture geometry. */
export const documentAutocaptureService: ServiceDefinition = {
  name: 'document-autocapture',
  prefix: '/document-autocapture',
  description: 'Document autocapture (Doc 2 B)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  envelopePurpose: 'document-autocapture',
  plugin: documentAutocaptureRoutes,
};
