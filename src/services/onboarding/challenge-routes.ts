import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses as errors } from '../../server/schemas/coded-error.js';
import type { AuthenticationFlow } from './authentication.js';
import { customerOf } from './authenticated-scope.js';
import type { EnrollmentFlow } from './enrollment.js';
import { AuthenticationChallengeRequest, EnrollmentChallengeRequest, FaceChallengeResponse } from './schemas.js';

/** Said of both routes in the OpenAPI document. */
const EXTENSION =
  'Veriport extension beyond Doc 1 (issue 16), against pre-recorded face samples: a nonce valid once, for ' +
  "VERIPORT_LIVENESS_CHALLENGE_TTL_SECONDS (default 60), and only in this flow's face call, sent there as " +
  'faceLivenessData.video.workflow_data.challenge; under a charlie policy also the screen colours to show, in ' +
  'order, each frame tagged with the colour on screen. Refusals: 404 unknown, 403 issued for another flow, ' +
  '409 used, 410 expired, 400 -6 not followed (docs/onboarding.md).';

/**
 * The challenge calls of the face steps: `POST /onboarding/enrollment/challenge` (before addFace) and
 * `POST /onboarding/authentication/challenge` (before verifyFace). Mount inside a {@link requireAccess} scope.
 *
 * @example
 * challengeRoutes(scope, enrollmentFlow(context), authenticationFlow(context));
 */
export function challengeRoutes(
  app: FastifyInstance,
  enrollment: EnrollmentFlow,
  authentication: AuthenticationFlow,
): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  scope.post(
    '/onboarding/enrollment/challenge',
    {
      schema: {
        summary: "Extension (not in the spec): a single-use challenge for this enrollment's addFace",
        description: EXTENSION,
        body: EnrollmentChallengeRequest,
        response: { 200: FaceChallengeResponse, ...errors },
      },
    },
    async (request) => enrollment.challenge(customerOf(request).name, request.body),
  );
  scope.post(
    '/onboarding/authentication/challenge',
    {
      schema: {
        summary: "Extension (not in the spec): a single-use challenge for this authentication's verifyFace",
        description: EXTENSION,
        body: AuthenticationChallengeRequest,
        response: { 200: FaceChallengeResponse, ...errors },
      },
    },
    async (request) => authentication.challenge(customerOf(request).name, request.body),
  );
}
