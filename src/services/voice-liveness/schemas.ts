import { Type, type Static } from '@sinclair/typebox';
import { errorResponses } from '../../server/schemas/coded-error.js';
import { Base64 } from '../../server/schemas/encrypted-request.js';

/** Optional client description (face liveness's `meta_data` fields); accepted, never used to decide. */
const MetaData = Type.Object(
  {},
  { additionalProperties: true, description: 'username, client_device_brand, ... as in face liveness' },
);

/** A recording; `data` is checked as base64 (-5), then decoded by the voice engine (-7 / -8). */
const VoiceSample = Type.Object({
  data: Base64('voice recording, base64: WAV (PCM or float, any rate), Ogg/Opus or WebM/Opus'),
});

/**
 * The `voice` object of `/analyze`. `voiceSamples` is optional in the schema so that a missing or empty list
 * is the spec's -8 (missing voice samples), not -3; `workflow` is a string so that an unknown one is -9.
 */
export const VoiceLivenessRequest = Type.Object({
  voice: Type.Object({
    voiceSamples: Type.Optional(Type.Array(VoiceSample, { maxItems: 20, description: 'at least one recording' })),
    workflow: Type.Optional(Type.String({ description: 'alfa2, alfa4 (default) or alfa6: stricter as it rises' })),
    securityLevel: Type.Optional(
      Type.Number({ description: '1 to 10 (whole): overrides the level of the workflow digit (docs/voice.md)' }),
    ),
    meta_data: Type.Optional(MetaData),
  }),
});
export type VoiceLivenessRequest = Static<typeof VoiceLivenessRequest>;

/** The `voice` object of `/calculateVoiceLength`: the samples and optional metadata. */
export const VoiceLengthRequest = Type.Object({
  voice: Type.Object({
    voiceSamples: Type.Optional(Type.Array(VoiceSample, { maxItems: 20, description: 'at least one recording' })),
    meta_data: Type.Optional(MetaData),
  }),
});
export type VoiceLengthRequest = Static<typeof VoiceLengthRequest>;

export const LivenessResult = Type.Object({
  decision: Type.String({ description: 'LIVE, SPOOF or UNABLE_TO_CALCULATE_LIVENESS' }),
  score: Type.Number({ description: '100 live, 0 spoof, -1 unable' }),
  score_frr: Type.Number({ description: '-log10 of the live-speech rejection rate at this score; 0 when unable' }),
  feedback: Type.Array(Type.String(), {
    description: 'extension: why no decision (NO_SPEECH, VOICE_TOO_SHORT, VOICE_CLIPPED); empty otherwise',
  }),
});
export type LivenessResult = Static<typeof LivenessResult>;

export const AnalyzeResponse = {
  200: Type.Object({ voice: Type.Object({ livenessResult: LivenessResult }) }),
  ...errorResponses,
};

export const VoiceLengthResponse = {
  200: Type.Object({
    voice: Type.Object({
      voiceSamples: Type.Array(
        Type.Object({ voiceLengthSeconds: Type.Number({ description: 'seconds of speech (voice activity)' }) }),
      ),
    }),
  }),
  ...errorResponses,
};
