import { decodeBase64 } from '../../crypto/base64.js';
import type { FaceEngine } from '../../engines/face/face-engine.js';
import type { FaceMetrics } from '../../engines/face-quality/face-quality.js';
import { invalidValue } from '../../server/errors/api-error.js';
import { evaluateCompliance } from './compliance.js';
import { detectionOptions, selectFaces } from './detection-options.js';
import { frameFeedback } from './frame-feedback.js';
import { analyze } from './image-analysis.js';
import { requireProfile } from './profile-parser.js';
import type { AutocaptureVideoRequest } from './schemas.js';

/** Consecutive compliant frames a capture needs when the request does not say. */
export const DEFAULT_MINIMUM_FRAME_COUNT = 1;
/** Preview and capture must show the same field of view: their aspect ratios may differ by this share. */
const ASPECT_TOLERANCE = 0.02;

/**
 * `POST /autocaptureVideo`: each frame (at the preview resolution) is analysed and judged against the
 * profile as the capture-resolution image would be (pixel metrics scaled by capture/preview), with
 * feedback for the user; the capture happens at the last frame of the first run of
 * `autocaptureMinimumFrameCount` consecutive compliant frames (docs/face-analysis.md).
 *
 * @example
 * const { frameResults, results } = await autocaptureVideo(engine, body);
 * results.capturedFrameIndex; // -1 when no run was long enough
 * @throws {ApiError} 400 -5 / -6 for bad frames, timestamps, resolutions, profile or detection values
 */
export async function autocaptureVideo(
  engine: FaceEngine,
  body: AutocaptureVideoRequest,
): Promise<{
  frameResults: Array<{ compliant: boolean; feedback: string[] }>;
  results: { captured: boolean; capturedFrameIndex: number };
}> {
  const profile = requireProfile(body.profile.xml, 'profile.xml');
  const options = detectionOptions(
    {
      rotation: body.rotation,
      sensitivity: body.faceDetectionSensitivity,
      granularity: body.faceDetectionGranularity,
      minSize: body.faceDetectionMinSize,
      maxSize: body.faceDetectionMaxSize,
      mode: body.faceDetectionMode,
    },
    'request',
    {
      sensitivity: 'faceDetectionSensitivity',
      granularity: 'faceDetectionGranularity',
      minSize: 'faceDetectionMinSize',
      maxSize: 'faceDetectionMaxSize',
      mode: 'faceDetectionMode',
    },
  );
  const preview = body.resolutionPreview;
  const capture = body.resolutionCapture;
  if (Math.abs(capture.width / capture.height / (preview.width / preview.height) - 1) > ASPECT_TOLERANCE) {
    throw invalidValue(
      `resolutionCapture (${capture.width}×${capture.height}) must have the aspect ratio of resolutionPreview (${preview.width}×${preview.height})`,
    );
  }
  const scale = capture.width / preview.width;
  let previous = -Infinity;
  body.frames.forEach((frame, i) => {
    if (!Number.isFinite(frame.timestamp) || frame.timestamp < 0 || frame.timestamp <= previous) {
      throw invalidValue(
        `frames[${i}].timestamp must be at least 0 and exceed the previous frame's (got ${frame.timestamp} after ${previous})`,
      );
    }
    previous = frame.timestamp;
  });
  const frames = body.frames.map((frame, i) => decodeBase64(frame.data, `frames[${i}].data`));
  const minimum = body.autocaptureMinimumFrameCount ?? DEFAULT_MINIMUM_FRAME_COUNT;

  const frameResults = await Promise.all(
    frames.map(async (bytes, i) => {
      const analysis = await analyze(engine, bytes, options.rotation, `frames[${i}].data`);
      if (analysis.width !== preview.width || analysis.height !== preview.height) {
        throw invalidValue(
          `frames[${i}] is ${analysis.width}×${analysis.height} (after rotation); frames must have resolutionPreview (${preview.width}×${preview.height})`,
        );
      }
      const faces = selectFaces(analysis.faces, options, analysis.width, analysis.height);
      const subject = faces[0];
      const statuses =
        subject?.quality === undefined
          ? {}
          : evaluateCompliance(profile, atCaptureResolution(subject.quality.metrics, scale, capture)).statuses;
      const eyes =
        subject === undefined
          ? undefined
          : { rightEye: subject.keyPoints.rightEye, leftEye: subject.keyPoints.leftEye };
      const feedback = frameFeedback({ faceCount: faces.length, eyes, statuses }, profile, preview);
      return { compliant: feedback.length === 0, feedback };
    }),
  );

  let run = 0;
  const capturedFrameIndex = frameResults.findIndex((frame) => (run = frame.compliant ? run + 1 : 0) >= minimum);
  return { frameResults, results: { captured: capturedFrameIndex >= 0, capturedFrameIndex } };
}

/** The metrics the capture-resolution frame would have: pixel sizes scale, ratios and scores do not. */
function atCaptureResolution(
  metrics: FaceMetrics,
  scale: number,
  capture: { width: number; height: number },
): FaceMetrics {
  return {
    ...metrics,
    IMAGE_WIDTH: capture.width,
    IMAGE_HEIGHT: capture.height,
    ...(metrics.INTER_EYE_DISTANCE === undefined ? {} : { INTER_EYE_DISTANCE: metrics.INTER_EYE_DISTANCE * scale }),
  };
}
