import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One entry of a TF.js weights manifest. */
interface WeightSpec {
  readonly name: string;
  readonly shape: number[];
  readonly dtype: string;
  readonly quantization?: { readonly dtype: string; readonly scale?: number; readonly min?: number };
}

/** A group of a TF.js weights manifest: its shard files and the weights they hold, in order. */
export interface WeightGroup {
  readonly paths: string[];
  readonly weights: WeightSpec[];
}

/** One decoded weight: float32 values (dequantised) or int32 values (shapes, paddings). */
export type TfjsWeight =
  | { readonly dtype: 'float32'; readonly shape: readonly number[]; readonly values: Float32Array }
  | { readonly dtype: 'int32'; readonly shape: readonly number[]; readonly values: Int32Array };

/**
 * Reads the weights of a TF.js model from its manifest groups and shard files, dequantising as TF.js
 * does: `q * scale + min` for uint8/uint16 affine quantisation, IEEE half floats for float16. Plain
 * parsing, so no TF.js backend is needed.
 *
 * @throws {Error} for a dtype or quantisation TF.js models here do not use, or shards of the wrong size
 * @example
 * const manifest = JSON.parse(readFileSync(join(dir, 'face_recognition_model-weights_manifest.json'), 'utf8'));
 * const weights = readTfjsWeights(dir, manifest);
 * weights.get('fc')?.shape; // [256, 128]
 */
export function readTfjsWeights(dir: string, groups: readonly WeightGroup[]): ReadonlyMap<string, TfjsWeight> {
  const data = Buffer.concat(groups.flatMap((group) => group.paths.map((p) => readFileSync(join(dir, p)))));
  const out = new Map<string, TfjsWeight>();
  let offset = 0;
  for (const spec of groups.flatMap((group) => group.weights)) {
    const size = spec.shape.reduce((a, b) => a * b, 1);
    if (spec.dtype === 'int32' && spec.quantization === undefined) {
      const values = new Int32Array(size);
      for (let i = 0; i < size; i++) values[i] = data.readInt32LE(offset + i * 4);
      offset += size * 4;
      out.set(spec.name, { dtype: 'int32', shape: spec.shape, values });
      continue;
    }
    if (spec.dtype !== 'float32') throw new Error(`weight '${spec.name}': dtype ${spec.dtype} is not supported`);
    const values = new Float32Array(size);
    offset += decodeFloats(data, offset, spec, values);
    out.set(spec.name, { dtype: 'float32', shape: spec.shape, values });
  }
  if (offset !== data.length) throw new Error(`weights in ${dir}: read ${offset} of ${data.length} bytes`);
  return out;
}

/** Fills `values` from `data` at `offset`; returns the bytes read. */
function decodeFloats(data: Buffer, offset: number, spec: WeightSpec, values: Float32Array): number {
  const q = spec.quantization;
  const size = values.length;
  if (q === undefined) {
    for (let i = 0; i < size; i++) values[i] = data.readFloatLE(offset + i * 4);
    return size * 4;
  }
  if (q.dtype === 'float16') {
    for (let i = 0; i < size; i++) values[i] = halfToFloat(data.readUInt16LE(offset + i * 2));
    return size * 2;
  }
  if ((q.dtype === 'uint8' || q.dtype === 'uint16') && q.scale !== undefined && q.min !== undefined) {
    const bytes = q.dtype === 'uint8' ? 1 : 2;
    for (let i = 0; i < size; i++)
      values[i] = (bytes === 1 ? data.readUInt8(offset + i) : data.readUInt16LE(offset + i * 2)) * q.scale + q.min;
    return size * bytes;
  }
  throw new Error(`weight '${spec.name}': quantisation ${q.dtype} is not supported`);
}

function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction === 0 ? sign * Infinity : Number.NaN;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}
