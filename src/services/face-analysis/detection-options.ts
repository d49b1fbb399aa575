import {
  checkDetectionParameters,
  type DetectionParameterInput,
  type DetectionParameters,
} from '../../engines/face/detection-parameters.js';
import type { FaceObservation } from '../../engines/face/face-pipeline.js';
import { dominantFace, withinDetectionBounds } from '../../engines/face/face-selection.js';
import { invalidValue } from '../../server/errors/api-error.js';

/**
 * Checks the detection parameters of an analyzeImage input or an autocaptureVideo request, naming
 * each field as the request spells it (`rotation` is `rotation` in both). Face analysis answers only
 * the codes -1 to -6 (spec Doc 2), so every bad value here is -6.
 *
 * @example
 * const options = detectionOptions({ rotation: 90, minSize: 0.2, mode: 'DOMINANT_FACE_BY_SIZE' }, 'images[0].input', {
 *   sensitivity: 'faceSensitivity',
 *   granularity: 'faceGranularity',
 *   minSize: 'faceMinimumSize',
 *   maxSize: 'faceMaximumSize',
 *   mode: 'faceDetectionMode',
 * });
 * @throws {ApiError} 400 -6 naming the field
 */
export function detectionOptions(
  given: DetectionParameterInput,
  field: string,
  names: Readonly<Record<Exclude<keyof DetectionParameterInput, 'rotation'>, string>>,
): DetectionParameters {
  return checkDetectionParameters(given, {
    names: { ...names, rotation: 'rotation' },
    path: `${field}.`,
    fail: (_problem, message) => invalidValue(message),
  });
}

/**
 * The faces a request keeps: within the size bounds and above the score floor, ordered by size or
 * score; the DOMINANT modes keep only the dominant face, by the subject rule the other services use
 * (face-selection.ts: widest, then nearest the centre among faces of near-equal width), its size or
 * score deciding only where that rule finds two faces equally dominant.
 *
 * @example
 * const kept = selectFaces(analysis.faces, options, analysis.width, analysis.height);
 */
export function selectFaces<F extends Pick<FaceObservation, 'box' | 'score'>>(
  faces: readonly F[],
  options: DetectionParameters,
  width: number,
  height: number,
): F[] {
  const kept = withinDetectionBounds(faces, options, width, height);
  const bySize = options.mode.endsWith('BY_SIZE');
  if (options.mode.startsWith('DOMINANT')) {
    const dominant = dominantFace(kept, { width, height }, bySize ? 'size' : 'score');
    return dominant === undefined ? [] : [dominant];
  }
  kept.sort((a, b) => (bySize ? b.box[2] * b.box[3] - a.box[2] * a.box[3] : b.score - a.score));
  return kept;
}
