import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { OnnxGraph, tfFiltersToOnnx, type AttributeValue } from './onnx-graph.js';
import { onnxChannelBlock } from './onnx-session.js';
import { readTfjsWeights, type TfjsWeight, type WeightGroup } from './tfjs-weights.js';

/** A node of a TF.js graph model's topology (`model.json`), as the converter writes it. */
interface TfNode {
  readonly name: string;
  readonly op: string;
  readonly input?: string[];
  readonly attr?: Readonly<
    Record<string, { readonly s?: string; readonly list?: { readonly i?: string[]; readonly s?: string[] } }>
  >;
}

interface GraphModelJson {
  readonly modelTopology: { readonly node: TfNode[] };
  readonly weightsManifest: WeightGroup[];
}

/** The converted model and the names of its outputs (the TF graph's `Identity` outputs, in graph order). */
export interface ConvertedGraphModel {
  readonly bytes: Uint8Array;
  readonly input: string;
  readonly outputs: readonly string[];
}

export interface GraphModelOptions {
  /**
   * Conv outputs are padded with zero channels up to a multiple of this (1: none); default
   * {@link onnxChannelBlock}, the block of onnxruntime's conv layout on this CPU.
   */
  readonly channelBlock?: number;
  /** The input's layout: TF.js's `nhwc` (the default, transposed in the graph) or `nchw` (fed planar). */
  readonly inputLayout?: 'nhwc' | 'nchw';
}

/** Raised for a graph that uses an op or attribute the converter does not handle. */
export class GraphModelConversionError extends Error {
  override name = 'GraphModelConversionError';
}

/**
 * Converts a TF.js graph model (`model.json` and its weight shards, as npm packages ship them) into
 * an ONNX model for onnxruntime. Handles the ops of `@vladmandic/human`'s BlazeFace and FaceMesh:
 * `_FusedConv2D` (BiasAdd, Relu, Prelu), `DepthwiseConv2dNative`, `AddV2`, `Relu`, `Prelu`,
 * `Sigmoid`, `MaxPool`, `Pad`, `Reshape`, `Identity`. The graph runs NCHW inside: the NHWC input is
 * transposed once (or fed planar, `inputLayout: 'nchw'`), and back before each `Reshape`, so outputs
 * have the shapes TF.js gives them.
 * TF's 'SAME' padding is ONNX's `SAME_UPPER` (the extra row and column at the end). For onnxruntime's
 * blocked conv layout, channel counts are padded with zero channels to `channelBlock` (BlazeFace's 24
 * become 32 with AVX-512) and sliced off before `Reshape`; PReLU is rewritten as depthwise convs
 * (`#prelu`). Neither changes the outputs beyond float rounding.
 *
 * Measured (tests and docs/face-engine.md): outputs equal TF.js's within float rounding; BlazeFace
 * 8.9 ms and FaceMesh 6.2 ms per frame on one thread as first converted (48 and 13 ms on TF.js WASM),
 * ~6.8 and ~2.0 ms with the channel padding and the PReLU rewrite.
 *
 * @throws {GraphModelConversionError} for an op the converter does not handle
 * @example
 * const model = graphModelToOnnx('node_modules/@vladmandic/human/models/facemesh.json', [1, 192, 192, 3]);
 * const session = await InferenceSession.create(model.bytes);
 * const out = await session.run({ [model.input]: new Tensor('float32', pixels, [1, 192, 192, 3]) });
 */
export function graphModelToOnnx(
  modelPath: string,
  inputShape: readonly number[],
  options: GraphModelOptions = {},
): ConvertedGraphModel {
  const json = JSON.parse(readFileSync(modelPath, 'utf8')) as GraphModelJson;
  const block = options.channelBlock ?? onnxChannelBlock();
  if (!(Number.isInteger(block) && block >= 1))
    throw new RangeError(`channel block ${block} is not a whole number ≥ 1`);
  const nchw = options.inputLayout === 'nchw';
  const converter = new Converter(
    readTfjsWeights(dirname(modelPath), json.weightsManifest),
    (nchw ? inputShape[1] : inputShape[3]) ?? 0,
    block,
    nchw,
  );
  for (const node of json.modelTopology.node) converter.add(node);
  return {
    bytes: converter.encodeModel(inputShape),
    input: INPUT,
    outputs: converter.outputs,
  };
}

