import { interEyeDistance } from './eye-distance.js';
import type { FaceObservation } from './face-pipeline.js';

export interface SubjectRules {
  /**
   * Smallest distance between the eye centres, in pixels and in 3-D ({@link interEyeDistance}: a turned
   * head counts as if it faced the camera), for a face to be matched; set by measurement
   * (`npm run eval -- face-size`, docs/face-engine.md). 0: no floor (liveness reports small faces its own way).
   */
  readonly minInterEyePixels: number;
  /**
   * A face at least this share of the largest face's width contends for subject; smaller faces are
   * background and ignored.
   */
  readonly contenderRatio: number;
  /**
   * Contenders whose prominences ({@link prominenceOf}) are within this of the most prominent one make
   * the choice ambiguous, and the image is refused.
   */
  readonly ambiguityMargin: number;
}

/**
 * The size floor and why, measured by `npm run eval -- face-size ../shared/data/faces/dev`
 * (reports/face-size.md, both photos of a pair at the size, the distance in 3-D as the floor reads it;
 * docs/face-engine.md): at 16 px between the eyes F500 still matches nearly as at the set's own ~25 px
 * (FNMR at FMR 10^-3 6.2% against 4.9% at 24 px, and the services' threshold for FMR 10^-3 lets 0.12% of
 * impostors through); at 12 px FNMR nearly doubles (11.0%) and that threshold lets 0.20% through. Quoted in
 * the refusal so a client learns why.
 */
export const SIZE_FLOOR_EVIDENCE = {
  minInterEyePixels: 16,
  belowPixels: 12,
  fnmrBelow: 0.11,
  fmrBelow: 0.002,
  fnmrAtFloor: 0.062,
  fmrAtFloor: 0.0012,
} as const;

/**
 * The subject is the dominant face ({@link selectSubjectFace}): faces under 0.8 of the largest's width
 * are background; among the rest the most prominent wins unless another is within 0.03 of it. Faces
 * with fewer than {@link SIZE_FLOOR_EVIDENCE}'s pixels between the eyes are too small to match.
 */
export const DEFAULT_SUBJECT_RULES: SubjectRules = {
  minInterEyePixels: SIZE_FLOOR_EVIDENCE.minInterEyePixels,
  contenderRatio: 0.8,
  ambiguityMargin: 0.03,
};

/** Weights of a contender's prominence: its width against the largest's, its centrality, its detection score. */
export const PROMINENCE_WEIGHTS = { size: 0.6, centrality: 0.3, score: 0.1 } as const;

/** What the subject rule reads of a face: its box and detection score (the size floor also reads the eyes). */
export type RankedCandidate = Pick<FaceObservation, 'box' | 'score'>;

/** What {@link selectSubjectFace} reads of a face: box, detection score, key points and mesh (its eyes in 3-D). */
export type SubjectCandidate = Pick<FaceObservation, 'box' | 'score' | 'keyPoints' | 'mesh'>;

/** The image the faces were found in (its decoded size, the faces' coordinates). */
export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

/** Why an image has no subject. */
export type SubjectRefusal = 'no-face' | 'ambiguous-faces' | 'face-too-small';

/** The chosen face, of the caller's own face type, or why there is none. */
export type SubjectFace<F extends SubjectCandidate = FaceObservation> =
  | {
      readonly ok: true;
      readonly face: F;
      /** The subject's {@link interEyeDistance}: pixels between the eyes in 3-D. */
      readonly interEyePixels: number;
    }
  | { readonly ok: false; readonly reason: SubjectRefusal; readonly message: string };

/** The faces that contend for subject, most prominent first, and how many of them tie for first. */
export interface SubjectRanking<F extends RankedCandidate> {
  readonly contenders: ReadonlyArray<{ readonly face: F; readonly prominence: number }>;
  /** Contenders within the ambiguity margin of the first, the first included (0 without faces, 1: a clear subject). */
  readonly tied: number;
}

/**
 * How prominent a contender is, 0..1: 0.6 × its width over the largest face's + 0.3 × its centrality
 * (1 at the image centre, 0 at a corner: 1 − 2 × the distance of its box centre to the image centre over
 * the image diagonal) + 0.1 × its detection score.
 *
 * @example
 * prominenceOf({ box: [270, 190, 100, 100], score: 1 }, 100, { width: 640, height: 480 }); // 1
 */
export function prominenceOf(face: RankedCandidate, largestWidth: number, image: ImageSize): number {
  const [x, y, w, h] = face.box;
  const diagonal = Math.hypot(image.width, image.height);
  const offCentre = Math.hypot(x + w / 2 - image.width / 2, y + h / 2 - image.height / 2);
  const centrality = diagonal > 0 ? Math.max(0, 1 - (2 * offCentre) / diagonal) : 0;
  const share = largestWidth > 0 ? w / largestWidth : 0;
  return (
    PROMINENCE_WEIGHTS.size * share + PROMINENCE_WEIGHTS.centrality * centrality + PROMINENCE_WEIGHTS.score * face.score
  );
}

/**
 * Whether a face is wide enough to contend for subject (at least `contenderRatio` of the largest face's
 * width); the pipeline embeds only these.
 *
 * @example
 * isSubjectContender(face, Math.max(...faces.map((f) => f.box[2]))); // false for a face in the background
 */
