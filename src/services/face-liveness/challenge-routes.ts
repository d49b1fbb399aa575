import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { customerScopeOf } from '../../server/access/customer-scope.js';
import { errorResponses } from '../../server/schemas/coded-error.js';
import { issueLivenessChallenge } from './liveness-challenge.js';
import type { FaceLivenessContext } from './liveness-context.js';
import { ChallengeRequest, ChallengeResponse } from './schemas.js';

/**
 * Adds `POST /challenge`, an extension beyond the spec (issue 16): a short-lived single-use nonce with the
 * screen colours (charlie) or head moves (active) the next liveness request must show. Behind the
 * service's authentication like its other routes, counted in the usage report like them.
 *
 * @example
 * addChallengeRoute(app, liveness); // POST /face-liveness/challenge {"workflow":"charlie4"}
 */
export function addChallengeRoute(app: FastifyInstance, liveness: FaceLivenessContext): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/challenge',
    {
      schema: {
        summary: 'Extension (not in the spec): a single-use challenge the next liveness request must follow',
        description:
          'Veriport extension beyond the spec, against pre-recorded sequences. The answer holds a nonce, valid once ' +
          'and for VERIPORT_LIVENESS_CHALLENGE_TTL_SECONDS (default 60), and what the request that carries it as ' +
          "workflow_data.challenge must show: the workflow, a charlie workflow's screen colours in order (tag each " +
          'frame with the colour on screen), with active: true the two active workflows of /checkActiveLiveness in ' +
          'order. A replayed, expired or foreign nonce, or a request that does not follow it, is 400 -6; more than ' +
          'VERIPORT_LIVENESS_CHALLENGE_MAX_OPEN open challenges is 429 (docs/liveness.md).',
        body: ChallengeRequest,
        response: { 200: ChallengeResponse, ...errorResponses },
      },
    },
    (request) => issueLivenessChallenge(liveness, customerScopeOf(request), request.body),
  );
}