const INPUT = 'input';
const NHWC_TO_NCHW = [0, 3, 1, 2];
const NCHW_TO_NHWC = [0, 2, 3, 1];

class Converter extends OnnxGraph {
  /** TF value name → ONNX value name (NCHW for 4-D activations). */
  readonly #values = new Map<string, string>();
  /** ONNX activation → its channels: the model's, and how many it carries (zero channels appended). */
  readonly #channels = new Map<string, { readonly real: number; readonly padded: number }>();
  readonly outputs: string[] = [];

  constructor(
    private readonly weights: ReadonlyMap<string, TfjsWeight>,
    private readonly inputChannels: number,
    private readonly channelBlock: number,
    private readonly nchwInput: boolean,
  ) {
    super();
  }

  add(node: TfNode): void {
    const inputs = (node.input ?? []).filter((name) => !name.startsWith('^')).map((name) => name.split(':')[0] ?? name);
    const value = (i: number): string => {
      const name = this.#values.get(inputs[i] ?? '');
      if (name === undefined) throw new GraphModelConversionError(`${node.name}: input ${inputs[i]} is not computed`);
      return name;
    };
    const set = (onnxName: string): void => void this.#values.set(node.name, onnxName);
    switch (node.op) {
      case 'Const':
        return;
      case 'Placeholder': {
        const x = this.nchwInput ? INPUT : this.node('Transpose', [INPUT], { perm: NHWC_TO_NCHW });
        this.#channels.set(x, { real: this.inputChannels, padded: this.inputChannels });
        return set(x);
      }
      case '_FusedConv2D':
        return set(this.#conv(node, inputs, value(0), false));
      case 'DepthwiseConv2dNative':
        return set(this.#conv(node, inputs, value(0), true));
      case 'AddV2':
        return set(this.#same(value(0), this.node('Add', [value(0), value(1)])));
      case 'Relu':
        return set(this.#same(value(0), this.node('Relu', [value(0)])));
      case 'Sigmoid':
        return set(this.#same(value(0), this.node('Sigmoid', [value(0)])));
      case 'Prelu':
        return set(this.#same(value(0), this.#prelu(value(0), inputs[1] ?? '')));
      case 'MaxPool': {
        const kernel = ints(node, 'ksize');
        return set(
          this.#same(
            value(0),
            this.node('MaxPool', [value(0)], { kernel_shape: [kernel[1] ?? 1, kernel[2] ?? 1], ...spatial(node) }),
          ),
        );
      }
      case 'Pad':
        return set(this.#pad(node, value(0), Array.from(this.#ints(inputs[1] ?? ''))));
      case 'Reshape': {
        const nhwc = this.node('Transpose', [this.#unpadded(value(0))], { perm: NCHW_TO_NHWC });
        return set(
          this.node('Reshape', [nhwc, this.int64s(`${node.name}/shape`, Array.from(this.#ints(inputs[1] ?? '')))]),
        );
      }
      case 'Identity':
        this.outputs.push(this.node('Identity', [this.#unpadded(value(0))], {}, node.name));
        return set(node.name);
      default:
        throw new GraphModelConversionError(`${node.name}: op ${node.op} is not supported`);
    }
  }

  encodeModel(inputShape: readonly number[]): Uint8Array {
    return this.encode(
      'graph-model',
      [{ name: INPUT, shape: inputShape }],
      this.outputs.map((name) => ({ name })),
    );
  }

  /**
   * A (depthwise) conv: filters [kh, kw, in, out|multiplier] to ONNX [out, in/group, kh, kw], fused bias
   * and activation. Output channels are padded with zero filters up to a multiple of `channelBlock`
   * (see {@link graphModelToOnnx}), and the filters read the input's padded channels as zeros.
   */
  #conv(node: TfNode, inputs: readonly string[], x: string, depthwise: boolean): string {
    const w = this.#floats(inputs[1] ?? '');
    const filters = tfFiltersToOnnx(w.shape, w.values, depthwise);
    const [out, perGroup, kh, kw] = filters.dims;
    const input = this.#channelsOf(x);
    if (input.real !== (w.shape[2] ?? 0))
      throw new GraphModelConversionError(`${node.name}: ${input.real} input channels, filters for ${w.shape[2]}`);
    const multiplier = depthwise ? out / input.real : 1;
    if (multiplier !== 1 && input.padded !== input.real)
      throw new GraphModelConversionError(`${node.name}: a depthwise multiplier on padded channels is not supported`);
    // A depthwise conv keeps its filters per (padded) input channel; a conv pads its outputs.
    const outPadded = depthwise ? input.padded * multiplier : roundUp(out, this.channelBlock);
    const inPadded = depthwise ? perGroup : input.padded;
    const padded = new Float32Array(outPadded * inPadded * kh * kw);
    for (let o = 0; o < out; o++) {
      for (let c = 0; c < perGroup; c++) {
        const from = (o * perGroup + c) * kh * kw;
        padded.set(filters.values.subarray(from, from + kh * kw), (o * inPadded + c) * kh * kw);
      }
    }
    const fused = (node.attr?.['fused_ops']?.list?.s ?? []).map(decode);
    const operands = [x, this.floats(`${node.name}/W`, [outPadded, inPadded, kh, kw], padded)];
    if (fused.includes('BiasAdd'))
      operands.push(
        this.floats(`${node.name}/B`, [outPadded], zeroPadded(this.#floats(inputs[2] ?? '').values, outPadded)),
      );
    let y = this.node('Conv', operands, {
      kernel_shape: [kh, kw],
      ...spatial(node),
      ...(depthwise ? { group: input.padded } : {}),
    });
    this.#channels.set(y, { real: out, padded: outPadded });
    for (const op of fused.filter((f) => f !== 'BiasAdd')) {
      if (op === 'Relu') y = this.#same(y, this.node('Relu', [y]));
      else if (op === 'Prelu') y = this.#same(y, this.#prelu(y, inputs[3] ?? ''));
      else throw new GraphModelConversionError(`${node.name}: fused op ${op} is not supported`);
    }
    return y;
  }

  /**
   * TF's Pad (`[[n0, n1], [h0, h1], [w0, w1], [c0, c1]]`) as ONNX's NCHW `[n0, c0, h0, w0, n1, c1, h1, w1]`;
   * zero channels appended at the end (c1) cover the padding the input already carries. A pad of
   * channels alone (BlazeFace's and FaceMesh's widening shortcuts) becomes a 1×1 conv that copies each
   * channel to its place (weights 1 and 0, so exactly the same values): onnxruntime keeps a conv in its
   * blocked layout and fuses the shortcut's add into it, where a Pad made it reorder the activations.
   */
  #pad(node: TfNode, x: string, p: readonly number[]): string {
    const [n0 = 0, n1 = 0, h0 = 0, h1 = 0, w0 = 0, w1 = 0, c0 = 0, c1 = 0] = p;
    let input = this.#channelsOf(x);
    let from = x;
    if (c0 !== 0 && input.padded !== input.real) {
      from = this.#unpadded(x);
      input = this.#channelsOf(from);
    }
    const real = input.real + c0 + c1;
    const padded =
      c0 === 0 && c1 > 0 ? Math.max(roundUp(real, this.channelBlock), input.padded) : input.padded + c0 + c1;
    let y: string;
    if ([n0, n1, h0, h1, w0, w1].every((v) => v === 0)) {
      const weights = new Float32Array(padded * input.padded);
      for (let c = 0; c < input.real; c++) weights[(c0 + c) * input.padded + c] = 1;
      y = this.node('Conv', [from, this.floats(`${node.name}/copy`, [padded, input.padded, 1, 1], weights)], {
        kernel_shape: [1, 1],
      });
    } else {
      const pads = [n0, c0, h0, w0, n1, padded - input.padded - c0, h1, w1];
      y = this.node('Pad', [from, this.int64s(`${node.name}/pads`, pads)]);
    }
    this.#channels.set(y, { real, padded });
    return y;
  }

  /** The activation without its padding channels (itself when it has none, or is no NCHW activation). */
  #unpadded(x: string): string {
    const channels = this.#channels.get(x);
    if (channels === undefined || channels.real === channels.padded) return x;
    const { real } = channels;
    const y = this.node('Slice', [
      x,
      this.int64s(`${x}/slice/starts`, [0]),
      this.int64s(`${x}/slice/ends`, [real]),
      this.int64s(`${x}/slice/axes`, [1]),
    ]);
    this.#channels.set(y, { real, padded: real });
    return y;
  }

  /** Records that `y` has the channels of `x` (an element-wise op); returns `y`. */
  #same(x: string, y: string): string {
    const channels = this.#channels.get(x);
    if (channels) this.#channels.set(y, channels);
    return y;
  }

  #channelsOf(x: string): { readonly real: number; readonly padded: number } {
    const channels = this.#channels.get(x);
    if (channels === undefined) throw new GraphModelConversionError(`${x}: channel count unknown`);
    return channels;
  }

  /**
   * PReLU with TF's per-channel slopes s, as x + (1 − s)·ReLU(−x): two 1×1 depthwise convs (weights −1
   * with ReLU, then 1 − s with the sum of x), which onnxruntime fuses into its blocked conv kernels.
   * Its own PRelu kernel ran about half of FaceMesh's time (measured: FaceMesh 2.7 → 2.0 ms CPU per crop);
   * the result equals PReLU exactly for x ≥ 0 and to float rounding below.
   */
  #prelu(x: string, slopeName: string): string {
    const values = this.#floats(slopeName).values;
    const channels = this.#channels.get(x)?.padded ?? values.length;
    const slope = zeroPadded(values, channels);
    const depthwise = (input: string, name: string, weights: Float32Array): string =>
      this.node('Conv', [input, this.floats(`${x}/prelu/${name}`, [channels, 1, 1, 1], weights)], {
        group: channels,
        kernel_shape: [1, 1],
      });
    const negativePart = this.node('Relu', [depthwise(x, 'negate', new Float32Array(channels).fill(-1))]);
    const scaled = depthwise(
      negativePart,
      'one-minus-slope',
      Float32Array.from(slope, (s) => 1 - s),
    );
    return this.node('Add', [scaled, x]);
  }

  #floats(name: string): { shape: readonly number[]; values: Float32Array } {
    const w = this.weights.get(name);
    if (w?.dtype !== 'float32') throw new GraphModelConversionError(`no float constant '${name}'`);
    return w;
  }

  #ints(name: string): Int32Array {
    const w = this.weights.get(name);
    if (w?.dtype !== 'int32') throw new GraphModelConversionError(`no int constant '${name}'`);
    return w.values;
  }
}

/** Strides and padding of a TF conv or pool (NHWC attributes) as ONNX attributes. */
function spatial(node: TfNode): Record<string, AttributeValue> {
  const strides = ints(node, 'strides');
  const padding = decode(node.attr?.['padding']?.s ?? '');
  if (padding !== 'SAME' && padding !== 'VALID')
    throw new GraphModelConversionError(`${node.name}: padding ${padding} is not supported`);
  const dilations = ints(node, 'dilations');
  if (dilations.some((d) => d !== 1)) throw new GraphModelConversionError(`${node.name}: dilations are not supported`);
  return { strides: [strides[1] ?? 1, strides[2] ?? 1], ...(padding === 'SAME' ? { auto_pad: 'SAME_UPPER' } : {}) };
}

function roundUp(value: number, block: number): number {
  return Math.ceil(value / block) * block;
}

/** `values` followed by zeros up to `length`. */
function zeroPadded(values: Float32Array, length: number): Float32Array {
  if (values.length === length) return values;
  const out = new Float32Array(length);
  out.set(values);
  return out;
}

function ints(node: TfNode, key: string): number[] {
  return (node.attr?.[key]?.list?.i ?? []).map(Number);
}

/** TF.js stores string attributes base64-encoded. */
function decode(base64: string): string {
  return Buffer.from(base64, 'base64').toString('utf8');
}
