/**
 * WebAssembly SIMD kernels for the 1:N gallery: the dot product of one probe with every row of a
 * contiguous row store, written to a score array in WebAssembly memory, and a threshold filter
 * over those scores for the top-k selection.
 *
 * There is no build step and no assembler, at run time or dev time: the module bytes are emitted
 * by the small builder in wasm-assembler.ts, one module per (quantisation, dimensions) so the
 * dimensions are constants and a row is an unrolled run of 128-bit loads at constant offsets.
 * Modules are a few KB, compiled synchronously and cached; each gallery instantiates one against its own
 * `WebAssembly.Memory`, so the rows never leave WebAssembly memory.
 *
 * Memory layout the kernels expect (all byte offsets, 16-byte aligned, chosen by the caller):
 * - int8 rows: `rowBytes(dims)` bytes each, values in -127..127, zero padding after `dims`;
 *   the probe as int16 (two bytes a dimension, same padding) so it needs no widening per row;
 *   one float32 scale a row.
 * - float32 rows: `rowBytes(dims)` bytes each, zero padding; the probe as float32, same padding.
 */

import { Code, Op, SimdOp, ValType, assembleModule, type FunctionSpec } from './wasm-assembler.js';

export type KernelQuantisation = 'int8' | 'float32';

/** The scan functions a gallery calls; pointers are byte offsets into the kernel's memory. */
export interface MatchKernel {
  /** True when backed by WebAssembly SIMD, false for the plain-JS fallback. */
  readonly simd: boolean;
  /**
   * Scores `count` consecutive rows. int8: `out[i] = f32(dot_i) * scales[i] * probeScale`, rounded to
   * float32 at each step. float32: `out[i] = dot_i` (`scales`, `probeScale` are ignored).
   *
   * @example
   * kernel.scan(rowsAt + first * stride, count, probeAt, scalesAt + first * 4, scoresAt + first * 4, probeScale);
   */
  scan(rows: number, count: number, probe: number, scales: number, out: number, probeScale: number): void;
  /**
   * int8 only: the exact integer dot products, as int32, for checking the kernel.
   *
   * @example
   * kernel.dots(rowsAt, count, probeAt, outAt); // new Int32Array(memory.buffer, outAt, count)
   */
  dots(rows: number, count: number, probe: number, out: number): void;
  /**
   * Writes the indices i < count with `scores[i] > threshold` (float32 compare) to `out` as int32,
   * in increasing order, and returns how many: the top-k selection's pre-filter.
   *
   * @example
   * const hits = kernel.above(scoresAt + start * 4, length, heap.weakest, candidatesAt);
   */
  above(scores: number, count: number, threshold: number, out: number): number;
}

/** Bytes of one 128-bit vector. */
const LANE_BYTES = 16;

/**
 * Bytes one stored row takes: the row padded with zeros to whole 16-byte blocks so the kernel
 * never needs a scalar tail.
 *
 * @example
 * rowBytes('int8', 128);    // 128
 * rowBytes('float32', 130); // 528 (132 floats)
 */
export function rowBytes(quantisation: KernelQuantisation, dimensions: number): number {
  const raw = quantisation === 'int8' ? dimensions : dimensions * 4;
  return Math.ceil(raw / LANE_BYTES) * LANE_BYTES;
}

/**
 * Bytes the probe takes in memory: int8 probes are stored widened to int16.
 *
 * @example
 * probeBytes('int8', 128); // 256
 */
export function probeBytes(quantisation: KernelQuantisation, dimensions: number): number {
  return quantisation === 'int8' ? rowBytes('int8', dimensions) * 2 : rowBytes('float32', dimensions);
}

