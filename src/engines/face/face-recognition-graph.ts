import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';
import { packageDir } from '../../lib/package-files.js';

// onnx-proto is CommonJS: the namespace is a property of its default export.
const { onnx } = onnxProto;

/** Side of the square crop the recognition net reads. */
export const RECOGNITION_INPUT_SIZE = 150;
/** Length of the embedding it returns. */
export const RECOGNITION_DIMENSIONS = 128;
/** Names of the graph's input ([n, 3, 150, 150] float32, RGB 0..255, planar) and output ([n, 128]). */
export const RECOGNITION_INPUT = 'crops';
export const RECOGNITION_OUTPUT = 'embeddings';

/** face-api's input normalisation: `(rgb - mean) / 255`. */
const MEAN_RGB = [122.782, 117.001, 104.298] as const;

/** The net's layers in order: the residual stages of faceRecognitionNet (a dlib-style ResNet-34). */
const STAGES: ReadonlyArray<{ readonly name: string; readonly down: boolean }> = [
  ...['conv32_1', 'conv32_2', 'conv32_3'].map((name) => ({ name, down: false })),
  { name: 'conv64_down', down: true },
  ...['conv64_1', 'conv64_2', 'conv64_3'].map((name) => ({ name, down: false })),
  { name: 'conv128_down', down: true },
  ...['conv128_1', 'conv128_2'].map((name) => ({ name, down: false })),
  { name: 'conv256_down', down: true },
  ...['conv256_1', 'conv256_2'].map((name) => ({ name, down: false })),
  { name: 'conv256_down_out', down: true },
];

type Weights = ReadonlyMap<string, { readonly shape: readonly number[]; readonly values: Float32Array }>;

/**
 * `@vladmandic/face-api`'s faceRecognitionNet as an ONNX model, built from the weights that ship in
 * that package (nothing is downloaded or generated ahead of time), for onnxruntime's native CPU
 * kernels: 8.6 ms per crop against 51 ms for face-api on TF.js WebAssembly (docs/face-engine.md).
 *
 * The graph computes what face-api's `forwardInput` does, with the per-layer work folded away: each
 * conv's bias and its following `scale` layer (x·w + b) go into the conv's filters and bias, and the
 * input normalisation goes into the first conv (a 'valid' conv, so the constant mean term is the same
 * at every output pixel). face-api's residual-down zero padding (pooled shortcut channels, odd sizes)
 * becomes `Pad`.
 *
 * @example
 * const session = await InferenceSession.create(faceRecognitionModel());
 */
export function faceRecognitionModel(modelDir = faceApiModelDir()): Uint8Array {
  const weights = readWeights(modelDir, 'face_recognition_model');
  const graph = new GraphBuilder(weights);
  let x = graph.firstConv();
  x = graph.node('MaxPool', [x], { kernel_shape: [3, 3], strides: [2, 2] });
  let channels = 32;
  let size = Math.floor((Math.floor((RECOGNITION_INPUT_SIZE - 7) / 2) + 1 - 3) / 2) + 1; // 72 -> 35
  for (const stage of STAGES) {
    if (stage.down) {
      const out = graph.weight(`${stage.name}/conv1/conv/filters`).shape[3] ?? channels;
      const convSize = Math.floor((size - 3) / 2) + 1;
      const poolSize = Math.floor(size / 2);
      let y = graph.conv(`${stage.name}/conv1`, x, 2, 'valid', true);
      y = graph.conv(`${stage.name}/conv2`, y, 1, 'same', false);
      // face-api pads the conv path with zeros at the bottom/right when the pooled shortcut is larger.
      if (poolSize > convSize) y = graph.pad(y, [0, 0, 0, 0, 0, 0, poolSize - convSize, poolSize - convSize]);
      let shortcut = graph.node('AveragePool', [x], { kernel_shape: [2, 2], strides: [2, 2] });
      if (out > channels) shortcut = graph.pad(shortcut, [0, 0, 0, 0, 0, out - channels, 0, 0]);
      x = graph.node('Relu', [graph.node('Add', [y, shortcut])]);
      channels = out;
      size = Math.max(convSize, poolSize);
    } else {
      const y = graph.conv(`${stage.name}/conv2`, graph.conv(`${stage.name}/conv1`, x, 1, 'same', true), 1, 'same', false);
      x = graph.node('Relu', [graph.node('Add', [y, x])]);
    }
  }
  const pooled = graph.node('Flatten', [graph.node('GlobalAveragePool', [x])]);
  const fc = graph.weight('fc');
  graph.output(graph.node('MatMul', [pooled, graph.initializer('fc', fc.shape, fc.values)]), RECOGNITION_OUTPUT);
  return graph.encode();
}

