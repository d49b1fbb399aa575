/**
 * The `--detector tfjs|onnx` option every evaluation that starts the face engine takes (and `npm run bench`):
 * which detector finds the faces and their meshes. Default: the engine's own (`DEFAULT_FACE_DETECTOR`).
 */
import {
  DEFAULT_FACE_DETECTOR,
  FACE_DETECTOR_KINDS,
  parseFaceDetectorKind,
  type FaceDetectorKind,
} from '../src/engines/face/face-detector-kind.js';

/** The option's `parseArgs` declaration: `options: { ...DETECTOR_OPTION, ... }`. */
export const DETECTOR_OPTION = { detector: { type: 'string', default: DEFAULT_FACE_DETECTOR } } as const;

/**
 * The detector an evaluation's `--detector` value names; an unknown name stops the run.
 *
 * @example
 * const { values } = parseArgs({ args: argv, options: { ...DETECTOR_OPTION } });
 * const engine = FaceEngine.start({ workers, pipeline: { detector: detectorOption(values.detector) } });
 */
export function detectorOption(value: string | undefined): FaceDetectorKind {
  const kind = parseFaceDetectorKind(value);
  if (kind === undefined) throw new Error(`--detector takes one of ${FACE_DETECTOR_KINDS.join(', ')} (got '${value}')`);
  return kind;
}
