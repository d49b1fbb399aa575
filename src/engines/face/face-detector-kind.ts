/**
 * Which detector finds faces and their meshes. `onnx`, the default: human's BlazeFace and FaceMesh with
 * their box, anchor and rotation arithmetic in our own code on onnxruntime (onnx-face-detector.ts), about
 * twice as fast, without iris points or `faceres`; a worker using it never loads TF.js. `tfjs`: the same
 * models run by `@vladmandic/human` on TF.js WASM (face-detector.ts), kept selectable (iris, `faceres`).
 */
export type FaceDetectorKind = 'tfjs' | 'onnx';

export const FACE_DETECTOR_KINDS: readonly FaceDetectorKind[] = ['tfjs', 'onnx'];

/**
 * The detector used when none is named (`VERIPORT_FACE_DETECTOR`, `FacePipelineConfig.detector`, the evals'
 * `--detector`). Its meshes equal TF.js's to a fraction of a pixel on the dev set, and the liveness, PAD,
 * analysis and recognition evaluations were re-run on them (docs/face-engine.md#detection-on-onnxruntime).
 */
export const DEFAULT_FACE_DETECTOR: FaceDetectorKind = 'onnx';

/**
 * The detector kind a name gives (trimmed, any case), `DEFAULT_FACE_DETECTOR` when there is none, or
 * undefined when the name is not one of `FACE_DETECTOR_KINDS`.
 *
 * @example
 * parseFaceDetectorKind(' TFJS '); // 'tfjs'
 * parseFaceDetectorKind(undefined); // 'onnx'
 * parseFaceDetectorKind('opencv'); // undefined
 */
export function parseFaceDetectorKind(name: string | undefined): FaceDetectorKind | undefined {
  const value = name?.trim().toLowerCase() ?? '';
  if (value === '') return DEFAULT_FACE_DETECTOR;
  return FACE_DETECTOR_KINDS.find((kind) => kind === value);
}
