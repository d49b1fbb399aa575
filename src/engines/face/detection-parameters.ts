import {
  FACE_DETECTION_MODES,
  scoreFloorOfSensitivity,
  type DetectionBounds,
  type FaceDetectionMode,
} from './face-selection.js';
import { isRotation, type Rotation } from './rotation.js';

/**
 * A request's face-detection parameters as sent, whatever the service calls the fields (face
 * liveness and onboarding: `face_detection_min_size`, ...; face analysis: `faceMinimumSize`, ...).
 */
export interface DetectionParameterInput {
  /** Face width bounds, as shares (0..1) of the shorter image side. */
  readonly minSize?: number | undefined;
  readonly maxSize?: number | undefined;
  /** 0..1: 1 keeps every face the detector reports, 0 only near-certain ones. */
  readonly sensitivity?: number | undefined;
  /** 0..1: checked but without effect (BlazeFace detects in one pass, with no scale pyramid to step). */
  readonly granularity?: number | undefined;
  readonly mode?: string | undefined;
  readonly rotation?: number | undefined;
}

/** What can be wrong with the parameters; face liveness answers each with its own code. */
export type DetectionProblem =
  'minSize' | 'maxSize' | 'minAboveMax' | 'sensitivity' | 'granularity' | 'mode' | 'rotation';

/** How a caller names the fields in its messages and which error it raises for each problem. */
export interface DetectionParameterCheck {
  /** Each field's name in the caller's request. */
  readonly names: Readonly<Record<keyof DetectionParameterInput, string>>;
  /** Put before the field a message starts with, e.g. `images[0].input.`; none by default. */
  readonly path?: string;
  /** The caller's error (its type and code) for a problem; the message names the field and the value. */
  readonly fail: (problem: DetectionProblem, message: string) => Error;
}

/** The checked parameters with their defaults: sizes 0 to 1, sensitivity 1, FACE_ORDERING_BY_SIZE, rotation 0. */
export interface DetectionParameters extends DetectionBounds {
  readonly mode: FaceDetectionMode;
  readonly rotation: Rotation;
}

/**
 * Checks a request's face-detection parameters, in the order a client would fix them (size bounds,
 * sensitivity, granularity, mode, rotation), and gives them with their defaults; the first problem
 * found is raised as the caller's error.
 *
 * @example
 * const detection = checkDetectionParameters(
 *   { minSize: body.face_detection_min_size, rotation: body.rotation },
 *   {
 *     names: { minSize: 'face_detection_min_size', maxSize: 'face_detection_max_size',
 *       sensitivity: 'face_detection_sensitivity', granularity: 'face_detection_granularity',
 *       mode: 'face_detection_mode', rotation: 'rotation' },
 *     fail: (problem, message) => new LivenessInputError(CODES[problem], message),
 *   },
 * );
 * detection.minScore; // 0.3 when no sensitivity is given
 * @throws whatever `fail` returns, for the first problem
 */
export function checkDetectionParameters(
  given: DetectionParameterInput,
  check: DetectionParameterCheck,
): DetectionParameters {
  const { names, path = '', fail } = check;
  const fraction = (value: number | undefined, fallback: number, problem: DetectionProblem, name: string) => {
    if (value === undefined) return fallback;
    if (!(value >= 0 && value <= 1)) throw fail(problem, `${path}${name} must be from 0 to 1 (got ${value})`);
    return value;
  };
  const minSize = fraction(given.minSize, 0, 'minSize', names.minSize);
  const maxSize = fraction(given.maxSize, 1, 'maxSize', names.maxSize);
  if (minSize > maxSize)
    throw fail('minAboveMax', `${path}${names.minSize} (${minSize}) must not exceed ${names.maxSize} (${maxSize})`);
  const sensitivity = fraction(given.sensitivity, 1, 'sensitivity', names.sensitivity);
  fraction(given.granularity, 0.5, 'granularity', names.granularity);
  const mode = given.mode ?? 'FACE_ORDERING_BY_SIZE';
  if (!isDetectionMode(mode))
    throw fail('mode', `${path}${names.mode} must be one of ${FACE_DETECTION_MODES.join(', ')} (got '${mode}')`);
  const rotation = given.rotation ?? 0;
  if (!isRotation(rotation))
    throw fail('rotation', `${path}${names.rotation} must be 0, 90, 180 or 270 (got ${rotation})`);
  return { minSize, maxSize, minScore: scoreFloorOfSensitivity(sensitivity), mode, rotation };
}

function isDetectionMode(mode: string): mode is FaceDetectionMode {
  return (FACE_DETECTION_MODES as readonly string[]).includes(mode);
}
