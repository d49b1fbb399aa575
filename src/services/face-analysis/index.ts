import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { decryptJsonEnvelope } from '../../crypto/envelope.js';
import { adminConfirmation } from '../../server/admin-confirmation.js';
import { invalidValue } from '../../server/errors/api-error.js';
import { errorResponses as errors } from '../../server/schemas/coded-error.js';
import { EncryptedRequest } from '../../server/schemas/encrypted-request.js';
import { addPublicKeyRoute } from '../../server/public-key-route.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { checkBody } from '../../server/validation.js';
import { addVersionRoute } from '../../server/version-route.js';
import { analyzeImages } from './image-analysis.js';
import { requireProfile, validateProfile } from './profile-parser.js';
import { calculateRoi } from './roi.js';
import {
  AnalyzeImageRequest,
  AnalyzeImageResponse,
  AutocaptureVideoRequest,
  AutocaptureVideoResponse,
  CalculateRoiRequest,
  CalculateRoiResponse,
  ValidateProfileRequest,
  ValidateProfileResponse,
} from './schemas.js';
import { autocaptureVideo } from './video-autocapture.js';

const SERVICE = 'face-analysis';
/** The operator's code travels in a header: the spec's shutdown has no body. */
const CONFIRM_HEADER = 'x-veriport-confirm';

function faceAnalysisRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  addVersionRoute(app, SERVICE);
  // The face-analysis pair only: a package sealed for another purpose does not open here.
  const envelopeKey = deps.envelopeKeys.key('face-analysis');
  addPublicKeyRoute(app, envelopeKey, '/autocaptureVideoEncrypted packages');
  const confirmation = adminConfirmation({ code: deps.config.adminConfirmCode, store: deps.throttleStore });

  scope.post(
    '/analyzeImage',
    {
      schema: {
        summary:
          'Faces of each image with metrics, profile compliance, eye positions and optionally the constructed image',
        body: AnalyzeImageRequest,
        response: { 200: AnalyzeImageResponse, ...errors },
      },
    },
    async (request) => analyzeImages(deps.faceEngine(), request.body),
  );
  scope.post(
    '/autocaptureVideo',
    {
      schema: {
        summary: 'Per-frame compliance and feedback; captures after N consecutive compliant frames',
        body: AutocaptureVideoRequest,
        response: { 200: AutocaptureVideoResponse, ...errors },
      },
    },
    async (request) => autocaptureVideo(deps.faceEngine(), request.body),
  );
  scope.post(
    '/autocaptureVideoEncrypted',
    {
      schema: {
        summary: '/autocaptureVideo of an encrypted package',
        body: EncryptedRequest,
        response: { 200: AutocaptureVideoResponse, ...errors },
      },
    },
    async (request) =>
      autocaptureVideo(
        deps.faceEngine(),
        checkBody<AutocaptureVideoRequest>(AutocaptureVideoRequest, decryptJsonEnvelope(request.body, envelopeKey)),
      ),
  );
  scope.post(
    '/calculateROI',
    {
      schema: {
        summary: 'The region of a frame the face must fill for the profile',
        body: CalculateRoiRequest,
        response: { 200: CalculateRoiResponse, ...errors },
      },
    },
    (request) => calculateRoi(requireProfile(request.body.profile.xml, 'profile.xml'), request.body.resolution),
  );
  scope.post(
    '/validateProfile',
    {
      schema: {
        summary: 'Every problem of a face profile (empty when valid)',
        body: ValidateProfileRequest,
        response: { 200: ValidateProfileResponse, ...errors },
      },
    },
    (request) => ({ profileErrors: [...validateProfile(request.body.profile.xml)] }),
  );
  scope.post(
    '/shutdown',
    {
      // The operator's admin key when authentication is on (server/access/authentication.ts).
      config: { access: 'admin' },
      schema: {
        summary: `Stops the server gracefully; disabled unless VERIPORT_ADMIN_CONFIRM is set, then the ${CONFIRM_HEADER} header must carry it`,
        response: { 200: Type.Object({ status: Type.String() }), ...errors },
      },
    },
    async (request, reply) => {
      const header = request.headers[CONFIRM_HEADER];
      const confirm = typeof header === 'string' && /^\d{1,15}$/.test(header) ? Number(header) : Number.NaN;
      if (deps.config.adminConfirmCode !== undefined && Number.isNaN(confirm))
        throw invalidValue(`the ${CONFIRM_HEADER} header must carry the server's confirmation code`);
      await confirmation.check(confirm, 'shutdown');
      request.log.warn('shutdown requested through the face-analysis service');
      reply.raw.once('finish', () => deps.requestShutdown());
      return { status: 'shutting down' };
    },
  );
}

/** Face-image quality, compliance and video autocapture (spec Doc 2 C). */
export const faceAnalysisService: ServiceDefinition = {
  name: 'face-analysis',
  prefix: '/face-analysis',
  description: 'Face-image quality, compliance and video autocapture (Doc 2 C)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  envelopePurpose: 'face-analysis',
  plugin: faceAnalysisRoutes,
};
