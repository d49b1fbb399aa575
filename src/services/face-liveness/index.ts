import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { decryptJsonEnvelope } from '../../crypto/envelope.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { CodedError } from '../../server/schemas/coded-error.js';
import { checkBody } from '../../server/validation.js';
import { versionText } from '../../server/version.js';
import { parseLivenessRequest } from './liveness-request.js';
import { assessPassiveLiveness } from './passive-liveness.js';
import { CheckLivenessResponse, EncryptedLivenessRequest, EncryptedRequest, FaceLivenessRequest } from './schemas.js';
import { invalidValue } from '../../server/errors/api-error.js';

const SERVICE = 'face-liveness';

async function faceLivenessRoutes(app: FastifyInstance, deps: ServiceDependencies): Promise<void> {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const version = versionText(SERVICE);
  addVersionRoute(app, SERVICE);

  const checkLiveness = async (body: FaceLivenessRequest) => {
    const request = await parseLivenessRequest(body.video.workflow_data, body.video.meta_data);
    if (request.workflow.method === 'active') throw invalidValue(`workflow ${request.workflow.name} is active: send it with the passive request to /checkActiveLiveness`);
    const now = Date.now();
    const result = await assessPassiveLiveness(deps.faceEngine(), request, {
      now,
      maxAgeMs: deps.config.livenessMaxAgeMs,
      maxSkewMs: deps.config.livenessMaxSkewMs,
      iadModes: deps.config.iadModes,
    });
    return { video: { liveness_result: result, version, timestamp: now } };
  };

  scope.post(
    '/checkLiveness',
    { schema: { summary: 'Passive liveness of a frame sequence', body: FaceLivenessRequest, response: { 200: CheckLivenessResponse, '4xx': CodedError, '5xx': CodedError } } },
    async (request) => checkLiveness(request.body),
  );

  scope.post(
    '/checkLivenessEncrypted',
    {
      schema: {
        summary: 'Passive liveness of an encrypted package; workflow_data.intelligentLiveness overrides the one inside',
        body: EncryptedLivenessRequest,
        response: { 200: CheckLivenessResponse, '4xx': CodedError, '5xx': CodedError },
      },
    },
    async (request) => {
      const { workflow_data: override, ...envelope } = request.body;
      const inner = checkBody<FaceLivenessRequest>(FaceLivenessRequest, decryptJsonEnvelope(envelope, deps.serverKeys.privateKey));
      if (override?.intelligentLiveness !== undefined) inner.video.workflow_data.intelligentLiveness = override.intelligentLiveness;
      return checkLiveness(inner);
    },
  );

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

/** Face liveness (spec Doc 2 A): passive liveness (plain and encrypted) and `/decrypt` so far. */
export const faceLivenessService: ServiceDefinition = {
  name: 'face-liveness',
  prefix: '/face-liveness',
  description: 'Face liveness: passive and active workflows (Doc 2 A)',
  errorStyle: 'coded',
  jsonAsTextPlain: false,
  plugin: faceLivenessRoutes,
};
