import type { Point } from '../../engines/face/raster.js';
import type { MetricName } from '../../engines/face-quality/metric-catalog.js';
import type { FaceProfile } from './profile.js';

export interface Resolution {
  readonly width: number;
  readonly height: number;
}

/** A region of a frame in pixels: upper-left corner, width and height. */
export interface Roi {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Space the region keeps around the eye midpoint on each side, in inter-eye distances. */
interface Margins {
  readonly left: number;
  readonly right: number;
  readonly up: number;
  readonly down: number;
}

/** The ROI with where the eyes belong in it, in frame pixels. */
export interface RoiLayout {
  readonly roi: Roi;
  /** Eye centres (the person's right eye on the image's left) of a face that fills the region as the token shows it. */
  readonly rightEye: Point;
  readonly leftEye: Point;
  /** Their distance: the largest inter-eye distance the frame allows for this profile. */
  readonly interEyeDistance: number;
}

/**
 * The region of a frame the face must fill, as the constructed image shows it, so that the profile's
 * construction can be cut from the frame (docs/face-analysis.md#profiles gives the formula). Whole
 * pixels, inside the frame, proportional to the resolution.
 *
 * @example
 * calculateRoi(defaultProfile('icao'), { width: 720, height: 1280 }); // { x: 0, y: 160, width: 720, height: 960 }
 */
export function calculateRoi(profile: FaceProfile, resolution: Resolution): Roi {
  return roiLayout(profile, resolution).roi;
}

/**
 * The ROI and the eye positions inside it. The construction fixes how far each side of the output
 * lies from the eye midpoint, in inter-eye distances; a profile's minimum crop rule
 * (LEFTWARD/RIGHTWARD/UPWARD/DOWNWARD_CROP_OF_THE_FACE_IMAGE) widens its side further. The region is
 * the largest rectangle with those proportions that fits the frame, centred in it: a face whose eyes
 * sit at `rightEye` and `leftEye` can be constructed without leaving the frame.
 *
 * @example
 * const { roi, rightEye, leftEye, interEyeDistance } = roiLayout(defaultProfile('icao'), { width: 480, height: 640 });
 * // roi: the whole frame; eyes at (180, 288) and (300, 288), 120 pixels apart
 */
export function roiLayout(profile: FaceProfile, resolution: Resolution): RoiLayout {
  const { width: frameWidth, height: frameHeight } = resolution;
  if (!(frameWidth >= 1 && frameHeight >= 1 && Number.isFinite(frameWidth) && Number.isFinite(frameHeight))) {
    throw new RangeError(`the resolution must be at least 1 x 1 pixels, got ${frameWidth} x ${frameHeight}`);
  }
  const margins = regionMargins(profile);
  const across = margins.left + margins.right;
  const along = margins.up + margins.down;
  const largest = Math.min(frameWidth / across, frameHeight / along);
  const width = wholePixels(largest * across, frameWidth);
  const height = wholePixels(largest * along, frameHeight);
  const roi = { x: Math.floor((frameWidth - width) / 2), y: Math.floor((frameHeight - height) / 2), width, height };
  // Measured on the whole-pixel region, so that the eyes stay inside it.
  const interEyeDistance = Math.min(width / across, height / along);
  // The token's footprint at that distance, centred in the region (they differ by under a pixel).
  const midX = roi.x + (width - interEyeDistance * across) / 2 + margins.left * interEyeDistance;
  const midY = roi.y + (height - interEyeDistance * along) / 2 + margins.up * interEyeDistance;
  return {
    roi,
    rightEye: [midX - interEyeDistance / 2, midY],
    leftEye: [midX + interEyeDistance / 2, midY],
    interEyeDistance,
  };
}

/**
 * Where a face's token image would lie in its frame: the construction's margins around the eye
 * midpoint, scaled by the face's own inter-eye distance. A footprint that leaves the frame means the
 * face is off-centre (one side out) or too close (both sides out).
 *
 * @example
 * const box = faceFootprint(profile, face.rightEye, face.leftEye); // { x, y, width, height }, may exceed the frame
 */
export function faceFootprint(profile: FaceProfile, rightEye: Point, leftEye: Point): Roi {
  const margins = regionMargins(profile);
  const d = Math.hypot(leftEye[0] - rightEye[0], leftEye[1] - rightEye[1]);
  const [mx, my] = [(rightEye[0] + leftEye[0]) / 2, (rightEye[1] + leftEye[1]) / 2];
  return {
    x: mx - margins.left * d,
    y: my - margins.up * d,
    width: (margins.left + margins.right) * d,
    height: (margins.up + margins.down) * d,
  };
}

/** The construction's margins, each widened to the profile's minimum crop rule on that side. */
function regionMargins(profile: FaceProfile): Margins {
  const { width, height, eyeLineY, interEyeDistance, eyeCenterX } = profile.construction;
  const eyePixels = interEyeDistance * width;
  const atLeast = (construction: number, metric: MetricName): number => {
    const rule = profile.rules.find((candidate) => candidate.metric === metric);
    return rule?.kind === 'range' && rule.min !== undefined ? Math.max(construction, rule.min) : construction;
  };
  return {
    left: atLeast((eyeCenterX * width) / eyePixels, 'LEFTWARD_CROP_OF_THE_FACE_IMAGE'),
    right: atLeast(((1 - eyeCenterX) * width) / eyePixels, 'RIGHTWARD_CROP_OF_THE_FACE_IMAGE'),
    up: atLeast((eyeLineY * height) / eyePixels, 'UPWARD_CROP_OF_THE_FACE_IMAGE'),
    down: atLeast(((1 - eyeLineY) * height) / eyePixels, 'DOWNWARD_CROP_OF_THE_FACE_IMAGE'),
  };
}

/** Rounds down to whole pixels (forgiving floating-point error just under a whole number), from 1 to `limit`. */
function wholePixels(value: number, limit: number): number {
  return Math.min(Math.floor(limit), Math.max(1, Math.floor(value + 1e-6)));
}
