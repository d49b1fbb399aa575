/**
 * ISO/IEC 29794-5-style quality metrics of one face (names, units and ranges: metric-catalog.ts;
 * definitions: docs/face-analysis.md), each measured from the face's mesh and the pixels.
 */
import type { RgbImage } from '../face/raster.js';
import { backgroundTexture, DEFAULT_BACKGROUND_WINDOW, type BackgroundWindow } from './background.js';
import { blockiness } from './compression.js';
import { DEFAULT_EXPOSURE_CONFIG, skinExposure, type ExposureConfig } from './exposure.js';
import { eyeOpenness } from './eye-openness.js';
import { eyeViews } from './eye-visibility.js';
import { faceRegion, type QualityFace } from './face-region.js';
import { headGeometry } from './head-geometry.js';
import { illuminationBalance } from './illumination.js';
import { METRIC_NAMES, METRICS } from './metric-catalog.js';
import { mouthShape, type MouthShape } from './mouth-shape.js';
import { laplacianDetail } from './sharpness.js';
import { skinLab, type Lab } from './skin-colour.js';
import { DEFAULT_SKIN_LIKENESS_CONFIG, skinLikeness, type SkinLikenessConfig } from './skin-likeness.js';
import {
  DEFAULT_UNIFIED_QUALITY_CONFIG,
  unifiedQuality,
  type FaceMetrics,
  type UnifiedQualityConfig,
} from './unified-quality.js';

export type { FaceMetrics } from './unified-quality.js';
export type { QualityFace } from './face-region.js';

/** What the image says beyond this face. */
export interface FaceQualityContext {
  /** Faces detected in the image (SINGLE_FACE_PRESENT). */
  readonly faceCount: number;
}

/** An eye centre in image pixels; LEFT_EYE is the person's left eye (on the image's right in a frontal photo). */
export interface EyeFeature {
  readonly name: 'LEFT_EYE' | 'RIGHT_EYE';
  readonly x: number;
  readonly y: number;
}

export interface FaceQuality {
  readonly metrics: FaceMetrics;
  /** The person's left eye, then right eye. */
  readonly features: readonly EyeFeature[];
}

/** A raw measure's range mapped linearly onto 0–100: `zero` scores 0, `full` scores 100 (either order), clamped. */
export type Ramp = readonly [zero: number, full: number];

/** How the raw measurements become 0–100 quality components (calibrated on the dev set; docs/face-analysis.md). */
export interface QualityScoring {
  /** SHARPNESS = 100 / (1 + (half / detail)^steepness): `half` is the Laplacian detail scoring 50. */
  readonly sharpness: { readonly half: number; readonly steepness: number };
  /** COMPRESSION_ARTIFACTS from the blockiness ratio. */
  readonly compression: Ramp;
  /** NATURAL_COLOUR: 100 inside the skin a*, b* box, falling linearly to 0 at `falloff` Lab units outside it. */
  readonly naturalColour: {
    readonly a: readonly [number, number];
    readonly b: readonly [number, number];
    readonly falloff: number;
  };
  /** EYES_OPEN from the less open eye's aspect ratio. */
  readonly eyesOpen: Ramp;
  /** EYES_VISIBLE from the less visible eye's contrast (times its in-frame and glare-free shares). */
  readonly eyesVisible: Ramp;
  /** MOUTH_CLOSED from the lip gap over the mouth width. */
  readonly mouthClosed: Ramp;
  /** EXPRESSION_NEUTRALITY = 100 × Π(1 − penalty); each penalty ramps 0→1 over its range. */
  readonly expression: { readonly smile: Ramp; readonly frown: Ramp; readonly opening: Ramp; readonly browRaise: Ramp };
  /** BACKGROUND_UNIFORMITY = 100 / (1 + (relativeGradient / half)^steepness). */
  readonly background: { readonly half: number; readonly steepness: number };
}

export interface FaceQualityConfig {
  readonly exposure: ExposureConfig;
  readonly skinLikeness: SkinLikenessConfig;
  readonly background: BackgroundWindow;
  readonly scoring: QualityScoring;
  readonly unified: UnifiedQualityConfig;
}

export const DEFAULT_QUALITY_SCORING: QualityScoring = {
  sharpness: { half: 0.01, steepness: 1.5 },
  compression: [2.1, 1.1],
  naturalColour: { a: [4, 28], b: [8, 38], falloff: 12 },
  eyesOpen: [0.1, 0.18],
  eyesVisible: [0.04, 0.16],
  mouthClosed: [0.15, 0.03],
  expression: { smile: [0.03, 0.1], frown: [-0.03, -0.08], opening: [0.04, 0.24], browRaise: [0.45, 0.58] },
  background: { half: 6, steepness: 2 },
};

export const DEFAULT_FACE_QUALITY_CONFIG: FaceQualityConfig = {
  exposure: DEFAULT_EXPOSURE_CONFIG,
  skinLikeness: DEFAULT_SKIN_LIKENESS_CONFIG,
  background: DEFAULT_BACKGROUND_WINDOW,
  scoring: DEFAULT_QUALITY_SCORING,
  unified: DEFAULT_UNIFIED_QUALITY_CONFIG,
};

/**
 * Measures every catalog metric that can be measured for one face of a decoded image, plus its eye
 * centres. A metric whose region is not in the image (e.g. no background around a face that fills
 * the frame) is absent; every present score lies in its catalog range.
 *
 * @example
 * const image = await decodeImage(bytes);
 * const { faces } = await pipeline.analyze(image, { views: [], description: false });
 * const { metrics, features } = measureFaceQuality(image, faces[0], { faceCount: faces.length });
 * metrics.SHARPNESS; // 0–100
 */
