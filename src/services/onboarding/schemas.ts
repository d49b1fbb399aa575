import { Type, type Static } from '@sinclair/typebox';
import { StoredText } from '../../server/schemas/stored-text.js';

/** Bounded identifier-like strings: a caller can never make us store or hash megabytes. */
const Text = (description: string, maxLength = 256) => StoredText(description, { minLength: 1, maxLength });
const OptionalText = (description: string) => Type.Optional(StoredText(description, { maxLength: 256 }));
/** 256-bit random values in base64url (enrollment and auth tokens, registration codes). */
const Token = (description: string) => StoredText(description, { minLength: 1, maxLength: 128 });

export const EnrollRequest = Type.Object({
  username: Text('the user, unique within the customer'),
  firstName: OptionalText('optional'),
  lastName: OptionalText('optional'),
  email: Text('e-mail address'),
  phoneNumber: Text('phone number', 64),
  registrationCode: Type.Optional(
    Token("re-enrollment: the user's current registration code; without it the new face must match the enrolled one"),
  ),
});
export type EnrollRequest = Static<typeof EnrollRequest>;

export const EnrollResponse = Type.Object({
  enrollmentToken: Type.String(),
  userExistsAlready: Type.Boolean(),
  requiredChecks: Type.Array(Type.String(), { description: 'addDevice, addFace' }),
});

export const AddDeviceRequest = Type.Object({
  enrollmentToken: Token('from enroll'),
  deviceId: Text('per-device identifier of the client platform'),
  devicePublicKey: Type.Optional(
    Type.String({
      maxLength: 4096,
      description:
        'P-256 or Ed25519 public key, SPKI as PEM or base64 DER; without it the response carries an HMAC deviceSecret',
    }),
  ),
});
export type AddDeviceRequest = Static<typeof AddDeviceRequest>;

export const AddDeviceResponse = Type.Object({
  enrollmentStatus: Type.Integer({ description: '1 = pending (the face step is next)' }),
  registrationCode: Type.String({ description: 'empty until addFace completes the enrollment' }),
  deviceSecret: Type.Optional(
    Type.String({
      description: 'only when no devicePublicKey was sent: the HMAC-SHA256 key for verifyDevice, returned once',
    }),
  ),
});

const Frame = Type.Object({
  data: Type.String({
    minLength: 1,
    description:
      'the frame (JPEG or PNG) sealed in a {key, iv, p} envelope under GET /getPublicKey: the envelope JSON, or that JSON in base64',
  }),
  tags: Type.Optional(Type.Union([Type.Array(Type.String({ maxLength: 64 }), { maxItems: 16 }), Type.Number()])),
  timestamp: Type.Number({ description: 'milliseconds; strictly increasing' }),
});

/** The face data package of Doc 1 (`faceLivenessData`). */
export const FaceLivenessData = Type.Object({
  video: Type.Object({
    workflow_data: Type.Object(
      {
        workflow: Type.Optional(
          Type.String({ description: "informative: the customer's policy decides the workflow" }),
        ),
        rotation: Type.Optional(Type.Number({ description: '0, 90, 180 or 270' })),
        frames: Type.Array(Frame, { minItems: 1, maxItems: 10 }),
        timestamp: Type.Optional(Type.Number()),
        challenge: Type.Optional(
          Token(
            'extension: the nonce of the enrollment or authentication challenge call; the sample must then follow it',
          ),
        ),
      },
      { additionalProperties: true },
    ),
    meta_data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    client_version: Type.Optional(Type.String()),
  }),
});
export type FaceLivenessData = Static<typeof FaceLivenessData>;

export const AddFaceRequest = Type.Object({
  enrollmentToken: Token('from enroll'),
  faceLivenessData: FaceLivenessData,
});
export type AddFaceRequest = Static<typeof AddFaceRequest>;

const LivenessSummary = Type.Object({
  video: Type.Object({
    liveness_result: Type.Object({
      decision: Type.String({ description: 'LIVE, SPOOF or why none could be made (face-liveness decisions)' }),
      feedback: Type.Array(Type.String()),
      score_frr: Type.Number(),
    }),
  }),
});

