/**
 * `npx tsx bench/matching.ts [--searches 50] [--sizes 10000,100000] [--dims 128,512]`
 * (also the second section of `npm run bench`, or alone with `npm run bench -- --only matching`)
 *
 * 1:N search latency of VectorGallery (int8 and float32 rows, WebAssembly SIMD kernel) against a
 * naive JS loop over an `Array` of `Float32Array`, all on the same random unit vectors in the same
 * run, plus the memory-bandwidth ceiling measured in that run: a search has to stream every row
 * once, so read bandwidth / bytes per row bounds the comparisons per second. Prints a table and
 * writes reports/bench-matching.{md,json}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { rowBytes } from '../src/engines/matching/simd-kernel.js';
import { Code, Op, SimdOp, ValType, assembleModule } from '../src/engines/matching/wasm-assembler.js';
import { type GalleryQuantisation, VectorGallery } from '../src/engines/matching/vector-gallery.js';
import { seededRandom } from '../src/lib/seeded-random.js';
import { machineDescription } from './machine.js';

export interface MatchingBenchOptions {
  /** Gallery sizes; default 10,000 and 100,000. */
  readonly sizes?: readonly number[];
  /** Vector dimensions; default 128 (F500) and 512. */
  readonly dims?: readonly number[];
  /** Timed searches per method and configuration; default 50. */
  readonly searches?: number;
  /** Results per search; default 10. */
  readonly k?: number;
}

export type MatchingMethod =
  'VectorGallery int8 (WASM SIMD)' | 'VectorGallery float32 (WASM SIMD)' | 'naive JS (Array of Float32Array)';

export interface MatchingMeasurement {
  readonly dims: number;
  readonly size: number;
  readonly method: MatchingMethod;
  /** Bytes of row data one search streams per comparison. */
  readonly bytesPerRow: number;
  readonly medianMs: number;
  readonly p90Ms: number;
  /** size / median latency. */
  readonly comparisonsPerSecond: number;
  readonly speedupVsNaive: number;
  /** SIMD read bandwidth at this working-set size / bytes per row. */
  readonly bandwidthCeiling: number;
  /** Overlap of the top-k ids with the exact (float64 naive) top-k, averaged over the searches. */
  readonly recallAtK: number;
}

export interface ReadBandwidth {
  readonly workingSetBytes: number;
  /** Streaming read rate of a WASM SIMD loop (v128.load + i32x4.add) over that many bytes. */
  readonly gbPerSecond: number;
}

export interface MatchingBenchResult {
  readonly date: string;
  readonly machine: string;
  readonly k: number;
  readonly searches: number;
  readonly seconds: number;
  /** 1-minute load average before and after: above the core count, timings are disturbed. */
  readonly loadAverage: { readonly before: number; readonly after: number; readonly cores: number };
  /** CPU time / wall time over the timed searches; well below 1 means the process was preempted. */
  readonly cpuShare: number;
  readonly bandwidth: {
    /** Buffer.copy of 256 MB: bytes copied per second (memory traffic is twice that or more). */
    readonly copy256MBGBps: number;
    /** JS loop summing a 256 MB Float64Array (bounded by the JS loop more than by memory). */
    readonly jsSumGBps: number;
    /** WASM SIMD streaming read, at each working-set size measured. */
    readonly reads: readonly ReadBandwidth[];
    /** The read rate for a 256 MB buffer (DRAM) and what it allows per row size. */
    readonly dramReadGBps: number;
    readonly dramCeiling: {
      readonly int8x128: number;
      readonly float32x128: number;
      readonly int8x512: number;
      readonly float32x512: number;
    };
  };
  readonly measurements: readonly MatchingMeasurement[];
}

const MB = 1024 * 1024;
/** Consecutive searches per method before the next method takes a turn. */
const ROUND = 10;

function unitVector(random: () => number, dims: number): Float32Array {
  const v = new Float32Array(dims);
  let norm = 0;
  for (let i = 0; i < dims; i += 1) {
    const x = random() * 2 - 1;
    v[i] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  for (let i = 0; i < dims; i += 1) v[i] = (v[i] as number) / norm;
  return v;
}

/** The baseline: what one would write without thinking about it (score every row, keep a sorted top k). */
function naiveSearch(rows: readonly Float32Array[], probe: Float32Array, k: number): number[] {
  const best: Array<{ index: number; score: number }> = [];
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i] as Float32Array;
    let score = 0;
    for (let d = 0; d < row.length; d += 1) score += (row[d] as number) * (probe[d] as number);
    if (best.length < k || score > (best[best.length - 1]?.score ?? -Infinity)) {
      let at = best.length;
      while (at > 0 && (best[at - 1]?.score ?? Infinity) < score) at -= 1;
      best.splice(at, 0, { index: i, score });
      if (best.length > k) best.pop();
    }
  }
  return best.map((b) => b.index);
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