function faceApiModelDir(): string {
  return join(packageDir('@vladmandic/face-api'), 'model');
}

/** One entry of a TF.js weights manifest (the subset face-api's files use). */
interface WeightSpec {
  readonly name: string;
  readonly shape: number[];
  readonly dtype: string;
  readonly quantization?: { readonly dtype: string; readonly scale: number; readonly min: number };
}

/**
 * Reads a TF.js weights manifest and its shards, dequantising as TF.js does (`q * scale + min` for
 * uint8/uint16 affine quantisation). Plain parsing: no TF.js backend needed.
 */
function readWeights(dir: string, modelName: string): Weights {
  const manifest = JSON.parse(readFileSync(join(dir, `${modelName}-weights_manifest.json`), 'utf8')) as Array<{ paths: string[]; weights: WeightSpec[] }>;
  const data = Buffer.concat(manifest.flatMap((group) => group.paths.map((p) => readFileSync(join(dir, p)))));
  const out = new Map<string, { shape: number[]; values: Float32Array }>();
  let offset = 0;
  for (const spec of manifest.flatMap((group) => group.weights)) {
    if (spec.dtype !== 'float32') throw new Error(`weight '${spec.name}': dtype ${spec.dtype} is not supported`);
    const size = spec.shape.reduce((a, b) => a * b, 1);
    const q = spec.quantization;
    const values = new Float32Array(size);
    if (q === undefined) {
      for (let i = 0; i < size; i++) values[i] = data.readFloatLE(offset + i * 4);
      offset += size * 4;
    } else if (q.dtype === 'uint8' || q.dtype === 'uint16') {
      const bytes = q.dtype === 'uint8' ? 1 : 2;
      for (let i = 0; i < size; i++) values[i] = (bytes === 1 ? data.readUInt8(offset + i) : data.readUInt16LE(offset + i * 2)) * q.scale + q.min;
      offset += size * bytes;
    } else {
      throw new Error(`weight '${spec.name}': quantisation ${q.dtype} is not supported`);
    }
    out.set(spec.name, { shape: spec.shape, values });
  }
  if (offset !== data.length) throw new Error(`weights of ${modelName}: read ${offset} of ${data.length} bytes`);
  return out;
}

type AttributeValue = number | readonly number[] | string;

/** Accumulates nodes and initializers of one ONNX graph (NCHW). */
class GraphBuilder {
  readonly #nodes: OnnxTypes.INodeProto[] = [];
  readonly #initializers: OnnxTypes.ITensorProto[] = [];
  #count = 0;

  constructor(private readonly weights: Weights) {}

  weight(name: string): { shape: readonly number[]; values: Float32Array } {
    const w = this.weights.get(name);
    if (w === undefined) throw new Error(`faceRecognitionNet weights lack '${name}'`);
    return w;
  }

  initializer(name: string, dims: readonly number[], values: Float32Array): string {
    this.#initializers.push({ name, dims: [...dims], dataType: onnx.TensorProto.DataType.FLOAT, rawData: new Uint8Array(values.buffer, values.byteOffset, values.byteLength) });
    return name;
  }

  node(opType: string, inputs: readonly string[], attributes: Readonly<Record<string, AttributeValue>> = {}): string {
    const output = `${opType.toLowerCase()}_${this.#count++}`;
    this.#nodes.push({ opType, input: [...inputs], output: [output], name: output, attribute: Object.entries(attributes).map(([name, value]) => attribute(name, value)) });
    return output;
  }

  pad(x: string, pads: readonly number[]): string {
    const name = `pads_${this.#count++}`;
    this.#initializers.push({ name, dims: [pads.length], dataType: onnx.TensorProto.DataType.INT64, int64Data: [...pads] });
    return this.node('Pad', [x, name]);
  }