// ---------------------------------------------------------------------------------------------
// The kernels. Signatures (all i32 byte offsets unless noted):
//   scan(rows, count, probe, scales, out, probeScale: f32)  -> writes count f32 scores at out
//   dots(rows, count, probe, out)                           -> int8 only: count i32 dot products
//
//   above(scores, count, threshold: f32, out) -> n          -> indices of scores above threshold
//
// Shape of the generated scan (chosen by measurement, see KernelTuning):
//   while (count >= 4) { 4 rows at once: each probe block is loaded once for the 4 rows, and the
//                        4 sums are reduced together and stored with one vector store }
//   while (count != 0) { the remaining rows one at a time }
// Within a row the 16-byte blocks are unrolled (rows up to 32 blocks: 512 int8 / 128 float32
// dimensions), or looped 8 blocks at a time. Left alone, TurboFan schedules every load of an
// unrolled body first and the arithmetic after, spilling most registers; wrapping each block in a
// never-taken branch (the "fence") keeps each block's arithmetic next to its loads.

/** Code-shape knobs; the defaults were picked by measurement (see bench/matching.ts). */
export interface KernelTuning {
  /** Rows up to this many 16-byte blocks are fully unrolled. */
  readonly unrollBlocks: number;
  /** Longer rows loop over chunks of this many blocks (plus an unrolled remainder). */
  readonly loopBlocks: number;
  /** Rows per iteration of the main loop: 4 or 8, or 1 to disable batching. */
  readonly rowsPerIteration: 1 | 4 | 8;
  /** Wrap each unrolled block in a never-taken branch so its arithmetic is not sunk below later loads. */
  readonly fence: boolean;
  /**
   * int8: widen the row's bytes to int16 in the load (`v128.load8x8_s`, one pmovsxbw with a memory
   * operand on x64) instead of loading 16 bytes and widening each half (`extend_high` alone is two
   * instructions there).
   */
  readonly widenOnLoad: boolean;
}

const DEFAULT_TUNING: KernelTuning = {
  unrollBlocks: 32,
  loopBlocks: 8,
  rowsPerIteration: 4,
  fence: true,
  widenOnLoad: true,
};

const P_ROWS = 0;
const P_COUNT = 1;
const P_PROBE = 2;
const SCAN_PARAMS: readonly ValType[] = [ValType.i32, ValType.i32, ValType.i32, ValType.i32, ValType.i32, ValType.f32];
const DOTS_PARAMS: readonly ValType[] = [ValType.i32, ValType.i32, ValType.i32, ValType.i32];
/** Extra locals of every kernel: 8 accumulators, 2 probe blocks, a row block, a temp; walker, chunk counter. */
const LOCALS: readonly ValType[] = [...new Array<ValType>(12).fill(ValType.v128), ValType.i32, ValType.i32];

// Horizontal sum of one 4-lane vector: add the swapped halves, then the swapped neighbours.
const SWAP_HALVES = [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7];
const SWAP_PAIRS = [4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11];
// Sums of four vectors a, b, c, d into [Σa, Σb, Σc, Σd] (transpose-and-add).
const LOW_PAIRS = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23]; // [x0 x1 y0 y1]
const HIGH_PAIRS = [8, 9, 10, 11, 12, 13, 14, 15, 24, 25, 26, 27, 28, 29, 30, 31]; // [x2 x3 y2 y3]
const EVEN_LANES = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27]; // [x0 x2 y0 y2]
const ODD_LANES = [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31]; // [x1 x3 y1 y3]

type Kind = 'int8-scan' | 'int8-dots' | 'float32-scan';

interface KernelSpec {
  readonly kind: Kind;
  readonly stride: number;
  readonly tuning: KernelTuning;
  readonly locals: {
    /** First of 8 consecutive accumulator locals. */
    readonly acc: number;
    readonly probeLo: number;
    readonly probeHi: number;
    readonly row: number;
    readonly temp: number;
    readonly walker: number;
    readonly chunk: number;
    readonly scales: number;
    readonly out: number;
    readonly probeScale: number;
  };
}

const isInt8 = (kind: Kind): boolean => kind !== 'float32-scan';