function bestOf(runs: number, fn: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    fn();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** `read(ptr, end) -> i32`: sums [ptr, end) as i32x4 with four accumulators, 64 bytes a step. */
function readProbe(memory: WebAssembly.Memory): (ptr: number, end: number) => number {
  const [PTR, END] = [0, 1];
  const ACC = 2; // 4 v128 locals
  const code = new Code();
  code.loop((c) => {
    for (let a = 0; a < 4; a += 1)
      c.localGet(ACC + a)
        .localGet(PTR)
        .v128Load(a * 16)
        .simd(SimdOp.i32x4_add)
        .localSet(ACC + a);
    c.localGet(PTR).i32Const(64).op(Op.i32_add).localTee(PTR).localGet(END).op(Op.i32_lt_u).op(Op.br_if, 0);
  });
  code
    .localGet(ACC)
    .localGet(ACC + 1)
    .simd(SimdOp.i32x4_add)
    .localGet(ACC + 2)
    .simd(SimdOp.i32x4_add)
    .localGet(ACC + 3)
    .simd(SimdOp.i32x4_add);
  code.simd(SimdOp.i32x4_extract_lane, 0);
  const bytes = assembleModule([
    {
      exportName: 'read',
      params: [ValType.i32, ValType.i32],
      results: [ValType.i32],
      locals: [ValType.v128, ValType.v128, ValType.v128, ValType.v128],
      body: code,
    },
  ]);
  const read = new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory } }).exports['read'];
  if (typeof read !== 'function') throw new Error('read probe did not assemble');
  return read as (ptr: number, end: number) => number;
}

function measureBandwidth(workingSets: readonly number[]): MatchingBenchResult['bandwidth'] {
  const largest = Math.max(256 * MB, ...workingSets);
  const memory = new WebAssembly.Memory({ initial: Math.ceil(largest / 65536) + 1 });
  new Uint8Array(memory.buffer).fill(1); // touch every page before timing
  const read = readProbe(memory);
  const reads: ReadBandwidth[] = [];
  for (const bytes of [...new Set([...workingSets, 256 * MB])].sort((a, b) => a - b)) {
    const size = Math.floor(bytes / 64) * 64;
    // Repeat small working sets so each timing reads at least 512 MB, from cache if it fits.
    const passes = Math.max(1, Math.ceil((512 * MB) / size));
    read(0, size);
    const ms = bestOf(3, () => {
      for (let p = 0; p < passes; p += 1) read(0, size);
    });
    reads.push({ workingSetBytes: size, gbPerSecond: (size * passes) / ms / 1e6 });
  }
  const source = Buffer.alloc(256 * MB, 1);
  const target = Buffer.alloc(256 * MB);
  source.copy(target);
  const copyMs = bestOf(3, () => source.copy(target));
  const doubles = new Float64Array(32 * MB).fill(1); // 256 MB
  let sink = 0;
  const sumMs = bestOf(3, () => {
    let sum = 0;
    for (let i = 0; i < doubles.length; i += 1) sum += doubles[i] as number;
    sink += sum;
  });
  if (sink < 0) console.log(sink); // keep the sum observable
  const dramReadGBps = reads.find((r) => r.workingSetBytes >= 256 * MB)?.gbPerSecond ?? Number.NaN;
  const per = (bytes: number): number => (dramReadGBps * 1e9) / bytes;
  return {
    copy256MBGBps: (256 * MB) / copyMs / 1e6,
    jsSumGBps: (256 * MB) / sumMs / 1e6,
    reads,
    dramReadGBps,
    dramCeiling: {
      int8x128: per(rowBytes('int8', 128)),
      float32x128: per(rowBytes('float32', 128)),
      int8x512: per(rowBytes('int8', 512)),
      float32x512: per(rowBytes('float32', 512)),
    },
  };
}

/**
 * Runs the matching benchmark (about a minute on a 2-core machine with the defaults).
 *
 * @example
 * const result = await benchMatching({ sizes: [10_000], dims: [128], searches: 20 });
 * console.log(formatMatchingTable(result));
 */
