/**
 * A minimal WebAssembly binary writer: just what the matching kernels (simd-kernel.ts) and the
 * bandwidth probe in bench/ need, so there is no assembler to install or run.
 * Reference: https://webassembly.github.io/spec/core/binary/ and the SIMD proposal.
 */

/** Value types. */
export const ValType = { i32: 0x7f, f32: 0x7d, v128: 0x7b } as const;
export type ValType = (typeof ValType)[keyof typeof ValType];

/** Scalar and control opcodes used here. */
export const Op = {
  block: 0x02,
  loop: 0x03,
  if: 0x04,
  br: 0x0c,
  br_if: 0x0d,
  end: 0x0b,
  local_get: 0x20,
  local_set: 0x21,
  local_tee: 0x22,
  f32_load: 0x2a,
  i32_store: 0x36,
  f32_store: 0x38,
  i32_const: 0x41,
  i32_eqz: 0x45,
  i32_lt_u: 0x49,
  f32_gt: 0x5e,
  i32_add: 0x6a,
  i32_sub: 0x6b,
  i32_mul: 0x6c,
  i32_and: 0x71,
  i32_shr_u: 0x76,
  f32_mul: 0x94,
  f32_convert_i32_s: 0xb2,
} as const;

/** SIMD opcodes (each follows the 0xfd prefix as an unsigned LEB128). */
export const SimdOp = {
  v128_load: 0x00,
  v128_load8x8_s: 0x01,
  v128_store: 0x0b,
  v128_const: 0x0c,
  i8x16_shuffle: 0x0d,
  f32x4_splat: 0x13,
  i32x4_extract_lane: 0x1b,
  f32x4_extract_lane: 0x1f,
  f32x4_gt: 0x44,
  i16x8_extend_low_i8x16_s: 0x87,
  i16x8_extend_high_i8x16_s: 0x88,
  i32x4_bitmask: 0xa4,
  i32x4_add: 0xae,
  i32x4_dot_i16x8_s: 0xba,
  f32x4_add: 0xe4,
  f32x4_mul: 0xe6,
  f32x4_convert_i32x4_s: 0xfa,
} as const;

const SIMD_PREFIX = 0xfd;
const EMPTY_BLOCK_TYPE = 0x40;

function uleb(value: number): number[] {
  const out: number[] = [];
  let v = value >>> 0;
  do {
    const byte = v & 0x7f;
    v >>>= 7;
    out.push(v === 0 ? byte : byte | 0x80);
  } while (v !== 0);
  return out;
}

function sleb(value: number): number[] {
  const out: number[] = [];
  let v = value | 0;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    const done = (v === 0 && (byte & 0x40) === 0) || (v === -1 && (byte & 0x40) !== 0);
    out.push(done ? byte : byte | 0x80);
    if (done) return out;
  }
}

function name(text: string): number[] {
  const bytes = [...Buffer.from(text, 'utf8')];
  return [...uleb(bytes.length), ...bytes];
}

function section(id: number, body: number[]): number[] {
  return [id, ...uleb(body.length), ...body];
}

function vec(items: number[][]): number[] {
  return [...uleb(items.length), ...items.flat()];
}

/**
 * Instruction emitter for one function body; methods chain so code reads like the text format.
 *
 * @example
 * const c = new Code().localGet(0).localGet(1).op(Op.i32_add);
 */
export class Code {
  readonly bytes: number[] = [];

  /** @example code.op(Op.i32_add) */
  op(opcode: number, ...immediates: number[]): this {
    this.bytes.push(opcode, ...immediates);
    return this;
  }

  /** @example code.simd(SimdOp.i32x4_add) */
  simd(opcode: number, ...immediates: number[]): this {
    this.bytes.push(SIMD_PREFIX, ...uleb(opcode), ...immediates);
    return this;
  }

  /** @example code.localGet(0) */
  localGet(index: number): this {
    return this.op(Op.local_get, ...uleb(index));
  }

  /** @example code.localSet(2) */
  localSet(index: number): this {
    return this.op(Op.local_set, ...uleb(index));
  }

  /** @example code.localTee(2) */
  localTee(index: number): this {
    return this.op(Op.local_tee, ...uleb(index));
  }

  /** @example code.i32Const(-1) */
  i32Const(value: number): this {
    return this.op(Op.i32_const, ...sleb(value));
  }