export function measureFaceQuality(
  image: RgbImage,
  face: QualityFace,
  context: FaceQualityContext,
  config: FaceQualityConfig = DEFAULT_FACE_QUALITY_CONFIG,
): FaceQuality {
  const scoring = config.scoring;
  const region = faceRegion(image, face);
  const geometry = headGeometry(face, image);
  const exposure = skinExposure(region, config.exposure);
  const balance = illuminationBalance(region);
  const detail = laplacianDetail(region);
  const lab = skinLab(region);
  const likeness = skinLikeness(region, config.skinLikeness);
  const openness = eyeOpenness(face.mesh);
  const mouth = mouthShape(face);
  const background = backgroundTexture(image, face.keyPoints, config.background);

  const raw: FaceMetrics = {
    IMAGE_WIDTH: image.width,
    IMAGE_HEIGHT: image.height,
    BACKGROUND_UNIFORMITY:
      background &&
      logLogistic(scoring.background.half / Math.max(background.relativeGradient, 1e-9), scoring.background.steepness),
    ILLUMINATION_UNIFORMITY: balance && 100 * balance.ratio,
    LUMINANCE_MEAN: exposure?.mean,
    LUMINANCE_VARIANCE: exposure?.deviation,
    UNDER_EXPOSURE_PREVENTION: exposure && 100 * (1 - exposure.darkShare),
    OVER_EXPOSURE_PREVENTION: exposure && 100 * (1 - exposure.brightShare),
    DYNAMIC_RANGE: exposure?.entropyBits,
    SHARPNESS:
      detail === undefined
        ? undefined
        : logLogistic(Math.max(detail, 1e-9) / scoring.sharpness.half, scoring.sharpness.steepness),
    COMPRESSION_ARTIFACTS: ramp(blockiness(image, face.box), scoring.compression),
    NATURAL_COLOUR: lab && naturalColour(lab, scoring.naturalColour),
    SINGLE_FACE_PRESENT: context.faceCount,
    EYES_OPEN: ramp(Math.min(openness.right, openness.left), scoring.eyesOpen),
    EYES_VISIBLE:
      exposure &&
      Math.min(
        ...eyeViews(region, exposure.mean).map(
          (eye) => eye.inFrame * (1 - eye.glare) * ramp(eye.contrast, scoring.eyesVisible),
        ),
      ),
    MOUTH_CLOSED: ramp(mouth.opening, scoring.mouthClosed),
    FACE_OCCLUSION_PREVENTION: likeness && 100 * maskedMean(likeness.map, region.skin),
    INTER_EYE_DISTANCE: geometry.interEyeDistance,
    HEAD_SIZE: geometry.headHeight / image.height,
    LEFTWARD_CROP_OF_THE_FACE_IMAGE: geometry.margins.left,
    RIGHTWARD_CROP_OF_THE_FACE_IMAGE: geometry.margins.right,
    UPWARD_CROP_OF_THE_FACE_IMAGE: geometry.margins.top,
    DOWNWARD_CROP_OF_THE_FACE_IMAGE: geometry.margins.bottom,
    HEAD_POSE_YAW: geometry.pose.yaw,
    HEAD_POSE_PITCH: geometry.pose.pitch,
    HEAD_POSE_ROLL: geometry.pose.roll,
    EXPRESSION_NEUTRALITY: expressionNeutrality(mouth, scoring.expression),
  };
  raw.UNIFIED_QUALITY = unifiedQuality(raw, config.unified);

  const metrics: FaceMetrics = {};
  for (const name of METRIC_NAMES) {
    const value = raw[name];
    if (value === undefined || !Number.isFinite(value)) continue;
    metrics[name] = Math.min(METRICS[name].max, Math.max(METRICS[name].min, value));
  }
  const { leftEye, rightEye } = face.keyPoints;
  return {
    metrics,
    features: [
      { name: 'LEFT_EYE', x: leftEye[0], y: leftEye[1] },
      { name: 'RIGHT_EYE', x: rightEye[0], y: rightEye[1] },
    ],
  };
}

/** 0–100, linear from range[0] (0) to range[1] (100), clamped. */
function ramp(value: number, [zero, full]: Ramp): number {
  return 100 * Math.min(1, Math.max(0, (value - zero) / (full - zero)));
}

/** 100 / (1 + ratio^−steepness): 50 at ratio 1, rising with the ratio, never quite 0 or 100. */
function logLogistic(ratio: number, steepness: number): number {
  return 100 / (1 + ratio ** -steepness);
}

function naturalColour(lab: Lab, range: QualityScoring['naturalColour']): number {
  const outside = (value: number, [from, to]: readonly [number, number]) => Math.max(0, from - value, value - to);
  return 100 * Math.max(0, 1 - Math.hypot(outside(lab.a, range.a), outside(lab.b, range.b)) / range.falloff);
}

function expressionNeutrality(mouth: MouthShape, ranges: QualityScoring['expression']): number {
  const penalty = (value: number, range: Ramp) => ramp(value, range) / 100;
  return (
    100 *
    (1 - penalty(mouth.cornerLift, ranges.smile)) *
    (1 - penalty(mouth.cornerLift, ranges.frown)) *
    (1 - penalty(mouth.opening, ranges.opening)) *
    (1 - penalty(mouth.browHeight, ranges.browRaise))
  );
}

function maskedMean(values: Uint8Array, mask: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    sum += values[i] ?? 0;
    n++;
  }
  return n > 0 ? sum / n : 0;
}