  /** The first conv (7×7, stride 2, valid) with the input normalisation folded in, then ReLU. */
  firstConv(): string {
    const { filters, bias } = this.#folded('conv32_down');
    const [outC, inC, kh, kw] = filters.dims;
    // conv((x - m)/255, W) = conv(x, W/255) - Σ W·m/255, per output channel.
    for (let o = 0; o < outC; o++) {
      let shift = 0;
      for (let c = 0; c < inC; c++) {
        for (let k = 0; k < kh * kw; k++) {
          const i = ((o * inC + c) * kh * kw) + k;
          filters.values[i] = filters.values[i]! / 255;
          shift += filters.values[i]! * MEAN_RGB[c]!;
        }
      }
      bias[o] = bias[o]! - shift;
    }
    const conv = this.node('Conv', [RECOGNITION_INPUT, this.initializer('conv32_down/w', filters.dims, filters.values), this.initializer('conv32_down/b', [outC], bias)], {
      kernel_shape: [kh, kw],
      strides: [2, 2],
    });
    return this.node('Relu', [conv]);
  }

  /** A conv layer with its scale folded in: 3×3, 'same' (pad 1) or 'valid', optional ReLU. */
  conv(prefix: string, x: string, stride: number, padding: 'same' | 'valid', relu: boolean): string {
    const { filters, bias } = this.#folded(prefix);
    const [outC, , kh, kw] = filters.dims;
    if (padding === 'same' && stride !== 1) throw new Error('TF "same" padding is asymmetric at stride 2; not needed by this net');
    const conv = this.node('Conv', [x, this.initializer(`${prefix}/w`, filters.dims, filters.values), this.initializer(`${prefix}/b`, [outC], bias)], {
      kernel_shape: [kh, kw],
      strides: [stride, stride],
      pads: padding === 'same' ? [(kh - 1) / 2, (kw - 1) / 2, (kh - 1) / 2, (kw - 1) / 2] : [0, 0, 0, 0],
    });
    return relu ? this.node('Relu', [conv]) : conv;
  }

  /** Filters in ONNX order [out, in, kh, kw] with `scale` folded: W·s and b·s + t. */
  #folded(prefix: string): { filters: { dims: [number, number, number, number]; values: Float32Array }; bias: Float32Array } {
    const w = this.weight(`${prefix}/conv/filters`);
    const b = this.weight(`${prefix}/conv/bias`).values;
    const s = this.weight(`${prefix}/scale/weights`).values;
    const t = this.weight(`${prefix}/scale/biases`).values;
    const [kh = 0, kw = 0, inC = 0, outC = 0] = w.shape;
    const values = new Float32Array(w.values.length);
    for (let y = 0; y < kh; y++) {
      for (let x = 0; x < kw; x++) {
        for (let c = 0; c < inC; c++) {
          for (let o = 0; o < outC; o++) values[((o * inC + c) * kh + y) * kw + x] = w.values[((y * kw + x) * inC + c) * outC + o]! * s[o]!;
        }
      }
    }
    const bias = Float32Array.from(b, (value, o) => value * s[o]! + t[o]!);
    return { filters: { dims: [outC, inC, kh, kw], values }, bias };
  }

  output(name: string, as: string): void {
    this.#nodes.push({ opType: 'Identity', input: [name], output: [as], name: as });
  }

  encode(): Uint8Array {
    const dynamic = (dims: ReadonlyArray<number | string>): OnnxTypes.ITypeProto => ({
      tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } },
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'veriport',
      opsetImport: [{ domain: '', version: 17 }],
      graph: {
        name: 'faceRecognitionNet',
        node: this.#nodes,
        initializer: this.#initializers,
        input: [{ name: RECOGNITION_INPUT, type: dynamic(['n', 3, RECOGNITION_INPUT_SIZE, RECOGNITION_INPUT_SIZE]) }],
        output: [{ name: RECOGNITION_OUTPUT, type: dynamic(['n', RECOGNITION_DIMENSIONS]) }],
      },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

function attribute(name: string, value: AttributeValue): OnnxTypes.IAttributeProto {
  if (typeof value === 'string') return { name, type: onnx.AttributeProto.AttributeType.STRING, s: Buffer.from(value) };
  if (typeof value === 'number') return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
  return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: [...value] };
}