export function isSubjectContender(
  face: Pick<FaceObservation, 'box'>,
  largestWidth: number,
  rules: SubjectRules = DEFAULT_SUBJECT_RULES,
): boolean {
  return face.box[2] >= rules.contenderRatio * largestWidth;
}

/**
 * The subject rule's ranking: the faces at least `contenderRatio` of the largest's width, by prominence
 * ({@link prominenceOf}; equal prominences: the wider first, then the order given), and how many of them
 * are within `ambiguityMargin` of the first.
 *
 * @example
 * const { contenders, tied } = rankSubjectCandidates(analysis.faces, analysis);
 * if (tied === 1) contenders[0]?.face; // the dominant face
 */
export function rankSubjectCandidates<F extends RankedCandidate>(
  faces: readonly F[],
  image: ImageSize,
  rules: SubjectRules = DEFAULT_SUBJECT_RULES,
): SubjectRanking<F> {
  const largest = Math.max(0, ...faces.map((f) => f.box[2]));
  const contenders = faces
    .filter((face) => isSubjectContender(face, largest, rules))
    .map((face, order) => ({ face, order, prominence: prominenceOf(face, largest, image) }))
    .sort((a, b) => b.prominence - a.prominence || b.face.box[2] - a.face.box[2] || a.order - b.order)
    .map(({ face, prominence }) => ({ face, prominence }));
  const first = contenders[0]?.prominence ?? 0;
  const tied = contenders.filter((c) => first - c.prominence < rules.ambiguityMargin).length;
  return { contenders, tied };
}

/**
 * The one face an image is about, the dominant face: the widest; when others are close to it in width
 * (at least `contenderRatio` of it), the most prominent of them by width, nearness to the image centre
 * and detection score ({@link prominenceOf}). Smaller faces are ignored. Refuses an image with no face,
 * with two contenders within `ambiguityMargin` of each other (two people of near-equal size and
 * centrality: which one is meant cannot be told), or whose subject has fewer than `minInterEyePixels`
 * between the eyes (in 3-D: {@link interEyeDistance}), each with a message that says which. The face comes
 * back as the type it went in (an `AnalyzedFace` stays one).
 *
 * @example
 * const subject = selectSubjectFace(analysis.faces, analysis);
 * if (!subject.ok) throw invalidValue(`probe: ${subject.message}`);
 */
export function selectSubjectFace<F extends SubjectCandidate>(
  faces: readonly F[],
  image: ImageSize,
  rules: SubjectRules = DEFAULT_SUBJECT_RULES,
): SubjectFace<F> {
  const { contenders, tied } = rankSubjectCandidates(faces, image, rules);
  const main = contenders[0]?.face;
  if (main === undefined) return { ok: false, reason: 'no-face', message: 'no face found in the image' };
  if (tied > 1) {
    return {
      ok: false,
      reason: 'ambiguous-faces',
      message:
        `${tied} faces of near-equal size and nearness to the centre found in the image, none of them clearly ` +
        'the subject: send a photo in which the person is the largest face or the one nearest the centre',
    };
  }
  const interEyePixels = interEyeDistance(main);
  if (interEyePixels < rules.minInterEyePixels) {
    return { ok: false, reason: 'face-too-small', message: tooSmallMessage(interEyePixels, rules.minInterEyePixels) };
  }
  return { ok: true, face: main, interEyePixels };
}

/**
 * The dominant face of face analysis's `DOMINANT_FACE_*` modes: the subject rule's choice; when it is
 * ambiguous (analysis reports rather than refuses), the tied contender with the largest box
 * (`by: 'size'`) or the highest detection score (`by: 'score'`). No size floor.
 *
 * @example
 * const face = dominantFace(kept, analysis, 'score');
 */
export function dominantFace<F extends RankedCandidate>(
  faces: readonly F[],
  image: ImageSize,
  by: 'size' | 'score',
  rules: SubjectRules = DEFAULT_SUBJECT_RULES,
): F | undefined {
  const { contenders, tied } = rankSubjectCandidates(faces, image, rules);
  const key = (f: F) => (by === 'size' ? f.box[2] * f.box[3] : f.score);
  // The sort is stable: among equal keys the more prominent stays first.
  return contenders
    .slice(0, tied)
    .map((c) => c.face)
    .sort((a, b) => key(b) - key(a))[0];
}

function tooSmallMessage(interEyePixels: number, minimum: number): string {
  const e = SIZE_FLOOR_EVIDENCE;
  const pct = (x: number) => `${(x * 100).toFixed(2).replace(/0$/, '')}%`;
  const measured =
    minimum === e.minInterEyePixels
      ? ` (measured on the development set: with ${e.belowPixels} px between the eyes F500 misses ` +
        `${pct(e.fnmrBelow)} of same-person pairs at the FMR 10^-3 threshold and lets ${pct(e.fmrBelow)} of ` +
        `other-person pairs through, against ${pct(e.fnmrAtFloor)} and ${pct(e.fmrAtFloor)} at ${minimum} px)`
      : '';
  return (
    `the face is too small: ${interEyePixels.toFixed(0)} pixels between the eyes (a turned head counted as if it ` +
    `faced the camera), at least ${minimum} needed${measured}`
  );
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
