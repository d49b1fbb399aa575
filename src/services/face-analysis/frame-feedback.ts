import type { Point } from '../../engines/face/raster.js';
import type { MetricName } from '../../engines/face-quality/metric-catalog.js';
import type { ComplianceStatus } from './compliance.js';
import type { FaceProfile } from './profile.js';
import { faceFootprint, type Resolution } from './roi.js';

/**
 * Autocapture feedback codes (docs/face-analysis.md#video-autocapture): the face-liveness codes of
 * Doc 2 where one fits, then ours for the other profile rules.
 */
const METRIC_FEEDBACK: Partial<Record<MetricName, Partial<Record<ComplianceStatus, string>>>> = {
  HEAD_POSE_YAW: { FAIL_LOW: 'INVALID_POSE', FAIL_HIGH: 'INVALID_POSE', FAIL_VALUE: 'INVALID_POSE' },
  HEAD_POSE_PITCH: { FAIL_LOW: 'INVALID_POSE', FAIL_HIGH: 'INVALID_POSE', FAIL_VALUE: 'INVALID_POSE' },
  HEAD_POSE_ROLL: { FAIL_LOW: 'INVALID_POSE', FAIL_HIGH: 'INVALID_POSE', FAIL_VALUE: 'INVALID_POSE' },
  INTER_EYE_DISTANCE: { FAIL_LOW: 'FACE_TOO_FAR', FAIL_HIGH: 'FACE_TOO_CLOSE' },
  HEAD_SIZE: { FAIL_LOW: 'FACE_TOO_FAR', FAIL_HIGH: 'FACE_TOO_CLOSE' },
  LUMINANCE_MEAN: { FAIL_LOW: 'INSUFFICIENT_LIGHTING', FAIL_HIGH: 'LIGHT_TOO_BRIGHT' },
  UNDER_EXPOSURE_PREVENTION: { FAIL_LOW: 'INSUFFICIENT_LIGHTING' },
  OVER_EXPOSURE_PREVENTION: { FAIL_LOW: 'LIGHT_TOO_BRIGHT' },
  DYNAMIC_RANGE: { FAIL_LOW: 'INSUFFICIENT_LIGHTING' },
  SHARPNESS: { FAIL_LOW: 'TOO_MUCH_BLUR' },
  ILLUMINATION_UNIFORMITY: { FAIL_LOW: 'UNEVEN_LIGHTING' },
  BACKGROUND_UNIFORMITY: { FAIL_LOW: 'BACKGROUND_NOT_UNIFORM' },
  EYES_OPEN: { FAIL_LOW: 'EYES_CLOSED' },
  EYES_VISIBLE: { FAIL_LOW: 'EYES_NOT_VISIBLE' },
  MOUTH_CLOSED: { FAIL_LOW: 'MOUTH_OPEN' },
  EXPRESSION_NEUTRALITY: { FAIL_LOW: 'EXPRESSION_NOT_NEUTRAL' },
  FACE_OCCLUSION_PREVENTION: { FAIL_LOW: 'FACE_OCCLUDED' },
  LEFTWARD_CROP_OF_THE_FACE_IMAGE: { FAIL_LOW: 'FACE_ON_LEFT' },
  RIGHTWARD_CROP_OF_THE_FACE_IMAGE: { FAIL_LOW: 'FACE_ON_RIGHT' },
  UPWARD_CROP_OF_THE_FACE_IMAGE: { FAIL_LOW: 'FACE_TOO_HIGH' },
  DOWNWARD_CROP_OF_THE_FACE_IMAGE: { FAIL_LOW: 'FACE_TOO_LOW' },
  SINGLE_FACE_PRESENT: { FAIL_HIGH: 'MULTIPLE_FACES_DETECTED', FAIL_VALUE: 'MULTIPLE_FACES_DETECTED' },
};

/** What one frame showed: the faces kept, the subject's eyes, and the profile statuses of its metrics. */
export interface FrameObservation {
  readonly faceCount: number;
  readonly eyes: { readonly rightEye: Point; readonly leftEye: Point } | undefined;
  readonly statuses: Partial<Record<MetricName, ComplianceStatus>>;
}

/**
 * The feedback of one frame, empty when it is compliant: no or several faces; where the face's token
 * image would leave the frame (FACE_ON_LEFT/RIGHT, FACE_TOO_HIGH/LOW, FACE_TOO_CLOSE); then one code
 * per failed profile rule (a rule without a mapped code gives `<METRIC>_<STATUS>`).
 *
 * @example
 * frameFeedback({ faceCount: 0, eyes: undefined, statuses: {} }, profile, { width: 480, height: 640 });
 * // ['NO_FACE_DETECTED']
 */
export function frameFeedback(frame: FrameObservation, profile: FaceProfile, resolution: Resolution): string[] {
  if (frame.faceCount === 0 || frame.eyes === undefined) return ['NO_FACE_DETECTED'];
  const codes = new Set<string>();
  if (frame.faceCount > 1) codes.add('MULTIPLE_FACES_DETECTED');
  const box = faceFootprint(profile, frame.eyes.rightEye, frame.eyes.leftEye);
  const outLeft = box.x < 0;
  const outRight = box.x + box.width > resolution.width;
  const outTop = box.y < 0;
  const outBottom = box.y + box.height > resolution.height;
  if ((outLeft && outRight) || (outTop && outBottom)) codes.add('FACE_TOO_CLOSE');
  else {
    // The image's left: a face shown too far left must move right in the preview.
    if (outLeft) codes.add('FACE_ON_LEFT');
    if (outRight) codes.add('FACE_ON_RIGHT');
    if (outTop) codes.add('FACE_TOO_HIGH');
    if (outBottom) codes.add('FACE_TOO_LOW');
  }
  for (const [metric, status] of Object.entries(frame.statuses) as Array<[MetricName, ComplianceStatus]>) {
    if (status === 'OK') continue;
    codes.add(METRIC_FEEDBACK[metric]?.[status] ?? `${metric}_${status}`);
  }
  return [...codes];
}
