import { Type, type Static } from '@sinclair/typebox';
import { Base64, EncryptedRequest } from '../../server/schemas/encrypted-request.js';

/** Optional client description; `client_device_brand`/`_model` feed the virtual-camera and emulator signals. */
export const MetaData = Type.Object(
  {
    username: Type.Optional(Type.String()),
    client_device_brand: Type.Optional(Type.String()),
    client_device_model: Type.Optional(Type.String()),
    client_os_version: Type.Optional(Type.String()),
    client_version: Type.Optional(Type.String()),
    localization: Type.Optional(Type.String()),
    programming_language_version: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const Frame = Type.Object({
  data: Base64('JPEG (quality 90 recommended) or PNG frame, base64'),
  tags: Type.Optional(
    Type.Union([Type.Array(Type.String()), Type.Number()], {
      description: 'e.g. ["ACTIVE_HEAD_UP"]; the schema of the spec declares a number',
    }),
  ),
  timestamp: Type.Number({ description: 'milliseconds; strictly increasing across frames' }),
});

const Fraction = (description: string) => Type.Number({ description: `${description}; 0 to 1` });

export const WorkflowData = Type.Object({
  workflow: Type.String({ description: 'hotel2|4|6, foxtrot2|4|6, charlie2|4|6, active_up|down|left|right' }),
  intelligentLiveness: Type.Optional(
    Type.Object({ lightTraceMode: Type.Optional(Type.String({ description: 'NORMAL (default) or STRICT' })) }),
  ),
  frames: Type.Array(Frame),
  security_level: Type.Optional(
    Type.Integer({ description: '1 (most usable) to 10 (most secure); overrides the workflow digit' }),
  ),
  timestamp: Type.Optional(Type.Number({ description: 'when the package was made, milliseconds since 1970' })),
  face_detection_granularity: Type.Optional(Fraction('detector granularity')),
  face_detection_sensitivity: Type.Optional(Fraction('detector sensitivity')),
  face_detection_min_size: Type.Optional(Fraction('smallest face, as a share of the shorter image side')),
  face_detection_max_size: Type.Optional(Fraction('largest face, as a share of the shorter image side')),
  face_detection_mode: Type.Optional(
    Type.String({
      description: 'FACE_ORDERING_BY_SIZE, FACE_ORDERING_BY_SCORE, DOMINANT_FACE_BY_SIZE or DOMINANT_FACE_BY_SCORE',
    }),
  ),
  rotation: Type.Optional(Type.Number({ description: '0, 90, 180 or 270 (clockwise), applied before analysis' })),
  perform_construction: Type.Optional(Type.Boolean()),
  challenge: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 128,
      description:
        'Extension (not in the spec): the nonce of POST /face-liveness/challenge; the request must then follow it (docs/liveness.md)',
    }),
  ),
});
export type WorkflowData = Static<typeof WorkflowData>;

export const FaceLivenessRequest = Type.Object({
  video: Type.Object({ meta_data: Type.Optional(MetaData), workflow_data: WorkflowData }),
});
export type FaceLivenessRequest = Static<typeof FaceLivenessRequest>;

const Signal = Type.Object({
  status: Type.String({ description: 'PASS, FAIL or ERROR' }),
  mode: Type.String({ description: 'DECISIONING or REPORT_ONLY' }),
});

export const LivenessResult = Type.Object({
  decision: Type.String(),
  score: Type.Number({ description: '100 live, 0 spoof, -1 no decision' }),
  score_frr: Type.Number({ description: '-log10 of the false-rejection rate a threshold at this score would cause' }),
  feedback: Type.Array(Type.String()),
  decision_info: Type.Object({
    IAD: Type.Object({ signals: Type.Record(Type.String(), Signal) }),
    PAD: Type.Object({ status: Type.String(), spoof_type_probability: Type.Record(Type.String(), Type.Number()) }),
  }),
});

export const CheckLivenessResponse = Type.Object({
  video: Type.Object({ liveness_result: LivenessResult, version: Type.String(), timestamp: Type.Number() }),
});

export const EncryptedLivenessRequest = Type.Object(
  {
    key: EncryptedRequest.properties.key,
    iv: EncryptedRequest.properties.iv,
    p: EncryptedRequest.properties.p,
    workflow_data: Type.Optional(
      Type.Object({
        intelligentLiveness: Type.Optional(Type.Object({ lightTraceMode: Type.Optional(Type.String()) })),
      }),
    ),
  },
  { description: 'encrypted faceLivenessRequest, with an optional intelligentLiveness override' },
);
export type EncryptedLivenessRequest = Static<typeof EncryptedLivenessRequest>;

export const AnalyzeResponse = Type.Object({
  video: Type.Object({
    autocapture_result: Type.Object({
      captured_frame: Type.String({
        description: 'base64 JPEG: the best frame, or the portrait built from it; empty when no frame has a face',
      }),
      captured_frame_is_constructed: Type.Boolean(),
      feedback: Type.Array(Type.String()),
    }),
    liveness_result: LivenessResult,
    version: Type.String(),
    timestamp: Type.Number(),
  }),
});

export const ActiveLivenessRequest = Type.Array(FaceLivenessRequest, {
  description: 'exactly 3 requests: 1 passive workflow and 2 active ones',
});
export type ActiveLivenessRequest = Static<typeof ActiveLivenessRequest>;

export const ActiveLivenessResponse = Type.Object({
  video: Type.Object({
    liveness_result: Type.Object({
      feedback: Type.Array(Type.String()),
      score: Type.Number(),
      decision: Type.String(),
      score_frr: Type.Number(),
      details: Type.Object({ passive_liveness: LivenessResult, active_liveness: LivenessResult }),
    }),
    version: Type.String(),
    timestamp: Type.Number(),
  }),
});

export const ChallengeRequest = Type.Object({
  workflow: Type.String({
    maxLength: 32,
    description: 'the passive workflow the request will use: hotel2|4|6, foxtrot2|4|6, charlie2|4|6',
  }),
  active: Type.Optional(
    Type.Boolean({
      description: 'true: for /checkActiveLiveness (its passive request uses `workflow`); two head moves are drawn',
    }),
  ),
});
export type ChallengeRequest = Static<typeof ChallengeRequest>;

export const ChallengeResponse = Type.Object({
  challenge: Type.String({ description: 'single-use nonce: send it as workflow_data.challenge' }),
  workflow: Type.String({ description: 'the passive workflow the request must name' }),
  screenColours: Type.Array(Type.String(), {
    description: 'charlie: show these colours in this order, tag each frame with the one on screen; else empty',
  }),
  activeWorkflows: Type.Array(Type.String(), {
    description: 'active: the workflows of the two active requests, in this order; else empty',
  }),
  issuedAt: Type.Number({ description: 'milliseconds since 1970' }),
  expiresAt: Type.Number({ description: 'milliseconds since 1970: the request must arrive before' }),
  expiresIn: Type.Integer({ description: 'seconds from issuance to expiry' }),
});
