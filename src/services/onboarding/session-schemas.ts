import { Type, type Static } from '@sinclair/typebox';
import { StoredText } from '../../server/schemas/stored-text.js';

/** The QR hand-over's request and answer bodies (Doc 1 endpoints 7-9, and the session status extension). */

const Username = StoredText('the user, unique within the customer', { minLength: 1, maxLength: 256 });
const Email = StoredText('e-mail address', { minLength: 3, maxLength: 256 });
const SessionToken = StoredText('from the trigger answer (portal) or the QR data (phone)', {
  minLength: 1,
  maxLength: 128,
});

export const TriggerEnrollRequest = Type.Object({
  username: Username,
  email: Email,
  notifyOptions: Type.Optional(
    Type.Object({
      notifyByEmail: Type.Optional(Type.Boolean({ description: 'also e-mail the sessionCallbackURL to `email`' })),
    }),
  ),
});
export type TriggerEnrollRequest = Static<typeof TriggerEnrollRequest>;

export const TriggerAuthenticateRequest = Type.Object({
  username: Username,
  notifyOptions: Type.Optional(
    Type.Object({
      notifyByPush: Type.Optional(
        Type.Boolean({ description: "also push the sessionCallbackURL to the user's phone (push webhook)" }),
      ),
    }),
  ),
});
export type TriggerAuthenticateRequest = Static<typeof TriggerAuthenticateRequest>;

export const TriggerResponse = Type.Object({
  status: Type.String({ description: 'SUCCESS' }),
  sessionCallbackURL: Type.String({
    description: 'the URL the QR code holds; its `data` parameter is host&apikey&sessionToken, RSA-encrypted',
  }),
  qrcodeImage: Type.String({ description: 'PNG of the QR code, base64' }),
  sessionToken: Type.String({ description: 'single use, short-lived (VERIPORT_SESSION_TTL_SECONDS)' }),
  errorSummary: Type.Union([Type.Null(), Type.String()], {
    description: 'null; or, when a notification was asked for, why none was sent (the session stands)',
  }),
});
export type TriggerResponse = Static<typeof TriggerResponse>;

/** A refused trigger: the trigger answer's fields with `status` FAILURE, and the coded error of the other calls. */
export const TriggerError = Type.Object(
  {
    status: Type.String({ description: 'FAILURE' }),
    sessionCallbackURL: Type.Null(),
    qrcodeImage: Type.Null(),
    sessionToken: Type.Null(),
    errorSummary: Type.String(),
    error: Type.Object({ code: Type.Integer(), description: Type.String() }),
  },
  { description: 'status FAILURE, errorSummary why, and error {code, description} as on every coded call' },
);
export type TriggerError = Static<typeof TriggerError>;

export const ValidateSessionRequest = Type.Object({ sessionToken: SessionToken });
export type ValidateSessionRequest = Static<typeof ValidateSessionRequest>;

export const ValidateSessionResponse = Type.Object({
  accessToken: Type.String({
    description: "bearer token of this session's calls only (with the QR's apikey); dies with the session",
  }),
  methodType: Type.String({ description: 'enroll or authenticate' }),
  customerName: Type.String(),
  customerLogo: Type.String({ description: 'may be empty' }),
  userName: Type.String(),
  email: Type.String(),
  matchCode: Type.String({ description: 'extension: the 6 digits the portal shows too (RFC 10027 binding)' }),
  expiresIn: Type.Integer({ description: 'extension: seconds the accessToken works, unless the session ends first' }),
});
export type ValidateSessionResponse = Static<typeof ValidateSessionResponse>;

export const SessionStatusRequest = Type.Object({ sessionToken: SessionToken });
export type SessionStatusRequest = Static<typeof SessionStatusRequest>;

export const SessionStatusResponse = Type.Object({
  status: Type.String({ description: 'SUCCESS' }),
  methodType: Type.String(),
  userName: Type.String(),
  state: Type.String({
    description:
      'created, scanned, started, device-added, device-verified, face-captured, complete, failed, superseded, expired',
  }),
  matchCode: Type.Union([Type.Null(), Type.String()], { description: 'null until a phone validated the session' }),
  expiresAt: Type.String({
    description: 'ISO 8601: the end of the sessionToken, after validation of the access token',
  }),
  errorSummary: Type.Null(),
});
export type SessionStatusResponse = Static<typeof SessionStatusResponse>;