export async function benchMatching(options: MatchingBenchOptions = {}): Promise<MatchingBenchResult> {
  const sizes = options.sizes ?? [10_000, 100_000];
  const dimsList = options.dims ?? [128, 512];
  const searches = options.searches ?? 50;
  const k = options.k ?? 10;
  const started = performance.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const measurements: Array<Omit<MatchingMeasurement, 'bandwidthCeiling'>> = [];
  let cpuMs = 0;
  let wallMs = 0;
  for (const dims of dimsList) {
    for (const size of sizes) {
      const random = seededRandom(dims * 1_000_003 + size);
      const rows: Float32Array[] = [];
      const galleries = new Map<GalleryQuantisation, VectorGallery>([
        ['int8', new VectorGallery(dims, 'int8')],
        ['float32', new VectorGallery(dims, 'float32')],
      ]);
      for (let i = 0; i < size; i += 1) {
        const v = unitVector(random, dims);
        rows.push(v);
        for (const gallery of galleries.values()) gallery.add(String(i), v);
      }
      const probes = Array.from({ length: searches }, () => unitVector(random, dims));
      const methods: Array<{ name: MatchingMethod; bytesPerRow: number; search: (probe: Float32Array) => number[] }> = [
        ...[...galleries].map(([quantisation, gallery]) => ({
          name: `VectorGallery ${quantisation} (WASM SIMD)` as MatchingMethod,
          bytesPerRow: rowBytes(quantisation, dims),
          search: (probe: Float32Array) => gallery.search(probe, k).map((hit) => Number(hit.id)),
        })),
        {
          name: 'naive JS (Array of Float32Array)',
          bytesPerRow: dims * 4,
          search: (probe: Float32Array) => naiveSearch(rows, probe, k),
        },
      ];
      // Warm up (JIT tiers, caches). Then rounds of 10 consecutive searches per method, the
      // method order rotating from round to round, so drift and other load hit all of them alike
      // while each method still runs with its own rows in cache, as it would when serving.
      for (const method of methods) {
        const until = performance.now() + 300;
        for (let i = 0; i < 30 && (i < 3 || performance.now() < until); i += 1)
          method.search(probes[i % probes.length] ?? unitVector(random, dims));
      }
      const times = methods.map(() => [] as number[]);
      const results = methods.map(() => [] as number[][]);
      const cpuStart = process.cpuUsage();
      const wallStart = performance.now();
      for (let round = 0; round * ROUND < probes.length; round += 1) {
        for (let j = 0; j < methods.length; j += 1) {
          const m = (round + j) % methods.length;
          const method = methods[m];
          if (method === undefined) continue;
          for (const probe of probes.slice(round * ROUND, (round + 1) * ROUND)) {
            const start = performance.now();
            const ids = method.search(probe);
            times[m]?.push(performance.now() - start);
            results[m]?.push(ids);
          }
        }
      }
      wallMs += performance.now() - wallStart;
      const cpu = process.cpuUsage(cpuStart);
      cpuMs += (cpu.user + cpu.system) / 1000;
      // The naive loop is exact (float64 sums): it is the reference for recall.
      const exact = results[methods.length - 1] ?? [];
      const medians = times.map((t) =>
        quantile(
          [...t].sort((a, b) => a - b),
          0.5,
        ),
      );
      const naiveMedian = medians[methods.length - 1] ?? Number.NaN;
      methods.forEach((method, m) => {
        const sorted = [...(times[m] ?? [])].sort((a, b) => a - b);
        const median = medians[m] ?? Number.NaN;
        const found = results[m] ?? [];
        const recall =
          found.reduce((sum, ids, i) => sum + ids.filter((id) => exact[i]?.includes(id)).length / k, 0) /
          Math.max(found.length, 1);
        measurements.push({
          dims,
          size,
          method: method.name,
          bytesPerRow: method.bytesPerRow,
          medianMs: median,
          p90Ms: quantile(sorted, 0.9),
          comparisonsPerSecond: size / (median / 1000),
          speedupVsNaive: naiveMedian / median,
          recallAtK: recall,
        });
      });
      // Let the next configuration's allocations reuse this memory.
      rows.length = 0;
      for (const gallery of galleries.values()) gallery.clear();
      galleries.clear();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  // Bandwidth last: its 256 MB buffers would otherwise be collected during the timed searches.
  const workingSets = measurements.map((m) => m.size * m.bytesPerRow);
  const bandwidth = measureBandwidth(workingSets);
  const readAt = (bytes: number): number =>
    bandwidth.reads.find((r) => r.workingSetBytes >= Math.floor(bytes / 64) * 64)?.gbPerSecond ?? Number.NaN;
  return {
    date: new Date().toISOString(),
    machine: machineDescription(),
    k,
    searches,
    seconds: (performance.now() - started) / 1000,
    loadAverage: { before: loadBefore, after: os.loadavg()[0] ?? 0, cores: os.cpus().length },
    cpuShare: cpuMs / wallMs,
    bandwidth,
    measurements: measurements.map((m) => ({
      ...m,
      bandwidthCeiling: (readAt(m.size * m.bytesPerRow) * 1e9) / m.bytesPerRow,
    })),
  };
}

const millions = (n: number): string => `${(n / 1e6).toFixed(n < 1e7 ? 1 : 0)} M`;
const size = (bytes: number): string =>
  bytes >= 10 * MB ? `${(bytes / MB).toFixed(0)} MB` : `${(bytes / MB).toFixed(2)} MB`;

/**
 * The result as markdown: the latency table, then the bandwidth ceiling.
 *
 * @example
 * process.stdout.write(formatMatchingTable(await benchMatching()));
 */
export function formatMatchingTable(result: MatchingBenchResult): string {
  const { bandwidth: bw, loadAverage: load } = result;
  const disturbed = load.before > load.cores * 0.5 || load.after > load.cores * 0.5 || result.cpuShare < 0.9;
  const dimsList = [...new Set(result.measurements.map((m) => m.dims))];
  return [
    `1:N search, k=${result.k}, median of ${result.searches} searches per cell (rounds of ${ROUND} per method, order rotating), random unit vectors; ${result.machine}; ${result.seconds.toFixed(0)} s in all.`,
    `Load average ${load.before.toFixed(2)} before / ${load.after.toFixed(2)} after on ${load.cores} cores; CPU share of the timed searches ${result.cpuShare.toFixed(2)}.` +
      (disturbed
        ? ' **Other processes were running: absolute timings are disturbed (ratios measured side by side are more reliable).**'
        : ''),
    '',
    '| dims | gallery | method | bytes/row | median ms | p90 ms | comparisons/s | × naive | read ceiling (comparisons/s) | recall@k vs exact |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...result.measurements.map(
      (m) =>
        `| ${m.dims} | ${m.size.toLocaleString('en-US')} | ${m.method} | ${m.bytesPerRow} | ${m.medianMs.toFixed(3)} | ${m.p90Ms.toFixed(3)} | ${millions(m.comparisonsPerSecond)} | ${m.speedupVsNaive.toFixed(1)} | ${millions(m.bandwidthCeiling)} | ${m.recallAtK.toFixed(3)} |`,
    ),
    '',
    'Memory bandwidth, same run:',
    '',
    `- copy of a 256 MB Buffer: ${bw.copy256MBGBps.toFixed(1)} GB/s copied (read + write traffic at least twice that)`,
    `- JS loop summing a 256 MB Float64Array: ${bw.jsSumGBps.toFixed(1)} GB/s (bounded by the JS loop, not by memory)`,
    `- WASM SIMD streaming read (v128.load + i32x4.add): ${bw.reads.map((r) => `${size(r.workingSetBytes)} ${r.gbPerSecond.toFixed(1)} GB/s`).join(', ')}`,
    `- At the 256 MB (DRAM) read rate of ${bw.dramReadGBps.toFixed(1)} GB/s, one pass over the rows allows at most ` +
      `${millions(bw.dramCeiling.int8x128)} comparisons/s at 128 B/row (int8, 128 dims), ${millions(bw.dramCeiling.float32x128)} at 512 B/row (float32, 128 dims)` +
      (dimsList.includes(512)
        ? `, ${millions(bw.dramCeiling.int8x512)} at 512 B/row (int8, 512 dims), ${millions(bw.dramCeiling.float32x512)} at 2048 B/row (float32, 512 dims)`
        : '') +
      '. Galleries that fit in cache (10,000 x 128 int8 is 1.25 MB) can beat it; the "read ceiling" column uses the read rate measured at each gallery\'s own size.',
    '',
  ].join('\n');
}

/**
 * Writes reports/bench-matching.md and reports/bench-matching.json.
 *
 * @example
 * writeMatchingReport(await benchMatching(), 'npx tsx bench/matching.ts');
 */
export function writeMatchingReport(result: MatchingBenchResult, command: string): void {
  mkdirSync('reports', { recursive: true });
  writeFileSync(
    'reports/bench-matching.md',
    `# Matching benchmark\n\nCommand: \`${command}\`\n\n${formatMatchingTable(result)}`,
  );
  writeFileSync('reports/bench-matching.json', `${JSON.stringify(result, null, 2)}\n`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      searches: { type: 'string', default: '50' },
      sizes: { type: 'string', default: '10000,100000' },
      dims: { type: 'string', default: '128,512' },
    },
  });
  const list = (text: string): number[] => text.split(',').map(Number);
  const result = await benchMatching({
    searches: Number(values.searches),
    sizes: list(values.sizes),
    dims: list(values.dims),
  });
  process.stdout.write(formatMatchingTable(result));
  writeMatchingReport(
    result,
    `npx tsx bench/matching.ts${process.argv.slice(2).length > 0 ? ` ${process.argv.slice(2).join(' ')}` : ''}`,
  );
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
