import type { Point } from '../../engines/face/raster.js';
import type { MetricName } from '../../engines/face-quality/metric-catalog.js';

/**
 * A face profile: the metric rules an image must meet to be compliant, and the geometry of the token
 * image a construction produces. Read from the XML format of docs/face-analysis.md#profiles by
 * `parseProfile` (profile-parser.ts).
 */
export interface FaceProfile {
  readonly name: string;
  readonly description?: string;
  readonly construction: ConstructionGeometry;
  /** In the order of the XML; one rule per metric. */
  readonly rules: readonly MetricRule[];
}

/**
 * The constructed (token) image: its size and where the eyes sit in it. The eye midpoint is at
 * (`eyeCenterX` × width, `eyeLineY` × height) and the eyes are `interEyeDistance` × width apart on a
 * level line; the ICAO token image is 480 × 640 with 0.5, 0.45 and 0.25.
 */
export interface ConstructionGeometry {
  /** Output size in pixels. */
  readonly width: number;
  readonly height: number;
  /** Eye line, as a share of the height from the top, in (0, 1). */
  readonly eyeLineY: number;
  /** Distance between the eye centres, as a share of the width, in (0, 1). */
  readonly interEyeDistance: number;
  /** Eye midpoint, as a share of the width from the left, in (0, 1); 0.5 unless given. */
  readonly eyeCenterX: number;
}

/**
 * A rule on one metric's score. A range rule is met when `min <= score <= max` (a bound left out is
 * open); a values rule when the score equals one of `values`. A required metric that could not be
 * measured fails; an optional one is then left out of the compliance (compliance.ts).
 */
export type MetricRule = RangeRule | ValuesRule;

interface RuleBase {
  readonly metric: MetricName;
  readonly required: boolean;
}

export interface RangeRule extends RuleBase {
  readonly kind: 'range';
  readonly min?: number;
  readonly max?: number;
}

export interface ValuesRule extends RuleBase {
  readonly kind: 'values';
  readonly values: readonly number[];
}

/**
 * Where the construction puts the eye centres, in output pixels; the person's right eye is on the
 * image's left, as in face-alignment.ts.
 *
 * @example
 * constructionEyes({ width: 480, height: 640, eyeLineY: 0.45, interEyeDistance: 0.25, eyeCenterX: 0.5 });
 * // { rightEye: [180, 288], leftEye: [300, 288] }
 */
export function constructionEyes(geometry: ConstructionGeometry): {
  readonly rightEye: Point;
  readonly leftEye: Point;
} {
  const y = geometry.eyeLineY * geometry.height;
  const centre = geometry.eyeCenterX * geometry.width;
  const half = (geometry.interEyeDistance * geometry.width) / 2;
  return { rightEye: [centre - half, y], leftEye: [centre + half, y] };
}
