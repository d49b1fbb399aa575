import type { FaceObservation } from './face-pipeline.js';

export interface SubjectRules {
  /** Smallest distance between the eye centres, in pixels, for a face to be measured reliably. */
  readonly minInterEyePixels: number;
  /** Another face at least this share of the largest face's width means the photo shows several people. */
  readonly competingFaceRatio: number;
}

/**
 * Matching reads faces down to about 20 px between the eyes (LFW's 150-px photos hold ~30 px); a
 * second face over half the size of the first is another person in the picture, not a face far in
 * the background.
 */
export const DEFAULT_SUBJECT_RULES: SubjectRules = { minInterEyePixels: 20, competingFaceRatio: 0.5 };

/** What {@link selectSubjectFace} reads of a face: its box and eye centres. */
export type SubjectCandidate = Pick<FaceObservation, 'box' | 'keyPoints'>;

/** The chosen face, of the caller's own face type, or why there is none. */
export type SubjectFace<F extends SubjectCandidate = FaceObservation> =
  | { readonly ok: true; readonly face: F; readonly interEyePixels: number }
  | { readonly ok: false; readonly reason: 'no-face' | 'several-faces' | 'face-too-small'; readonly message: string };

/**
 * The one face an image is about: refuses an image with no face, with several comparable faces, or
 * whose face is too small to measure, each with a message that says which. The face comes back as the
 * type it went in (an `AnalyzedFace` stays one).
 *
 * @example
 * const subject = selectSubjectFace(analysis.faces);
 * if (!subject.ok) throw invalidValue(`probe: ${subject.message}`);
 */
export function selectSubjectFace<F extends SubjectCandidate>(
  faces: readonly F[],
  rules: SubjectRules = DEFAULT_SUBJECT_RULES,
): SubjectFace<F> {
  const [main, ...smaller] = [...faces].sort((a, b) => b.box[2] - a.box[2]);
  if (main === undefined) return { ok: false, reason: 'no-face', message: 'no face found in the image' };
  const competing = smaller.filter((f) => f.box[2] >= rules.competingFaceRatio * main.box[2]);
  if (competing.length > 0) {
    return {
      ok: false,
      reason: 'several-faces',
      message: `${competing.length + 1} faces found in the image; it must show one person`,
    };
  }
  const { rightEye, leftEye } = main.keyPoints;
  const interEyePixels = Math.hypot(leftEye[0] - rightEye[0], leftEye[1] - rightEye[1]);
  if (interEyePixels < rules.minInterEyePixels) {
    return {
      ok: false,
      reason: 'face-too-small',
      message: `the face is too small: ${interEyePixels.toFixed(0)} pixels between the eyes, at least ${rules.minInterEyePixels} needed`,
    };
  }
  return { ok: true, face: main, interEyePixels };
}

/** The spec's face detection modes (Doc 2: face liveness and face analysis). */
export const FACE_DETECTION_MODES = [
  'FACE_ORDERING_BY_SIZE',
  'FACE_ORDERING_BY_SCORE',
  'DOMINANT_FACE_BY_SIZE',
  'DOMINANT_FACE_BY_SCORE',
] as const;
export type FaceDetectionMode = (typeof FACE_DETECTION_MODES)[number];

/** Which detections a request accepts: face width bounds (shares of the shorter image side) and a confidence floor. */
export interface DetectionBounds {
  readonly minSize: number;
  readonly maxSize: number;
  readonly minScore: number;
}

/**
 * The least detector confidence for a request's detection `sensitivity` s (0..1): 0.3 + 0.6·(1 − s),
 * so s = 1 keeps everything the detector reports (its own floor is 0.3) and s = 0 only near-certain faces.
 *
 * @example
 * scoreFloorOfSensitivity(1); // 0.3
 */
export function scoreFloorOfSensitivity(sensitivity: number): number {
  return 0.3 + 0.6 * (1 - sensitivity);
}

/**
 * The faces within a request's size bounds and above its confidence floor.
 *
 * @example
 * const bounds = { minSize: 0.2, maxSize: 1, minScore: 0.3 };
 * const kept = withinDetectionBounds(analysis.faces, bounds, analysis.width, analysis.height);
 */
export function withinDetectionBounds<F extends Pick<FaceObservation, 'box' | 'score'>>(
  faces: readonly F[],
  bounds: DetectionBounds,
  width: number,
  height: number,
): F[] {
  const shorter = Math.min(width, height);
  return faces.filter(
    (f) => f.score >= bounds.minScore && f.box[2] >= bounds.minSize * shorter && f.box[2] <= bounds.maxSize * shorter,
  );
}
