/**
 * Which detector finds faces and their meshes. `tfjs`: human's BlazeFace and FaceMesh on TF.js WASM
 * (face-detector.ts), the default. `onnx`: the same models and arithmetic on onnxruntime
 * (onnx-face-detector.ts): the same faces, about twice as fast, without iris points or `faceres`.
 */
export type FaceDetectorKind = 'tfjs' | 'onnx';

export const FACE_DETECTOR_KINDS: readonly FaceDetectorKind[] = ['tfjs', 'onnx'];
