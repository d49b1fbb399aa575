import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { decryptJsonEnvelope } from '../../crypto/envelope.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { CodedError } from '../../server/schemas/coded-error.js';
import { checkBody } from '../../server/validation.js';
import { versionText } from '../../server/version.js';
import { parseLivenessRequest } from '../../engines/liveness/liveness-request.js';
import { assessActiveLiveness } from './active-liveness.js';
import { bestFrame, constructPortrait, frameFeedback } from './autocapture.js';
import { analyzeFrames, decidePassiveLiveness, livenessContext } from '../../engines/liveness/passive-liveness.js';
import {
  ActiveLivenessRequest,
  ActiveLivenessResponse,
  AnalyzeResponse,
  CheckLivenessResponse,
  EncryptedLivenessRequest,
  FaceLivenessRequest,
} from './schemas.js';
import { EncryptedRequest } from '../../server/schemas/encrypted-request.js';
import { invalidValue } from '../../server/errors/api-error.js';

const SERVICE = 'face-liveness';

async function faceLivenessRoutes(app: FastifyInstance, deps: ServiceDependencies): Promise<void> {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const version = versionText(SERVICE);
  addVersionRoute(app, SERVICE);

  const context = (now: number) => livenessContext(deps.config, now);
  const passiveRequest = async (body: FaceLivenessRequest) => {
    const request = await parseLivenessRequest(body.video.workflow_data, body.video.meta_data);
    if (request.workflow.method === 'active')
      throw invalidValue(
        `workflow ${request.workflow.name} is active: send it with the passive request to /checkActiveLiveness`,
      );
    return request;
  };

  const checkLiveness = async (body: FaceLivenessRequest) => {
    const request = await passiveRequest(body);
    const now = Date.now();
    const result = decidePassiveLiveness(request, await analyzeFrames(deps.faceEngine(), request), context(now));
    return { video: { liveness_result: result, version, timestamp: now } };
  };

  const analyze = async (body: FaceLivenessRequest) => {
    const request = await passiveRequest(body);
    const now = Date.now();
    const frames = await analyzeFrames(deps.faceEngine(), request);
    const result = decidePassiveLiveness(request, frames, context(now));
    const best = bestFrame(frames.map(frameFeedback));
    const construct = body.video.workflow_data.perform_construction === true && best?.face !== undefined;
    const captured =
      best === undefined
        ? ''
        : construct
          ? (await constructPortrait(request.frames[best.index]!.bytes, best.face!, request.rotation)).toString(
              'base64',
            )
          : body.video.workflow_data.frames[best.index]!.data;
    const autocapture = {
      captured_frame: captured,
      captured_frame_is_constructed: construct,
      feedback:
        best?.feedback ??
        frames.flatMap((f, i) => frameFeedback(f, i).feedback).filter((code, i, all) => all.indexOf(code) === i),
    };
    return { video: { autocapture_result: autocapture, liveness_result: result, version, timestamp: now } };
  };

  const openPackage = (body: EncryptedLivenessRequest): FaceLivenessRequest => {
    const { workflow_data: override, ...envelope } = body;
    const inner = checkBody<FaceLivenessRequest>(
      FaceLivenessRequest,
      decryptJsonEnvelope(envelope, deps.serverKeys.privateKey),
    );
    if (override?.intelligentLiveness !== undefined)
      inner.video.workflow_data.intelligentLiveness = override.intelligentLiveness;
    return inner;
  };

  const errors = { '4xx': CodedError, '5xx': CodedError };

  const checkActive = async (body: ActiveLivenessRequest) => {
    if (body.length !== 3)
      throw invalidValue(`checkActiveLiveness takes exactly 3 requests: 1 passive and 2 active (got ${body.length})`);
    const requests = await Promise.all(
      body.map((item) => parseLivenessRequest(item.video.workflow_data, item.video.meta_data)),
    );
    const passive = requests.filter((r) => r.workflow.method !== 'active');
    const actives = requests.filter((r) => r.workflow.method === 'active');
    if (passive.length !== 1 || actives.length !== 2) {
      throw invalidValue(
        `checkActiveLiveness takes 1 passive and 2 active requests (got ${passive.length} passive, ${actives.length} active)`,
      );
    }
    const now = Date.now();
    const result = await assessActiveLiveness(deps.faceEngine(), passive[0]!, actives, context(now));
    return { video: { liveness_result: result, version, timestamp: now } };
  };

  scope.post(
    '/checkActiveLiveness',
    {
      schema: {
        summary: 'Passive liveness plus two asked head turns',
        body: ActiveLivenessRequest,
        response: { 200: ActiveLivenessResponse, ...errors },
      },
    },
    async (request) => checkActive(request.body),
  );

  scope.post(
    '/checkActiveLivenessEncrypted',
    {
      schema: {
        summary: '/checkActiveLiveness of an encrypted package (the JSON array sealed)',
        body: EncryptedRequest,
        response: { 200: ActiveLivenessResponse, ...errors },
      },
    },
    async (request) =>
      checkActive(
        checkBody<ActiveLivenessRequest>(
          ActiveLivenessRequest,
          decryptJsonEnvelope(request.body, deps.serverKeys.privateKey),
        ),
      ),
  );

  scope.post(
    '/analyze',
    {
      schema: {
        summary: 'Passive liveness with autocapture feedback and the captured frame',
        body: FaceLivenessRequest,
        response: { 200: AnalyzeResponse, ...errors },
      },
    },
    async (request) => analyze(request.body),
  );

  scope.post(
    '/analyzeEncrypted',
    {
      schema: {
        summary: '/analyze of an encrypted package',
        body: EncryptedLivenessRequest,
        response: { 200: AnalyzeResponse, ...errors },
      },
    },
    async (request) => analyze(openPackage(request.body)),
  );

  scope.post(
    '/checkLiveness',
    {
      schema: {
        summary: 'Passive liveness of a frame sequence',
        body: FaceLivenessRequest,
        response: { 200: CheckLivenessResponse, '4xx': CodedError, '5xx': CodedError },
      },
    },
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
    async (request) => checkLiveness(openPackage(request.body)),
  );

  scope.post(
    '/decrypt',
    {
      schema: {
        summary: 'Opens an encrypted package and returns it as it was before encryption',
        body: EncryptedRequest,
        response: {
          200: { description: 'the original package: any JSON, as it was encrypted' },
          '4xx': CodedError,
          '5xx': CodedError,
        },
      },
    },
    async (request) => decryptJsonEnvelope(request.body, deps.serverKeys.privateKey),
  );
}

/** Face liveness (spec Doc 2 A): passive and active liveness, autocapture, each plain and encrypted, and `/decrypt`. */
export const faceLivenessService: ServiceDefinition = {
  name: 'face-liveness',
  prefix: '/face-liveness',
  description: 'Face liveness: passive and active workflows (Doc 2 A)',
  errorStyle: 'coded',
  jsonAsTextPlain: false,
  plugin: faceLivenessRoutes,
};
