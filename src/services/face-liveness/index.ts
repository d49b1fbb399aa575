import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { decryptJsonEnvelope } from '../../crypto/envelope.js';
import { customerScopeOf } from '../../server/access/customer-scope.js';
import { errorResponses } from '../../server/schemas/coded-error.js';
import { EncryptedRequest } from '../../server/schemas/encrypted-request.js';
import { addPublicKeyRoute } from '../../server/public-key-route.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { checkActiveLiveness } from './active-check.js';
import { addChallengeRoute } from './challenge-routes.js';
import { FACE_LIVENESS, faceLivenessContext } from './liveness-context.js';
import { openActiveLivenessPackage, openLivenessPackage } from './liveness-packages.js';
import { analyzeLiveness, checkLiveness } from './passive-check.js';
import {
  ActiveLivenessRequest,
  ActiveLivenessResponse,
  AnalyzeResponse,
  CheckLivenessResponse,
  EncryptedLivenessRequest,
  FaceLivenessRequest,
} from './schemas.js';

/** The routes: schemas and one call each into the domain modules (passive-check, active-check, ...). */
function faceLivenessRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const liveness = faceLivenessContext(deps);
  // The face-liveness pair only: a package sealed for onboarding (or any other purpose) does not open here.
  const { envelopeKey } = liveness;
  addVersionRoute(app, FACE_LIVENESS);
  addPublicKeyRoute(app, envelopeKey, '*Encrypted packages and /decrypt');
  addChallengeRoute(app, liveness);

  scope.post(
    '/checkActiveLiveness',
    {
      schema: {
        summary: 'Passive liveness plus two asked head turns',
        body: ActiveLivenessRequest,
        response: { 200: ActiveLivenessResponse, ...errorResponses },
      },
    },
    (request) => checkActiveLiveness(liveness, request.body, customerScopeOf(request)),
  );

  scope.post(
    '/checkActiveLivenessEncrypted',
    {
      schema: {
        summary: '/checkActiveLiveness of an encrypted package (the JSON array sealed)',
        body: EncryptedRequest,
        response: { 200: ActiveLivenessResponse, ...errorResponses },
      },
    },
    (request) =>
      checkActiveLiveness(liveness, openActiveLivenessPackage(envelopeKey, request.body), customerScopeOf(request)),
  );

  scope.post(
    '/analyze',
    {
      schema: {
        summary: 'Passive liveness with autocapture feedback and the captured frame',
        body: FaceLivenessRequest,
        response: { 200: AnalyzeResponse, ...errorResponses },
      },
    },
    (request) => analyzeLiveness(liveness, request.body, customerScopeOf(request)),
  );

  scope.post(
    '/analyzeEncrypted',
    {
      schema: {
        summary: '/analyze of an encrypted package',
        body: EncryptedLivenessRequest,
        response: { 200: AnalyzeResponse, ...errorResponses },
      },
    },
    (request) => analyzeLiveness(liveness, openLivenessPackage(envelopeKey, request.body), customerScopeOf(request)),
  );

  scope.post(
    '/checkLiveness',
    {
      schema: {
        summary: 'Passive liveness of a frame sequence',
        body: FaceLivenessRequest,
        response: { 200: CheckLivenessResponse, ...errorResponses },
      },
    },
    (request) => checkLiveness(liveness, request.body, customerScopeOf(request)),
  );

  scope.post(
    '/checkLivenessEncrypted',
    {
      schema: {
        summary: 'Passive liveness of an encrypted package; workflow_data.intelligentLiveness overrides the one inside',
        body: EncryptedLivenessRequest,
        response: { 200: CheckLivenessResponse, ...errorResponses },
      },
    },
    (request) => checkLiveness(liveness, openLivenessPackage(envelopeKey, request.body), customerScopeOf(request)),
  );

  scope.post(
    '/decrypt',
    {
      schema: {
        summary:
          'Opens a package sealed for face liveness (GET /face-liveness/getPublicKey) and returns it as it was before encryption',
        body: EncryptedRequest,
        response: {
          200: { description: 'the original package: any JSON, as it was encrypted' },
          ...errorResponses,
        },
      },
    },
    (request) => decryptJsonEnvelope(request.body, envelopeKey),
  );
}

/** Face liveness (spec Doc 2 A): passive and active liveness, autocapture, each plain and encrypted, and `/decrypt`. */
export const faceLivenessService: ServiceDefinition = {
  name: 'face-liveness',
  prefix: '/face-liveness',
  description: 'Face liveness: passive and active workflows (Doc 2 A)',
  errorStyle: 'coded',
  jsonAsTextPlain: false,
  envelopePurpose: 'face-liveness',
  plugin: faceLivenessRoutes,
};
