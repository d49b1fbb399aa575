import { Type, type Static } from '@sinclair/typebox';

import { Base64 } from '../../server/schemas/encrypted-request.js';
const Fraction = (description: string) => Type.Optional(Type.Number({ description: `${description}; 0 to 1` }));
const DetectionMode = Type.Optional(
  Type.String({
    description:
      'FACE_ORDERING_BY_SIZE (default: every face, largest first), FACE_ORDERING_BY_SCORE, DOMINANT_FACE_BY_SIZE, DOMINANT_FACE_BY_SCORE (one face)',
  }),
);
const ProfileXml = Type.String({
  maxLength: 1_000_000,
  description: 'face profile XML (docs/face-analysis.md#profiles)',
});

export const AnalyzeImageRequest = Type.Object({
  images: Type.Array(
    Type.Object({
      id: Type.String({ maxLength: 256 }),
      input: Type.Object({
        imageData: Base64('JPEG or PNG'),
        rotation: Type.Optional(Type.Number({ description: '0, 90, 180 or 270 (clockwise), applied before analysis' })),
        faceSensitivity: Fraction('detector sensitivity (1 keeps every face the detector reports)'),
        faceGranularity: Fraction('accepted, no effect: the detector runs in one pass'),
        faceMinimumSize: Fraction('smallest face width, as a share of the shorter image side'),
        faceMaximumSize: Fraction('largest face width, as a share of the shorter image side'),
        faceDetectionMode: DetectionMode,
      }),
      output: Type.Array(
        Type.Object({
          id: Type.String({ maxLength: 256 }),
          profileXml: Type.Optional(ProfileXml),
          performConstruction: Type.Optional(
            Type.Boolean({
              description: 'requires profileXml; every result of this output then relates to the constructed image',
            }),
          ),
          metrics: Type.Optional(
            Type.Array(Type.String(), { description: 'metric names (docs/face-analysis.md#metrics)' }),
          ),
        }),
        { maxItems: 16 },
      ),
    }),
    { minItems: 1, maxItems: 16 },
  ),
});
export type AnalyzeImageRequest = Static<typeof AnalyzeImageRequest>;

const Metric = Type.Object({
  name: Type.String(),
  score: Type.Number(),
  complianceStatus: Type.Optional(
    Type.String({ description: 'OK, FAIL_HIGH, FAIL_LOW or FAIL_VALUE; only for metrics of the profile' }),
  ),
  category: Type.String(),
});

const Feature = Type.Object({
  name: Type.String({ description: "LEFT_EYE or RIGHT_EYE (the person's)" }),
  x: Type.Number(),
  y: Type.Number(),
});

export const AnalyzeImageResponse = Type.Object({
  images: Type.Array(
    Type.Object({
      id: Type.String(),
      faces: Type.Optional(
        Type.Array(
          Type.Object({
            output: Type.Array(
              Type.Object({
                id: Type.String(),
                isCompliant: Type.Optional(Type.Boolean()),
                imageData: Type.Optional(Type.String({ description: 'the constructed image (JPEG, base64)' })),
                features: Type.Array(Feature),
                metrics: Type.Optional(Type.Array(Metric)),
              }),
            ),
          }),
        ),
      ),
    }),
  ),
});

export const Resolution = Type.Object({
  width: Type.Integer({ minimum: 1, maximum: 16384 }),
  height: Type.Integer({ minimum: 1, maximum: 16384 }),
});

export const AutocaptureVideoRequest = Type.Object({
  frames: Type.Array(
    Type.Object({
      data: Base64('JPEG or PNG frame at the preview resolution'),
      timestamp: Type.Number({ description: 'seconds, relative to the other frames' }),
      tags: Type.Optional(Type.Unknown()),
    }),
    { minItems: 1, maxItems: 300 },
  ),
  resolutionPreview: Resolution,
  resolutionCapture: Resolution,
  profile: Type.Object({ xml: ProfileXml, name: Type.Optional(Type.String()) }),
  faceDetectionMinSize: Fraction('smallest face width, as a share of the shorter image side'),
  faceDetectionMaxSize: Fraction('largest face width, as a share of the shorter image side'),
  faceDetectionSensitivity: Fraction('detector sensitivity'),
  faceDetectionGranularity: Fraction('accepted, no effect'),
  faceDetectionMode: DetectionMode,
  autocaptureMinimumFrameCount: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 300, description: 'consecutive compliant frames for a capture; default 3' }),
  ),
  rotation: Type.Optional(Type.Number()),
});
export type AutocaptureVideoRequest = Static<typeof AutocaptureVideoRequest>;

export const AutocaptureVideoResponse = Type.Object({
  frameResults: Type.Array(Type.Object({ compliant: Type.Boolean(), feedback: Type.Array(Type.String()) })),
  results: Type.Object({ captured: Type.Boolean(), capturedFrameIndex: Type.Integer() }),
});

export const CalculateRoiRequest = Type.Object({ profile: Type.Object({ xml: ProfileXml }), resolution: Resolution });
export type CalculateRoiRequest = Static<typeof CalculateRoiRequest>;
export const CalculateRoiResponse = Type.Object({
  x: Type.Number(),
  y: Type.Number(),
  width: Type.Number(),
  height: Type.Number(),
});

export const ValidateProfileRequest = Type.Object({ profile: Type.Object({ xml: ProfileXml }) });
export type ValidateProfileRequest = Static<typeof ValidateProfileRequest>;
export const ValidateProfileResponse = Type.Object({ profileErrors: Type.Array(Type.String()) });
