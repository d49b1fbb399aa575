import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageDir } from '../../lib/package-files.js';
import { OnnxGraph, tfFiltersToOnnx, type OnnxFilters } from './runtime/onnx-graph.js';
import { readTfjsWeights, type TfjsWeight, type WeightGroup } from './runtime/tfjs-weights.js';

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
  const manifest = JSON.parse(
    readFileSync(join(modelDir, 'face_recognition_model-weights_manifest.json'), 'utf8'),
  ) as WeightGroup[];
  const graph = new RecognitionGraph(readTfjsWeights(modelDir, manifest));
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
      const y = graph.conv(
        `${stage.name}/conv2`,
        graph.conv(`${stage.name}/conv1`, x, 1, 'same', true),
        1,
        'same',
        false,
      );
      x = graph.node('Relu', [graph.node('Add', [y, x])]);
    }
  }
  const pooled = graph.node('Flatten', [graph.node('GlobalAveragePool', [x])]);
  const fc = graph.weight('fc');
  graph.node('MatMul', [pooled, graph.floats('fc', fc.shape, fc.values)], {}, RECOGNITION_OUTPUT);
  return graph.encode(
    'faceRecognitionNet',
    [{ name: RECOGNITION_INPUT, shape: ['n', 3, RECOGNITION_INPUT_SIZE, RECOGNITION_INPUT_SIZE] }],
    [{ name: RECOGNITION_OUTPUT, shape: ['n', RECOGNITION_DIMENSIONS] }],
  );
}

function faceApiModelDir(): string {
  return join(packageDir('@vladmandic/face-api'), 'model');
}

/** faceRecognitionNet's layers on an {@link OnnxGraph} (NCHW). */
class RecognitionGraph extends OnnxGraph {
  constructor(private readonly weights: ReadonlyMap<string, TfjsWeight>) {
    super();
  }

  weight(name: string): { shape: readonly number[]; values: Float32Array } {
    const w = this.weights.get(name);
    if (w?.dtype !== 'float32') throw new Error(`faceRecognitionNet weights lack float '${name}'`);
    return w;
  }

  pad(x: string, pads: readonly number[]): string {
    return this.node('Pad', [x, this.int64s(`${x}/pads`, pads)]);
  }

  /** The first conv (7×7, stride 2, valid) with the input normalisation folded in, then ReLU. */
  firstConv(): string {
    const { filters, bias } = this.#folded('conv32_down');
    const [outC, inC, kh, kw] = filters.dims;
    // conv((x - m)/255, W) = conv(x, W/255) - Σ W·m/255, per output channel.
    for (let o = 0; o < outC; o++) {
      let shift = 0;
      for (let c = 0; c < inC; c++) {
        const mean = MEAN_RGB[c];
        if (mean === undefined) throw new Error(`faceRecognitionNet's first conv has ${inC} input channels, not 3`);
        for (let k = 0; k < kh * kw; k++) {
          const i = (o * inC + c) * kh * kw + k;
          filters.values[i] = (filters.values[i] ?? 0) / 255;
          // Read back: the float32 the graph holds, not the double quotient.
          shift += (filters.values[i] ?? 0) * mean;
        }
      }
      bias[o] = (bias[o] ?? 0) - shift;
    }
    const conv = this.node(
      'Conv',
      [
        RECOGNITION_INPUT,
        this.floats('conv32_down/w', filters.dims, filters.values),
        this.floats('conv32_down/b', [outC], bias),
      ],
      {
        kernel_shape: [kh, kw],
        strides: [2, 2],
      },
    );
    return this.node('Relu', [conv]);
  }

  /** A conv layer with its scale folded in: 3×3, 'same' (pad 1) or 'valid', optional ReLU. */
  conv(prefix: string, x: string, stride: number, padding: 'same' | 'valid', relu: boolean): string {
    const { filters, bias } = this.#folded(prefix);
    const [outC, , kh, kw] = filters.dims;
    if (padding === 'same' && stride !== 1)
      throw new Error('TF "same" padding is asymmetric at stride 2; not needed by this net');
    const conv = this.node(
      'Conv',
      [x, this.floats(`${prefix}/w`, filters.dims, filters.values), this.floats(`${prefix}/b`, [outC], bias)],
      {
        kernel_shape: [kh, kw],
        strides: [stride, stride],
        pads: padding === 'same' ? [(kh - 1) / 2, (kw - 1) / 2, (kh - 1) / 2, (kw - 1) / 2] : [0, 0, 0, 0],
      },
    );
    return relu ? this.node('Relu', [conv]) : conv;
  }

  /** Filters in ONNX order [out, in, kh, kw] with `scale` folded: W·s and b·s + t. */
  #folded(prefix: string): { filters: OnnxFilters; bias: Float32Array } {
    const w = this.weight(`${prefix}/conv/filters`);
    const b = this.weight(`${prefix}/conv/bias`).values;
    const s = this.weight(`${prefix}/scale/weights`).values;
    const t = this.weight(`${prefix}/scale/biases`).values;
    const filters = tfFiltersToOnnx(w.shape, w.values);
    const perOutput = filters.values.length / s.length;
    if (b.length !== s.length || t.length !== s.length)
      throw new Error(`faceRecognitionNet '${prefix}' sizes disagree`);
    // In bounds now: one scale per output channel.
    filters.values.forEach((value, i) => (filters.values[i] = value * (s[Math.floor(i / perOutput)] ?? 0)));
    const bias = Float32Array.from(b, (value, o) => value * (s[o] ?? 0) + (t[o] ?? 0));
    return { filters, bias };
  }
}