  /** `v128.load` at a constant byte offset from the address on the stack. @example code.localGet(0).v128Load(32) */
  v128Load(offset: number): this {
    return this.simd(SimdOp.v128_load, 4, ...uleb(offset)); // align hint 2^4 = 16 bytes
  }

  /**
   * `v128.load8x8_s` (8 int8 widened to i16x8 by the load itself) at a constant byte offset.
   *
   * @example
   * code.localGet(0).v128Load8x8(8)
   */
  v128Load8x8(offset: number): this {
    return this.simd(SimdOp.v128_load8x8_s, 3, ...uleb(offset)); // align hint 2^3 = 8 bytes
  }

  /**
   * `v128.store` at a constant byte offset (address, then value, on the stack).
   *
   * @example
   * code.localGet(4).localGet(9).v128Store(0)
   */
  v128Store(offset: number): this {
    return this.simd(SimdOp.v128_store, 4, ...uleb(offset));
  }

  /** @example code.v128Zero() */
  v128Zero(): this {
    return this.simd(SimdOp.v128_const, ...new Array<number>(16).fill(0));
  }

  /**
   * `i8x16.shuffle` of the two vectors on the stack (byte indices 0-15: first, 16-31: second).
   *
   * @example
   * code.shuffle([8, 9, ...])
   */
  shuffle(lanes: readonly number[]): this {
    return this.simd(SimdOp.i8x16_shuffle, ...lanes);
  }

  /** Memory access with a natural-alignment hint. @example code.localGet(4).memory(Op.f32_store, 2, 0) */
  memory(opcode: number, alignLog2: number, offset: number): this {
    return this.op(opcode, ...uleb(alignLog2), ...uleb(offset));
  }

  /** `if ... end` on the i32 on the stack. @example code.localGet(0).if((c) => c.localGet(1).localSet(2)) */
  if(body: (code: this) => void): this {
    this.op(Op.if, EMPTY_BLOCK_TYPE);
    body(this);
    return this.op(Op.end);
  }

  /** `block ... end` (label depth grows by one inside). @example code.block((c) => c.op(Op.nop)) */
  block(body: (code: this) => void): this {
    this.op(Op.block, EMPTY_BLOCK_TYPE);
    body(this);
    return this.op(Op.end);
  }

  /**
   * `loop ... end`; `br_if 0` inside jumps back to the top.
   *
   * @example
   * code.loop((c) => c.localGet(0).op(Op.br_if, 0))
   */
  loop(body: (code: this) => void): this {
    this.op(Op.loop, EMPTY_BLOCK_TYPE);
    body(this);
    return this.op(Op.end);
  }
}

/** One function of a module: signature, extra locals, body, export name. */
export interface FunctionSpec {
  readonly exportName: string;
  readonly params: readonly ValType[];
  /** At most one result; none by default. */
  readonly results?: readonly ValType[];
  readonly locals: readonly ValType[];
  readonly body: Code;
}

/**
 * Assembles a module that imports its memory as `env.memory` and exports the given functions.
 *
 * @example
 * const bytes = assembleModule([{ exportName: 'f', params: [], locals: [], body: new Code() }]);
 * new WebAssembly.Module(bytes);
 */
export function assembleModule(functions: readonly FunctionSpec[]): Uint8Array<ArrayBuffer> {
  const types = functions.map((f) => [
    0x60,
    ...vec(f.params.map((p) => [p])),
    ...vec((f.results ?? []).map((r) => [r])),
  ]);
  const imports = [[...name('env'), ...name('memory'), 0x02, 0x00, ...uleb(1)]]; // memory, min 1 page, no max
  const funcs = functions.map((_, i) => uleb(i));
  const exports = functions.map((f, i) => [...name(f.exportName), 0x00, ...uleb(i)]);
  const bodies = functions.map((f) => {
    const locals = vec(f.locals.map((t) => [1, t]));
    const body = [...locals, ...f.body.bytes, Op.end];
    return [...uleb(body.length), ...body];
  });
  return Uint8Array.from([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00, // "\0asm", version 1
    ...section(1, vec(types)),
    ...section(2, vec(imports)),
    ...section(3, vec(funcs)),
    ...section(7, vec(exports)),
    ...section(10, vec(bodies)),
  ]);
}
