import type { FaceFrameMeasures } from './frame-measures.js';
import { padScore } from './pad-classifier.js';
import type { PadModelKind } from './pad-model-kind.js';

/**
 * P(live) of one face under a PAD model kind: the hand-made classifier's score of the face's PAD
 * features, or the ONNX model's output the face engine computed with the frame.
 *
 * @example
 * facePLive(face.liveness, 'onnx'); // e.g. 0.998
 * @throws {Error} for `onnx` when the face engine did not run the ONNX model (started with `padModel: 'handmade'`),
 * for `handmade` when it did not compute the hand-made features (started with `padModel: 'onnx'` alone)
 */
export function facePLive(measures: Pick<FaceFrameMeasures, 'padFeatures' | 'padNet'>, kind: PadModelKind): number {
  if (kind === 'handmade') {
    if (measures.padFeatures === undefined) {
      throw new Error(
        "the face engine did not compute the hand-made PAD features: start it with padModel 'handmade' or handmadePadFeatures",
      );
    }
    return padScore(measures.padFeatures);
  }
  if (measures.padNet === undefined) {
    throw new Error(
      "the face engine did not run the ONNX PAD model: start it with the decision's PAD model (VERIPORT_PAD_MODEL)",
    );
  }
  return measures.padNet.pLive;
}