/** Adds block `b` (of rows `0..rows-1` at `P_ROWS + r*stride`) times the probe into the accumulators. */
function emitBlock(c: Code, spec: KernelSpec, rows: number, probePtr: number, b: number): void {
  const { acc, probeLo, probeHi, row } = spec.locals;
  const add = isInt8(spec.kind) ? SimdOp.i32x4_add : SimdOp.f32x4_add;
  if (isInt8(spec.kind)) {
    // The int16 probe block (32 bytes) once for all rows. Each 16 int8 values are widened to two
    // i16x8 halves and multiplied-and-paired (pmaddwd) into i32x4; |127 * 127 * 2| cannot overflow.
    c.localGet(probePtr)
      .v128Load(b * 2 * LANE_BYTES)
      .localSet(probeLo);
    c.localGet(probePtr)
      .v128Load(b * 2 * LANE_BYTES + LANE_BYTES)
      .localSet(probeHi);
    for (let r = 0; r < rows; r += 1) {
      const a = acc + r;
      const at = r * spec.stride + b * LANE_BYTES;
      c.localGet(a);
      if (spec.tuning.widenOnLoad) {
        c.localGet(P_ROWS).v128Load8x8(at).localGet(probeLo).simd(SimdOp.i32x4_dot_i16x8_s);
        c.localGet(P_ROWS)
          .v128Load8x8(at + LANE_BYTES / 2)
          .localGet(probeHi)
          .simd(SimdOp.i32x4_dot_i16x8_s);
      } else {
        c.localGet(P_ROWS)
          .v128Load(at)
          .localTee(row)
          .simd(SimdOp.i16x8_extend_low_i8x16_s)
          .localGet(probeLo)
          .simd(SimdOp.i32x4_dot_i16x8_s);
        c.localGet(row).simd(SimdOp.i16x8_extend_high_i8x16_s).localGet(probeHi).simd(SimdOp.i32x4_dot_i16x8_s);
      }
      c.simd(add).simd(add).localSet(a);
    }
  } else {
    c.localGet(probePtr)
      .v128Load(b * LANE_BYTES)
      .localSet(probeLo);
    for (let r = 0; r < rows; r += 1) {
      // One row alone: rotate over four accumulators so consecutive f32 adds do not wait on each
      // other (several cycles of latency each); with four rows, the rows are the four chains.
      const a = acc + (rows === 1 ? b % 4 : r);
      c.localGet(a)
        .localGet(P_ROWS)
        .v128Load(r * spec.stride + b * LANE_BYTES)
        .localGet(probeLo)
        .simd(SimdOp.f32x4_mul)
        .simd(add)
        .localSet(a);
    }
  }
}

/** All blocks of `rows` rows; leaves `P_ROWS` advanced by `rows` strides. */
function emitRows(c: Code, spec: KernelSpec, rows: number): void {
  const blocks = spec.stride / LANE_BYTES;
  const { walker, chunk } = spec.locals;
  const { unrollBlocks, loopBlocks } = spec.tuning;
  const probeBlockBytes = isInt8(spec.kind) ? 2 * LANE_BYTES : LANE_BYTES;
  const block = (c: Code, probePtr: number, b: number): void => {
    if (spec.tuning.fence) {
      c.block((c) => {
        c.localGet(P_COUNT).op(Op.i32_eqz).op(Op.br_if, 0);
        emitBlock(c, spec, rows, probePtr, b);
      });
    } else {
      emitBlock(c, spec, rows, probePtr, b);
    }
  };
  if (blocks <= unrollBlocks) {
    for (let b = 0; b < blocks; b += 1) block(c, P_PROBE, b);
    c.localGet(P_ROWS)
      .i32Const(rows * spec.stride)
      .op(Op.i32_add)
      .localSet(P_ROWS);
    return;
  }
  const chunks = Math.floor(blocks / loopBlocks);
  const rest = blocks - chunks * loopBlocks;
  c.localGet(P_PROBE).localSet(walker);
  c.i32Const(chunks).localSet(chunk);
  c.loop((c) => {
    for (let b = 0; b < loopBlocks; b += 1) block(c, walker, b);
    c.localGet(P_ROWS)
      .i32Const(loopBlocks * LANE_BYTES)
      .op(Op.i32_add)
      .localSet(P_ROWS);
    c.localGet(walker)
      .i32Const(loopBlocks * probeBlockBytes)
      .op(Op.i32_add)
      .localSet(walker);
    c.localGet(chunk).i32Const(1).op(Op.i32_sub).localTee(chunk).op(Op.br_if, 0);
  });
  for (let b = 0; b < rest; b += 1) block(c, walker, b);
  // The walk moved P_ROWS along one row; step over the rest of this row and the other rows.
  c.localGet(P_ROWS)
    .i32Const((rows - 1) * spec.stride + rest * LANE_BYTES)
    .op(Op.i32_add)
    .localSet(P_ROWS);
}

