import type { FaceObservation } from '../../engines/face/face-pipeline.js';
import {
  FACE_DETECTION_MODES,
  scoreFloorOfSensitivity,
  withinDetectionBounds,
  type DetectionBounds,
  type FaceDetectionMode,
} from '../../engines/face/face-selection.js';
import { invalidValue } from '../../server/errors/api-error.js';

/** Which detected faces a request keeps (the bounds, as face liveness reads them), and in what order. */
export interface DetectionOptions extends DetectionBounds {
  readonly rotation: 0 | 90 | 180 | 270;
  readonly mode: FaceDetectionMode;
}

/**
 * Checks the detection parameters of an analyzeImage input or an autocaptureVideo request. Face
 * analysis answers only the codes -1 to -6 (spec Doc 2), so every bad value here is -6.
 *
 * @example
 * const options = detectionOptions({ rotation: 90, minSize: 0.2, mode: 'DOMINANT_FACE_BY_SIZE' }, 'images[0].input');
 * @throws {ApiError} 400 -6 naming the field
 */
export function detectionOptions(
  given: {
    rotation?: number | undefined;
    sensitivity?: number | undefined;
    granularity?: number | undefined;
    minSize?: number | undefined;
    maxSize?: number | undefined;
    mode?: string | undefined;
  },
  field: string,
  names: { sensitivity: string; granularity: string; minSize: string; maxSize: string; mode: string },
): DetectionOptions {
  const fraction = (value: number | undefined, fallback: number, name: string) => {
    if (value === undefined) return fallback;
    if (!(value >= 0 && value <= 1)) throw invalidValue(`${field}.${name} must be from 0 to 1 (got ${value})`);
    return value;
  };
  const minSize = fraction(given.minSize, 0, names.minSize);
  const maxSize = fraction(given.maxSize, 1, names.maxSize);
  if (minSize > maxSize)
    throw invalidValue(`${field}.${names.minSize} (${minSize}) must not exceed ${names.maxSize} (${maxSize})`);
  const sensitivity = fraction(given.sensitivity, 1, names.sensitivity);
  fraction(given.granularity, 0.5, names.granularity);
  const rotation = given.rotation ?? 0;
  if (rotation !== 0 && rotation !== 90 && rotation !== 180 && rotation !== 270)
    throw invalidValue(`${field}.rotation must be 0, 90, 180 or 270 (got ${rotation})`);
  const mode = given.mode ?? 'FACE_ORDERING_BY_SIZE';
  if (!(FACE_DETECTION_MODES as readonly string[]).includes(mode))
    throw invalidValue(`${field}.${names.mode} must be one of ${FACE_DETECTION_MODES.join(', ')} (got '${mode}')`);
  return {
    rotation,
    minSize,
    maxSize,
    minScore: scoreFloorOfSensitivity(sensitivity),
    mode: mode as FaceDetectionMode,
  };
}

/**
 * The faces a request keeps: within the size bounds and above the score floor, ordered by size or
 * score; the DOMINANT modes keep only the first.
 *
 * @example
 * const kept = selectFaces(analysis.faces, options, analysis.width, analysis.height);
 */
export function selectFaces<F extends Pick<FaceObservation, 'box' | 'score'>>(
  faces: readonly F[],
  options: DetectionOptions,
  width: number,
  height: number,
): F[] {
  const kept = withinDetectionBounds(faces, options, width, height);
  const bySize = options.mode.endsWith('BY_SIZE');
  kept.sort((a, b) => (bySize ? b.box[2] * b.box[3] - a.box[2] * a.box[3] : b.score - a.score));
  return options.mode.startsWith('DOMINANT') ? kept.slice(0, 1) : kept;
}
