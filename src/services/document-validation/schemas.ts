import { Type, type Static } from '@sinclair/typebox';
import { Base64 } from '../../server/schemas/encrypted-request.js';

/** Doc 3 C `validateRequest`. Only `documentImages` is required (the spec does not say; nothing is read without it). */
export const ValidateRequest = Type.Object({
  encryptedDocument: Type.Optional(
    Type.Object(
      {},
      {
        additionalProperties: true,
        description:
          'free-form JSON of the capture SDK; chip data as `dg1`…`dg16`, `sod` (EF.SOD) and optional `dsCertificate` ' +
          "(DER), each base64 of the file as read, or that object sealed as {key, iv, p} for 'document-validation' " +
          '(docs/documents.md, Chip data); without these members the chip checks are NOT_PERFORMED',
      },
    ),
  ),
  documentImages: Type.Array(
    Type.Object({
      image: Base64('JPEG or PNG photo or scan of one page, base64'),
      pageIndex: Type.Number({ description: 'page number' }),
    }),
  ),
  transactionId: Type.Optional(Type.String({ maxLength: 256 })),
});
export type ValidateRequest = Static<typeof ValidateRequest>;

export const CheckValue = Type.Union([
  Type.Literal('PASS'),
  Type.Literal('FAIL'),
  Type.Literal('NOT_PERFORMED'),
  Type.Literal('NOT_SUPPORTED'),
]);
export type CheckValue = Static<typeof CheckValue>;

export const DateValue = Type.Object({
  year: Type.Optional(Type.Number()),
  month: Type.Optional(Type.Number({ description: '1 to 12; absent when printed unknown (<<)' })),
  day: Type.Optional(Type.Number({ description: '1 to 31; absent when printed unknown (<<)' })),
  text: Type.String({ description: 'the raw date text (YYMMDD in the MRZ)' }),
});
export type DateValue = Static<typeof DateValue>;

/** The document-fields object; a field is absent where the source did not give it. */
export const DocumentFields = Type.Object({
  documentCode: Type.Optional(Type.String()),
  issuingState: Type.Optional(Type.String()),
  surname: Type.Optional(Type.String()),
  givenName: Type.Optional(Type.String()),
  documentNumber: Type.Optional(Type.String()),
  nationality: Type.Optional(Type.String()),
  dateOfBirth: Type.Optional(DateValue),
  gender: Type.Optional(Type.String({ description: "M, F or '<' (unspecified)" })),
  dateOfExpiry: Type.Optional(DateValue),
  personalNumber: Type.Optional(Type.String()),
  optionalData1: Type.Optional(Type.String()),
  optionalData2: Type.Optional(Type.String()),
});
export type DocumentFields = Static<typeof DocumentFields>;

export const QualityResult = Type.Object({
  glare: CheckValue,
  blur: CheckValue,
  resolution: CheckValue,
  color: CheckValue,
  perspective: CheckValue,
  bounds: CheckValue,
  pageIndex: Type.Number(),
});
export type QualityResult = Static<typeof QualityResult>;

export const RfidSecurity = Type.Object({
  basicAccessControl: CheckValue,
  activeAuthentication: CheckValue,
  chipAuthentication: CheckValue,
  pace: CheckValue,
  passiveAuthentication: Type.Union([CheckValue, Type.Literal('incorrectDsCertificate')]),
  overall: CheckValue,
});
export type RfidSecurity = Static<typeof RfidSecurity>;

/** Extension (not in the spec): what the MRZ parser found, so a caller can weigh the fields. */
export const MrzAnalysis = Type.Object({
  pageIndex: Type.Number(),
  format: Type.String({ description: 'TD1, TD2, TD3, MRV-A, MRV-B or FRENCH_ID' }),
  valid: Type.Boolean({ description: 'every check digit valid and no error issue' }),
  repaired: Type.Boolean({ description: 'OCR repairs were needed (docs/documents.md, Repair order)' }),
  confidence: Type.Number({ description: 'lowest field confidence, names included' }),
  verifiedConfidence: Type.Number({ description: 'lowest confidence among fields a check digit covers' }),
  checkDigits: Type.Array(
    Type.Object({ name: Type.String(), printed: Type.String(), expected: Type.Number(), valid: Type.Boolean() }),
  ),
  fieldConfidence: Type.Record(Type.String(), Type.Number()),
});
export type MrzAnalysis = Static<typeof MrzAnalysis>;

export const ValidateResponse = Type.Object({
  images: Type.Object({
    document: Type.Array(Type.Object({ image: Type.String(), pageIndex: Type.Number() }), {
      description: 'the pages found (an MRZ read), cropped and deskewed, JPEG base64',
    }),
    opticalPortrait: Type.Optional(Type.String({ description: 'the face printed on the page, JPEG base64' })),
    rfidPortrait: Type.Optional(
      Type.String({
        description:
          "the chip's DG2 face, JPEG base64 (a JPEG 2000 face is decoded and re-encoded); absent without DG2",
      }),
    ),
  }),
  quality: Type.Object({ results: Type.Array(QualityResult) }),
  fields: Type.Object({
    overall: DocumentFields,
    optical: DocumentFields,
    rfid: DocumentFields,
    mrz: DocumentFields,
  }),
  security: Type.Object({
    rfid: RfidSecurity,
    optical: Type.Object({ overall: CheckValue }),
    overall: CheckValue,
    reasons: Type.Array(Type.String()),
  }),
  info: Type.Object({
    documentType: Type.Array(
      Type.Object({
        name: Type.String({ description: 'PASSPORT, IDENTITY_CARD, VISA, TRAVEL_DOCUMENT or UNKNOWN (no MRZ read)' }),
        pageIndex: Type.Number(),
        format: Type.Optional(Type.String({ description: 'Extension: the MRZ layout (TD1, TD3, ...)' })),
      }),
    ),
  }),
  mrz: Type.Optional(MrzAnalysis),
});
export type ValidateResponse = Static<typeof ValidateResponse>;

/** Doc 3 C's error body (400 and 500), unlike the coded services'. */
export const SpringError = Type.Object(
  {
    timestamp: Type.String(),
    status: Type.Integer({ description: 'the HTTP status' }),
    path: Type.String(),
    error: Type.String({ description: 'short classification (the status reason)' }),
    message: Type.String(),
  },
  { description: 'Doc 3 C error body' },
);

export const springErrorResponses = { '4xx': SpringError, '5xx': SpringError } as const;