/** Advances the output (and scale) pointers by `rows` entries and counts the rows off. */
function emitAdvance(c: Code, spec: KernelSpec, rows: number): void {
  const { out, scales } = spec.locals;
  for (const l of spec.kind === 'int8-scan' ? [out, scales] : [out])
    c.localGet(l)
      .i32Const(4 * rows)
      .op(Op.i32_add)
      .localSet(l);
  c.localGet(P_COUNT).i32Const(rows).op(Op.i32_sub).localSet(P_COUNT);
}

/**
 * Four rows (accumulators first..first+3): sums reduced into one vector [s0 s1 s2 s3], finished and
 * stored in one go.
 */
function emitQuadFinish(c: Code, spec: KernelSpec, first: number): void {
  const { acc, temp, out, scales, probeScale } = spec.locals;
  const add = isInt8(spec.kind) ? SimdOp.i32x4_add : SimdOp.f32x4_add;
  const [a0, a1, a2, a3] = [acc + first, acc + first + 1, acc + first + 2, acc + first + 3];
  // t = [a0+a2, a1+a3, b0+b2, b1+b3] for (a0, a1) and likewise for (a2, a3) ...
  const pairUp = (x: number, y: number): void => {
    c.localGet(x).localGet(y).shuffle(LOW_PAIRS).localGet(x).localGet(y).shuffle(HIGH_PAIRS).simd(add);
  };
  pairUp(a0, a1);
  c.localSet(temp);
  pairUp(a2, a3);
  c.localSet(a0);
  // ... then even + odd lanes of (t01, t23) = [Σa0 Σa1 Σa2 Σa3].
  c.localGet(out);
  c.localGet(temp).localGet(a0).shuffle(EVEN_LANES).localGet(temp).localGet(a0).shuffle(ODD_LANES).simd(add);
  if (spec.kind === 'int8-scan') {
    c.simd(SimdOp.f32x4_convert_i32x4_s)
      .localGet(scales)
      .v128Load(first * 4)
      .simd(SimdOp.f32x4_mul);
    c.localGet(probeScale).simd(SimdOp.f32x4_splat).simd(SimdOp.f32x4_mul);
  }
  c.v128Store(first * 4);
}

