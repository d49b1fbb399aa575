import type { MetricName } from './metric-catalog.js';

/** Metric scores by name; a metric that could not be measured is absent. */
export type FaceMetrics = Partial<Record<MetricName, number>>;

/** What the unified score combines. */
export interface UnifiedQualityConfig {
  /** 0–100 components that bear on face recognition, combined as they are. */
  readonly components: readonly MetricName[];
  /** Degrees of combined yaw and pitch at which the frontality factor reaches 0 (falling with the angle's square). */
  readonly poseLimit: number;
  /**
   * Inter-eye distance (pixels) from which resolution no longer limits recognition: the recogniser
   * reads a 150-px crop whose eyes are ~54 px apart (face-alignment.ts), so a face with more is downscaled.
   */
  readonly fullResolution: number;
}

export const DEFAULT_UNIFIED_QUALITY_CONFIG: UnifiedQualityConfig = {
  components: [
    'SHARPNESS',
    'COMPRESSION_ARTIFACTS',
    'UNDER_EXPOSURE_PREVENTION',
    'OVER_EXPOSURE_PREVENTION',
    'ILLUMINATION_UNIFORMITY',
    'EYES_OPEN',
    'EYES_VISIBLE',
    'FACE_OCCLUSION_PREVENTION',
  ],
  poseLimit: 45,
  fullResolution: 54,
};

/**
 * UNIFIED_QUALITY, 0–100: the geometric mean of the recognition-relevant components and two
 * factors made from geometry, frontality 100·(1 − (angle/poseLimit)²) with angle = hypot(yaw, pitch),
 * and resolution 100·min(1, inter-eye distance / fullResolution). Each term is floored at 1, so one
 * failed component pulls the score far down without zeroing it. Absent components are left out;
 * undefined when there is nothing to combine.
 *
 * @example
 * unifiedQuality({ SHARPNESS: 90, EYES_OPEN: 100, HEAD_POSE_YAW: 5, HEAD_POSE_PITCH: 0, INTER_EYE_DISTANCE: 80 });
 */
export function unifiedQuality(
  metrics: FaceMetrics,
  config: UnifiedQualityConfig = DEFAULT_UNIFIED_QUALITY_CONFIG,
): number | undefined {
  const terms = config.components.map((name) => metrics[name]).filter((v): v is number => v !== undefined);
  const { HEAD_POSE_YAW: yaw, HEAD_POSE_PITCH: pitch, INTER_EYE_DISTANCE: eyes } = metrics;
  if (yaw !== undefined && pitch !== undefined)
    terms.push(100 * (1 - (Math.hypot(yaw, pitch) / config.poseLimit) ** 2));
  if (eyes !== undefined) terms.push(100 * Math.min(1, eyes / config.fullResolution));
  if (terms.length === 0) return undefined;
  const logMean = terms.reduce((sum, t) => sum + Math.log(Math.min(100, Math.max(1, t))), 0) / terms.length;
  return Math.exp(logMean);
}
