import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { fuseForIdentification, fuseScores } from '../engines/scoring/fusion.js';
import { FuseScoresBody, FuseScoresForIdentificationBody, ScoreFusedResponse, ScoresFusedResponse } from './schemas.js';

/**
 * `POST /fuseScores`: the sum of the scoreFmr values of independent modalities (face, voice, ...): the same
 * route in face and voice matching, since fusion knows nothing of the modality.
 *
 * @example
 * addFuseScoresRoute(app); // POST /voice-matching/fuseScores {"scores":[3.2, 2.1]} -> {"scoreFused":5.3}
 */
export function addFuseScoresRoute(app: FastifyInstance): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/fuseScores',
    {
      schema: {
        summary: 'Fuses scoreFmr values of independent modalities (sum)',
        body: FuseScoresBody,
        response: ScoreFusedResponse,
      },
    },
    (request) => ({ scoreFused: fuseScores(request.body.scores) }),
  );
}

/**
 * `POST /fuseScoresForIdentification` (face matching only, Doc 3 A): per candidate, the FPIR-scale fusion of
 * its modalities' 1:N scores.
 *
 * @example
 * addFuseScoresForIdentificationRoute(app);
 */
export function addFuseScoresForIdentificationRoute(app: FastifyInstance): void {
  app.withTypeProvider<TypeBoxTypeProvider>().post(
    '/fuseScoresForIdentification',
    {
      schema: {
        summary: 'Per candidate: FPIR-scale fusion of 1:N scores',
        body: FuseScoresForIdentificationBody,
        response: ScoresFusedResponse,
      },
    },
    (request) => ({ scoresFused: request.body.scores.map((candidate) => fuseForIdentification(candidate)) }),
  );
}