/** One row: accumulators summed, then across lanes; lane 0 finished and stored. */
function emitSingleFinish(c: Code, spec: KernelSpec): void {
  const { acc, temp, out, scales, probeScale } = spec.locals;
  const add = isInt8(spec.kind) ? SimdOp.i32x4_add : SimdOp.f32x4_add;
  c.localGet(acc);
  if (!isInt8(spec.kind)) for (let a = acc + 1; a < acc + 4; a += 1) c.localGet(a).simd(add);
  c.localTee(temp).localGet(temp).localGet(temp).shuffle(SWAP_HALVES).simd(add);
  c.localTee(temp).localGet(temp).localGet(temp).shuffle(SWAP_PAIRS).simd(add).localSet(temp);
  c.localGet(out).localGet(temp);
  if (spec.kind === 'float32-scan') {
    c.simd(SimdOp.f32x4_extract_lane, 0).memory(Op.f32_store, 2, 0);
  } else if (spec.kind === 'int8-dots') {
    c.simd(SimdOp.i32x4_extract_lane, 0).memory(Op.i32_store, 2, 0);
  } else {
    // f32(dot) * scale * probeScale, rounded to f32 at each step; the dot is exact in f32 below 2^24.
    c.simd(SimdOp.i32x4_extract_lane, 0).op(Op.f32_convert_i32_s);
    c.localGet(scales).memory(Op.f32_load, 2, 0).op(Op.f32_mul).localGet(probeScale).op(Op.f32_mul);
    c.memory(Op.f32_store, 2, 0);
  }
}

function kernelFunction(kind: Kind, dimensions: number, tuning: KernelTuning): FunctionSpec {
  const params = kind === 'int8-dots' ? DOTS_PARAMS : SCAN_PARAMS;
  const n = params.length;
  const spec: KernelSpec = {
    kind,
    stride: rowBytes(isInt8(kind) ? 'int8' : 'float32', dimensions),
    tuning,
    locals: {
      acc: n,
      probeLo: n + 8,
      probeHi: n + 9,
      row: n + 10,
      temp: n + 11,
      walker: n + 12,
      chunk: n + 13,
      scales: 3,
      out: kind === 'int8-dots' ? 3 : 4,
      probeScale: 5,
    },
  };
  const zero = (c: Code, rows: number): void => {
    const used = rows === 1 && isInt8(kind) ? 1 : Math.max(rows, 4);
    for (let a = 0; a < used; a += 1) c.v128Zero().localSet(spec.locals.acc + a);
  };
  const code = new Code();
  const batch = tuning.rowsPerIteration;
  if (batch > 1) {
    code.block((c) => {
      c.loop((c) => {
        c.localGet(P_COUNT).i32Const(batch).op(Op.i32_lt_u).op(Op.br_if, 1);
        zero(c, batch);
        emitRows(c, spec, batch);
        for (let first = 0; first < batch; first += 4) emitQuadFinish(c, spec, first);
        emitAdvance(c, spec, batch);
        c.op(Op.br, 0);
      });
    });
  }
  code.block((c) => {
    c.localGet(P_COUNT).op(Op.i32_eqz).op(Op.br_if, 0);
    c.loop((c) => {
      zero(c, 1);
      emitRows(c, spec, 1);
      emitSingleFinish(c, spec);
      emitAdvance(c, spec, 1);
      c.localGet(P_COUNT).op(Op.br_if, 0);
    });
  });
  return { exportName: kind === 'int8-dots' ? 'dots' : 'scan', params, locals: LOCALS, body: code };
}

/**
 * `above(scores, count, threshold: f32, out) -> n`: four scores per step compared with the
 * threshold (one f32x4.gt + bitmask); only a step with a hit writes, branch-free, its lanes'
 * indices (each store lands at `out[n]`, and n moves on only for the lanes that passed).
 */
