import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { addPublicKeyRoute } from '../../server/public-key-route.js';
import { EncryptedRequest } from '../../server/schemas/encrypted-request.js';
import type { ServiceDefinition, ServiceDependencies } from '../../server/service-definition.js';
import { addVersionRoute } from '../../server/version-route.js';
import { VOICE_LIVENESS, voiceLivenessContext } from './liveness-context.js';
import { openAnalyzePackage, openVoiceLengthPackage } from './liveness-packages.js';
import { AnalyzeResponse, VoiceLengthRequest, VoiceLengthResponse, VoiceLivenessRequest } from './schemas.js';
import { analyzeVoice, calculateVoiceLength } from './voice-analysis.js';

/** The routes: schemas and one call each into the domain module (voice-analysis), plain and encrypted. */
function voiceLivenessRoutes(app: FastifyInstance, deps: ServiceDependencies): void {
  const scope = app.withTypeProvider<TypeBoxTypeProvider>();
  const liveness = voiceLivenessContext(deps);
  const { envelopeKey } = liveness;
  addVersionRoute(app, VOICE_LIVENESS);
  addPublicKeyRoute(app, envelopeKey, '*Encrypted packages');

  scope.post(
    '/analyze',
    {
      schema: {
        summary: 'Live speech or spoof (synthesis, replay) of voice samples',
        body: VoiceLivenessRequest,
        response: AnalyzeResponse,
      },
    },
    (request) => analyzeVoice(liveness, request.body),
  );

  scope.post(
    '/analyzeEncrypted',
    {
      schema: { summary: '/analyze of an encrypted package', body: EncryptedRequest, response: AnalyzeResponse },
    },
    (request) => analyzeVoice(liveness, openAnalyzePackage(envelopeKey, request.body)),
  );

  scope.post(
    '/calculateVoiceLength',
    {
      schema: {
        summary: 'Seconds of speech in each voice sample',
        body: VoiceLengthRequest,
        response: VoiceLengthResponse,
      },
    },
    (request) => calculateVoiceLength(liveness, request.body),
  );

  scope.post(
    '/calculateVoiceLengthEncrypted',
    {
      schema: {
        summary: '/calculateVoiceLength of an encrypted package',
        body: EncryptedRequest,
        response: VoiceLengthResponse,
      },
    },
    (request) => calculateVoiceLength(liveness, openVoiceLengthPackage(envelopeKey, request.body)),
  );
}

/** Voice liveness (spec Doc 2 D): live or spoof, and the length of speech, each plain and encrypted. */
export const voiceLivenessService: ServiceDefinition = {
  name: 'voice-liveness',
  prefix: '/voice-liveness',
  description: 'Voice liveness (Doc 2 D)',
  errorStyle: 'coded',
  jsonAsTextPlain: true,
  envelopePurpose: 'voice-liveness',
  plugin: voiceLivenessRoutes,
};
