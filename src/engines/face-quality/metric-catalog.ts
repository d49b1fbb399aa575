/**
 * The face-image quality metrics Veriport measures: names after ISO/IEC 29794-5 (the BSI OFIQ
 * measures) where one exists, plus the spec's IMAGE_WIDTH and IMAGE_HEIGHT. Each has the spec's
 * category, its unit and the range its score takes; docs/face-analysis.md says how each is computed.
 */
export type MetricCategory =
  | 'FACE_CHARACTERISTICS'
  | 'EYE_CHARACTERISTICS'
  | 'IMAGE_CHARACTERISTICS'
  | 'ANOMALIES'
  | 'IMAGE_GEOMETRY'
  | 'DEMOGRAPHICS'
  | 'IMAGE_STORAGE';

export interface MetricDefinition {
  readonly name: MetricName;
  readonly category: MetricCategory;
  /** Unit and range of `score`, as documented. */
  readonly unit: string;
  readonly min: number;
  readonly max: number;
}

export const METRIC_NAMES = [
  'IMAGE_WIDTH',
  'IMAGE_HEIGHT',
  'UNIFIED_QUALITY',
  'BACKGROUND_UNIFORMITY',
  'ILLUMINATION_UNIFORMITY',
  'LUMINANCE_MEAN',
  'LUMINANCE_VARIANCE',
  'UNDER_EXPOSURE_PREVENTION',
  'OVER_EXPOSURE_PREVENTION',
  'DYNAMIC_RANGE',
  'SHARPNESS',
  'COMPRESSION_ARTIFACTS',
  'NATURAL_COLOUR',
  'SINGLE_FACE_PRESENT',
  'EYES_OPEN',
  'EYES_VISIBLE',
  'MOUTH_CLOSED',
  'FACE_OCCLUSION_PREVENTION',
  'INTER_EYE_DISTANCE',
  'HEAD_SIZE',
  'LEFTWARD_CROP_OF_THE_FACE_IMAGE',
  'RIGHTWARD_CROP_OF_THE_FACE_IMAGE',
  'UPWARD_CROP_OF_THE_FACE_IMAGE',
  'DOWNWARD_CROP_OF_THE_FACE_IMAGE',
  'HEAD_POSE_YAW',
  'HEAD_POSE_PITCH',
  'HEAD_POSE_ROLL',
  'EXPRESSION_NEUTRALITY',
] as const;

export type MetricName = (typeof METRIC_NAMES)[number];

const m = (name: MetricName, category: MetricCategory, unit: string, min: number, max: number): MetricDefinition => ({
  name,
  category,
  unit,
  min,
  max,
});
const QUALITY = 'quality component, 0 (worst) to 100 (best)';