function aboveFunction(): FunctionSpec {
  const [SCORES, COUNT, THRESHOLD, OUT] = [0, 1, 2, 3];
  const [I, N, MASK, END4] = [4, 5, 6, 7];
  const code = new Code();
  const storeIf = (c: Code, lane: number, bit: (c: Code) => void): void => {
    // out[n] = i + lane; n += bit
    c.localGet(OUT).localGet(N).i32Const(4).op(Op.i32_mul).op(Op.i32_add);
    c.localGet(I).i32Const(lane).op(Op.i32_add).memory(Op.i32_store, 2, 0);
    c.localGet(N);
    bit(c);
    c.op(Op.i32_add).localSet(N);
  };
  code.localGet(COUNT).i32Const(-4).op(Op.i32_and).localSet(END4);
  code.block((c) => {
    c.loop((c) => {
      c.localGet(I).localGet(END4).op(Op.i32_lt_u).op(Op.i32_eqz).op(Op.br_if, 1);
      c.localGet(SCORES).localGet(I).i32Const(4).op(Op.i32_mul).op(Op.i32_add).v128Load(0);
      c.localGet(THRESHOLD).simd(SimdOp.f32x4_splat).simd(SimdOp.f32x4_gt).simd(SimdOp.i32x4_bitmask).localTee(MASK);
      c.if((c) => {
        for (let lane = 0; lane < 4; lane += 1) {
          storeIf(c, lane, (c) => c.localGet(MASK).i32Const(lane).op(Op.i32_shr_u).i32Const(1).op(Op.i32_and));
        }
      });
      c.localGet(I).i32Const(4).op(Op.i32_add).localSet(I);
      c.op(Op.br, 0);
    });
  });
  // The last count % 4 scores one at a time.
  code.block((c) => {
    c.loop((c) => {
      c.localGet(I).localGet(COUNT).op(Op.i32_lt_u).op(Op.i32_eqz).op(Op.br_if, 1);
      storeIf(c, 0, (c) => {
        c.localGet(SCORES).localGet(I).i32Const(4).op(Op.i32_mul).op(Op.i32_add).memory(Op.f32_load, 2, 0);
        c.localGet(THRESHOLD).op(Op.f32_gt);
      });
      c.localGet(I).i32Const(1).op(Op.i32_add).localSet(I);
      c.op(Op.br, 0);
    });
  });
  code.localGet(N);
  return {
    exportName: 'above',
    params: [ValType.i32, ValType.i32, ValType.f32, ValType.i32],
    results: [ValType.i32],
    locals: [ValType.i32, ValType.i32, ValType.i32, ValType.i32],
    body: code,
  };
}

/**
 * The module bytes for one (quantisation, dimensions): `scan` and `above` (and `dots` for int8).
 *
 * @example
 * WebAssembly.validate(kernelModuleBytes('int8', 128)); // true on Node 20
 */
export function kernelModuleBytes(
  quantisation: KernelQuantisation,
  dimensions: number,
  tuning: Partial<KernelTuning> = {},
): Uint8Array<ArrayBuffer> {
  const t: KernelTuning = { ...DEFAULT_TUNING, ...tuning };
  return assembleModule(
    quantisation === 'int8'
      ? [kernelFunction('int8-scan', dimensions, t), aboveFunction(), kernelFunction('int8-dots', dimensions, t)]
      : [kernelFunction('float32-scan', dimensions, t), aboveFunction()],
  );
}

// Compiled modules are shared by every gallery of the same shape; `null` records "no SIMD here".
const modules = new Map<string, WebAssembly.Module | null>();

function compiledModule(
  quantisation: KernelQuantisation,
  dimensions: number,
  tuning: Partial<KernelTuning>,
): WebAssembly.Module | null {
  const key = `${quantisation}:${dimensions}:${JSON.stringify(tuning)}`;
  let module = modules.get(key);
  if (module === undefined) {
    const bytes = kernelModuleBytes(quantisation, dimensions, tuning);
    module = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    modules.set(key, module);
  }
  return module;
}

type ScanExport = (rows: number, count: number, probe: number, scales: number, out: number, probeScale: number) => void;
type DotsExport = (rows: number, count: number, probe: number, out: number) => void;
type AboveExport = (scores: number, count: number, threshold: number, out: number) => number;

function exported<T>(instance: WebAssembly.Instance, exportName: string): T {
  const fn = instance.exports[exportName];
  if (typeof fn !== 'function') throw new Error(`kernel module lacks export '${exportName}'`);
  return fn as T;
}

/** Options of {@link createKernel}. */
export interface KernelOptions {
  /** `false` forces the plain-JS kernel (tests compare the two). */
  readonly simd?: boolean;
  /** Code-shape overrides, for measuring alternatives. */
  readonly tuning?: Partial<KernelTuning>;
}