export const AddFaceResponse = Type.Object({
  livenessResult: Type.Boolean(),
  enrollmentStatus: Type.Integer({
    description: '2 complete, 1 pending (another sample may be sent), 0 failed (attempts used up)',
  }),
  registrationCode: Type.String({
    description: 'filled when the enrollment completes; keep it: authentication starts with it',
  }),
  livenessResults: LivenessSummary,
  message: Type.Optional(Type.String({ description: 'why the enrollment did not complete' })),
});

export const AuthenticateRequest = Type.Object({
  registrationCode: Token('from the completed enrollment'),
  deviceId: Text('the enrolled device'),
});
export type AuthenticateRequest = Static<typeof AuthenticateRequest>;

export const AuthenticateResponse = Type.Object({
  authToken: Type.String({ description: 'sign it with the device key for verifyDevice; single use, short-lived' }),
  requiredChecks: Type.Array(Type.String(), {
    description: 'verifyDevice, then verifyFace or deviceSecurity (customer policy)',
  }),
});

export const VerifyDeviceRequest = Type.Object({
  authToken: Token('from authenticate'),
  signature: Type.String({
    minLength: 1,
    maxLength: 512,
    description:
      'base64 or base64url signature of the authToken (UTF-8) by the device key, or its HMAC-SHA256 under the deviceSecret',
  }),
  deviceId: Text('the enrolled device'),
});
export type VerifyDeviceRequest = Static<typeof VerifyDeviceRequest>;

export const VerifyDeviceResponse = Type.Object({
  message: Type.String(),
  authStatus: Type.Integer({ description: '1: device verified' }),
});

export const VerifyFaceRequest = Type.Object({
  authToken: Token('from authenticate'),
  faceLivenessData: FaceLivenessData,
});
export type VerifyFaceRequest = Static<typeof VerifyFaceRequest>;

const MatchItem = Type.Object({
  verifyResult: Type.Boolean(),
  modality: Type.String(),
  fmrScore: Type.Number({ description: '-log10(FMR) of the F500 comparison' }),
  biometricMatchedCount: Type.Integer(),
  biometricsOnServer: Type.String(),
  matchResultReference: Type.Null(),
});

export const VerifyFaceResponse = Type.Object({
  livenessResult: Type.Boolean(),
  matchResult: Type.Boolean(),
  matchScore: Type.Number({ description: 'calibrated 0-100 (docs/scores.md)' }),
  authStatus: Type.Integer({ description: '2 authenticated, 1 not yet (retry), 0 failed (attempts used up)' }),
  faceLivenessResults: LivenessSummary,
  faceMatchResults: Type.Object({
    statusMessages: Type.Array(Type.String()),
    verifyResult: Type.Boolean(),
    matchScore: Type.Number(),
    biometricMatchedCount: Type.Integer(),
    biometricsOnServer: Type.String(),
    biometricMatchResultList: Type.Array(MatchItem),
    matchingMinutia: Type.Null(),
  }),
});

export const EnrollmentChallengeRequest = Type.Object({ enrollmentToken: Token('from enroll, device added') });
export type EnrollmentChallengeRequest = Static<typeof EnrollmentChallengeRequest>;

export const AuthenticationChallengeRequest = Type.Object({ authToken: Token('from authenticate, device verified') });
export type AuthenticationChallengeRequest = Static<typeof AuthenticationChallengeRequest>;

export const FaceChallengeResponse = Type.Object({
  challenge: Type.String({
    description: 'single-use nonce: send it as faceLivenessData.video.workflow_data.challenge of this flow only',
  }),
  workflow: Type.String({ description: "the customer's liveness workflow the sample is judged under" }),
  screenColours: Type.Array(Type.String(), {
    description: 'charlie: show these colours in this order, tag each frame with the one on screen; else empty',
  }),
  issuedAt: Type.Number({ description: 'milliseconds since 1970' }),
  expiresAt: Type.Number({ description: 'milliseconds since 1970: the sample must arrive before' }),
  expiresIn: Type.Integer({ description: 'seconds from issuance to expiry' }),
});
