/**
 * Which presentation-attack model gives a face its P(live). `onnx`, the default: the neural model
 * `fr_liveness.onnx` (pad-onnx-model.ts), far stronger on the dev set (docs/liveness.md#pad-presentation-attacks).
 * `handmade`: the logistic regression on hand-written texture features (pad-classifier.ts), kept as the
 * fallback for a deployment that will not run weights of undisclosed provenance.
 */
export type PadModelKind = 'onnx' | 'handmade';

export const PAD_MODEL_KINDS: readonly PadModelKind[] = ['onnx', 'handmade'];

/** The model used when none is named (`VERIPORT_PAD_MODEL`, the face engine's and the decision's settings). */
export const DEFAULT_PAD_MODEL: PadModelKind = 'onnx';

/**
 * The model kind a name gives (trimmed, any case), `DEFAULT_PAD_MODEL` when there is none, or undefined
 * when the name is not one of `PAD_MODEL_KINDS`.
 *
 * @example
 * parsePadModelKind(' Handmade '); // 'handmade'
 * parsePadModelKind(undefined); // 'onnx'
 * parsePadModelKind('cnn'); // undefined
 */
export function parsePadModelKind(name: string | undefined): PadModelKind | undefined {
  const value = name?.trim().toLowerCase() ?? '';
  if (value === '') return DEFAULT_PAD_MODEL;
  return PAD_MODEL_KINDS.find((kind) => kind === value);
}