/**
 * The kernel for one gallery's memory: WebAssembly SIMD when the engine validates the module
 * (Node 20 does), otherwise the plain-JS reference below.
 *
 * @example
 * const memory = new WebAssembly.Memory({ initial: 1 });
 * const kernel = createKernel(memory, 'int8', 128);
 * kernel.scan(rowsOffset, rowCount, probeOffset, scalesOffset, outOffset, probeScale);
 */
export function createKernel(
  memory: WebAssembly.Memory,
  quantisation: KernelQuantisation,
  dimensions: number,
  options: KernelOptions = {},
): MatchKernel {
  const module = options.simd === false ? null : compiledModule(quantisation, dimensions, options.tuning ?? {});
  if (module === null) return jsKernel(memory, quantisation, dimensions);
  const instance = new WebAssembly.Instance(module, { env: { memory } });
  const scan = exported<ScanExport>(instance, 'scan');
  const dots = quantisation === 'int8' ? exported<DotsExport>(instance, 'dots') : undefined;
  return {
    simd: true,
    scan,
    above: exported<AboveExport>(instance, 'above'),
    dots: (rows, count, probe, out) => {
      if (dots === undefined) throw new Error('dots() is only defined for int8 rows');
      dots(rows, count, probe, out);
    },
  };
}

/**
 * Plain-JS implementation of the same contract: the fallback where WebAssembly SIMD is missing and
 * the reference the tests compare the SIMD kernel against. int8 results are bit-identical (same
 * integer dot, same float32 rounding steps); float32 ones differ only by summation order.
 */
function jsKernel(memory: WebAssembly.Memory, quantisation: KernelQuantisation, dimensions: number): MatchKernel {
  const stride = rowBytes(quantisation, dimensions);
  const intDot = (i8: Int8Array, i16: Int16Array, row: number, probe: number): number => {
    let dot = 0;
    for (let d = 0; d < dimensions; d += 1) dot += (i8[row + d] ?? 0) * (i16[probe / 2 + d] ?? 0);
    return dot;
  };
  return {
    simd: false,
    scan: (rows, count, probe, scales, out, probeScale) => {
      // Views are taken per call because growing the memory detaches the previous buffer.
      const f32 = new Float32Array(memory.buffer);
      if (quantisation === 'int8') {
        const i8 = new Int8Array(memory.buffer);
        const i16 = new Int16Array(memory.buffer);
        for (let r = 0; r < count; r += 1) {
          const dot = intDot(i8, i16, rows + r * stride, probe);
          f32[out / 4 + r] = Math.fround(Math.fround(dot) * (f32[scales / 4 + r] ?? 0)) * Math.fround(probeScale);
        }
      } else {
        for (let r = 0; r < count; r += 1) {
          const base = (rows + r * stride) / 4;
          let dot = 0;
          for (let d = 0; d < dimensions; d += 1) dot += (f32[base + d] ?? 0) * (f32[probe / 4 + d] ?? 0);
          f32[out / 4 + r] = dot;
        }
      }
    },
    dots: (rows, count, probe, out) => {
      if (quantisation !== 'int8') throw new Error('dots() is only defined for int8 rows');
      const i8 = new Int8Array(memory.buffer);
      const i16 = new Int16Array(memory.buffer);
      const i32 = new Int32Array(memory.buffer);
      for (let r = 0; r < count; r += 1) i32[out / 4 + r] = intDot(i8, i16, rows + r * stride, probe);
    },
    above: (scores, count, threshold, out) => {
      const f32 = new Float32Array(memory.buffer);
      const i32 = new Int32Array(memory.buffer);
      const limit = Math.fround(threshold);
      let n = 0;
      for (let i = 0; i < count; i += 1) if ((f32[scores / 4 + i] ?? 0) > limit) i32[out / 4 + n++] = i;
      return n;
    },
  };
}