/** Every metric by name. */
export const METRICS: Readonly<Record<MetricName, MetricDefinition>> = {
  IMAGE_WIDTH: m('IMAGE_WIDTH', 'IMAGE_STORAGE', 'pixels', 1, 16384),
  IMAGE_HEIGHT: m('IMAGE_HEIGHT', 'IMAGE_STORAGE', 'pixels', 1, 16384),
  UNIFIED_QUALITY: m('UNIFIED_QUALITY', 'IMAGE_CHARACTERISTICS', QUALITY, 0, 100),
  BACKGROUND_UNIFORMITY: m('BACKGROUND_UNIFORMITY', 'IMAGE_CHARACTERISTICS', QUALITY, 0, 100),
  ILLUMINATION_UNIFORMITY: m('ILLUMINATION_UNIFORMITY', 'FACE_CHARACTERISTICS', QUALITY, 0, 100),
  LUMINANCE_MEAN: m('LUMINANCE_MEAN', 'IMAGE_CHARACTERISTICS', 'mean luma of the face skin region, 0 to 255', 0, 255),
  LUMINANCE_VARIANCE: m(
    'LUMINANCE_VARIANCE',
    'IMAGE_CHARACTERISTICS',
    'standard deviation of the face skin region luma, 0 to 128',
    0,
    128,
  ),
  UNDER_EXPOSURE_PREVENTION: m('UNDER_EXPOSURE_PREVENTION', 'IMAGE_CHARACTERISTICS', QUALITY, 0, 100),
  OVER_EXPOSURE_PREVENTION: m('OVER_EXPOSURE_PREVENTION', 'IMAGE_CHARACTERISTICS', QUALITY, 0, 100),
  DYNAMIC_RANGE: m(
    'DYNAMIC_RANGE',
    'IMAGE_CHARACTERISTICS',
    'entropy of the face skin region luma histogram, bits, 0 to 8',
    0,
    8,
  ),
  SHARPNESS: m('SHARPNESS', 'IMAGE_CHARACTERISTICS', QUALITY, 0, 100),
  COMPRESSION_ARTIFACTS: m('COMPRESSION_ARTIFACTS', 'IMAGE_CHARACTERISTICS', QUALITY, 0, 100),
  NATURAL_COLOUR: m('NATURAL_COLOUR', 'IMAGE_CHARACTERISTICS', QUALITY, 0, 100),
  SINGLE_FACE_PRESENT: m('SINGLE_FACE_PRESENT', 'ANOMALIES', 'number of faces detected', 0, 100),
  EYES_OPEN: m('EYES_OPEN', 'EYE_CHARACTERISTICS', QUALITY, 0, 100),
  EYES_VISIBLE: m('EYES_VISIBLE', 'EYE_CHARACTERISTICS', QUALITY, 0, 100),
  MOUTH_CLOSED: m('MOUTH_CLOSED', 'FACE_CHARACTERISTICS', QUALITY, 0, 100),
  FACE_OCCLUSION_PREVENTION: m('FACE_OCCLUSION_PREVENTION', 'ANOMALIES', QUALITY, 0, 100),
  INTER_EYE_DISTANCE: m('INTER_EYE_DISTANCE', 'IMAGE_GEOMETRY', 'pixels between the eye centres', 0, 16384),
  HEAD_SIZE: m(
    'HEAD_SIZE',
    'IMAGE_GEOMETRY',
    'head height (chin to crown, estimated as twice eye line to chin) as a share of the image height',
    0,
    10,
  ),
  LEFTWARD_CROP_OF_THE_FACE_IMAGE: m(
    'LEFTWARD_CROP_OF_THE_FACE_IMAGE',
    'IMAGE_GEOMETRY',
    'image left edge to the eye midpoint, in inter-eye distances',
    0,
    100,
  ),
  RIGHTWARD_CROP_OF_THE_FACE_IMAGE: m(
    'RIGHTWARD_CROP_OF_THE_FACE_IMAGE',
    'IMAGE_GEOMETRY',
    'eye midpoint to the image right edge, in inter-eye distances',
    0,
    100,
  ),
  UPWARD_CROP_OF_THE_FACE_IMAGE: m(
    'UPWARD_CROP_OF_THE_FACE_IMAGE',
    'IMAGE_GEOMETRY',
    'image top edge to the eye midpoint, in inter-eye distances',
    0,
    100,
  ),
  DOWNWARD_CROP_OF_THE_FACE_IMAGE: m(
    'DOWNWARD_CROP_OF_THE_FACE_IMAGE',
    'IMAGE_GEOMETRY',
    'eye midpoint to the image bottom edge, in inter-eye distances',
    0,
    100,
  ),
  HEAD_POSE_YAW: m(
    'HEAD_POSE_YAW',
    'FACE_CHARACTERISTICS',
    'degrees, positive = the person turned to their left',
    -90,
    90,
  ),
  HEAD_POSE_PITCH: m('HEAD_POSE_PITCH', 'FACE_CHARACTERISTICS', 'degrees, positive = head up', -90, 90),
  HEAD_POSE_ROLL: m('HEAD_POSE_ROLL', 'FACE_CHARACTERISTICS', 'degrees, positive = clockwise in the image', -180, 180),
  EXPRESSION_NEUTRALITY: m('EXPRESSION_NEUTRALITY', 'FACE_CHARACTERISTICS', QUALITY, 0, 100),
};

/**
 * Whether a string names a metric.
 *
 * @example
 * isMetricName('SHARPNESS'); // true
 */
export function isMetricName(name: string): name is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(name);
}
