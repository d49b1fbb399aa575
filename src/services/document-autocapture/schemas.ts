import { Type, type Static } from '@sinclair/typebox';
import { Base64 } from '../../server/schemas/encrypted-request.js';

/** Doc 2 B `workflow`: the document asked for. Checked further in document-kinds.ts (values, CUSTOM members). */
export const DocumentWorkflow = Type.Object({
  documentType: Type.String({
    description: 'DRIVERS_LICENSE (ID-1), PASSPORT (ID-3 page), TURKISH_TITLE_DEED, CUSTOM',
  }),
  aspectRatioWidth: Type.Optional(Type.Integer({ description: 'CUSTOM only: document width, in any unit' })),
  aspectRatioHeight: Type.Optional(Type.Integer({ description: 'CUSTOM only: document height, same unit' })),
  imagePercentage: Type.Optional(
    Type.Number({ description: 'CUSTOM only; 0.0 to 1.0: share of the image width the document must occupy' }),
  ),
  strict: Type.Optional(
    Type.Boolean({
      description: 'Extension (not in the spec): capture only an MRZ whose every check digit holds as read, unrepaired',
    }),
  ),
});
export type DocumentWorkflow = Static<typeof DocumentWorkflow>;

export const AutocaptureDocumentRequest = Type.Object({
  workflow: DocumentWorkflow,
  images: Type.Array(Type.Object({ data: Base64('JPEG or PNG image of the document, base64') }), {
    description: 'frames in capture order; one per call recommended for real-time capture',
  }),
});
export type AutocaptureDocumentRequest = Static<typeof AutocaptureDocumentRequest>;

export const DocumentFeedback = Type.Union([
  Type.Literal('DOCUMENT_FOUND'),
  Type.Literal('DOCUMENT_NOT_FOUND'),
  Type.Literal('TOO_FAR'),
  Type.Literal('TOO_CLOSE'),
  Type.Literal('TOO_BLURRY'),
  Type.Literal('OFF_ANGLE'),
  Type.Literal('WRONG_DOCUMENT'),
]);
export type DocumentFeedback = Static<typeof DocumentFeedback>;

export const AutocaptureDocumentResponse = Type.Object({
  results: Type.Object({
    captured: Type.Boolean(),
    capturedImageIndex: Type.Integer({ description: 'index of the captured image; -1 when captured is false' }),
    imageResults: Type.Array(Type.Object({ imageIndex: Type.Integer(), feedback: DocumentFeedback })),
  }),
});
export type AutocaptureDocumentResponse = Static<typeof AutocaptureDocumentResponse>;

export const CaptureParametersRequest = Type.Object({ workflow: DocumentWorkflow });
export type CaptureParametersRequest = Static<typeof CaptureParametersRequest>;

export const CaptureParametersResponse = Type.Object({
  minimumResolution: Type.Object({ width: Type.Number(), height: Type.Number() }),
});
export type CaptureParametersResponse = Static<typeof CaptureParametersResponse>;

export const CaptureRegionRequest = Type.Object({
  workflow: DocumentWorkflow,
  captureResolution: Type.Object({ width: Type.Number(), height: Type.Number() }),
});
export type CaptureRegionRequest = Static<typeof CaptureRegionRequest>;

export const CaptureRegionResponse = Type.Object({
  x: Type.Number({ description: 'upper-left corner' }),
  y: Type.Number({ description: 'upper-left corner' }),
  width: Type.Number(),
  height: Type.Number(),
});
export type CaptureRegionResponse = Static<typeof CaptureRegionResponse>;
