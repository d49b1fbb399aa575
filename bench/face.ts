/**
 * Face-engine latency per algorithm on 640×480 images (one face each), through the engine's own worker pool:
 * - one worker, requests one after another: the wall time inside the worker (decode + detection with the
 *   mesh + crops and embeddings; median and p90), and beside it where that time went (medians): the worker
 *   thread's own CPU time and its wait for a core (Linux's per-thread scheduler counters), the rest being
 *   time the thread was blocked (sharp decodes on its own threads), and the whole process's CPU time per
 *   request (every thread: the worker, sharp's decode threads, the GC's helpers, the caller), which is what
 *   `bench/face-stages.ts` counts on one thread;
 * - one worker per core: images per second, the process's CPU time per image, and the rate that CPU time
 *   allows on these cores (what a machine with no other work would reach).
 * On a shared machine the wall times carry the other work (the run-queue wait shows how much); the CPU
 * times change far less. The 1-minute load average at the start and end of each algorithm is reported.
 * Images are built from the photos that ship with `@vladmandic/face-api`. Run alone:
 * `tsx bench/face.ts [--detector tfjs|onnx] [--rounds N]`; `npm run bench` runs it too. Writes
 * reports/bench-face.{md,json}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { FACE_ALGORITHMS, FACE_ALGORITHM_NAMES } from '../src/engines/face/algorithms.js';
import type { EmbeddingOptions } from '../src/engines/face/face-pipeline.js';
import { FaceEngine } from '../src/engines/face/face-engine.js';
import type { FaceDetectorKind } from '../src/engines/face/face-detector-kind.js';
import { detectorOption, DETECTOR_OPTION } from '../eval/detector-option.js';
import { onCanvas, portrait, type Person } from '../test/helpers/faces.js';

/** Where one request's wall time went, one worker (medians over the requests; `undefined` off Linux). */
export interface FaceRequestCosts {
  /** The worker thread running (its own CPU time, from the start of decoding to the answer). */
  readonly threadCpuMs: number | undefined;
  /** The worker thread ready to run but waiting for a core (other threads and processes had them). */
  readonly runQueueMs: number | undefined;
  /** Wall time less the two: the thread blocked, mostly on sharp's decode on its own threads. */
  readonly blockedMs: number | undefined;
  /** CPU time of the whole process during the request: every thread, the caller's included. */
  readonly processCpuMs: number;
  /** The request as the caller sees it: queueing and the messages to and from the worker included. */
  readonly roundTripMs: number;
}

export interface FaceBenchRow {
  readonly algorithm: string;
  /** Wall time inside one worker, decode + detection + embeddings: median and p90. */
  readonly medianMs: number;
  readonly p90Ms: number;
  /** Medians of the stages, single thread: decode, detection with landmarks, crops and embeddings. */
  readonly stagesMs: { readonly decode: number; readonly detect: number; readonly embed: number };
  readonly request: FaceRequestCosts;
  readonly imagesPerSecond: number;
  /** Process CPU time per image while every worker was busy. */
  readonly cpuMsPerImage: number;
  /** The rate that CPU time allows on this machine's cores: cores × 1000 / cpuMsPerImage. */
  readonly cpuBoundImagesPerSecond: number;
  readonly workers: number;
  readonly detector: FaceDetectorKind;
  /** 1-minute load average before and after this algorithm's runs (other work on the machine). */
  readonly loadAverage: readonly [number, number];
}

const PEOPLE: readonly Person[] = ['anna', 'bella', 'carla'];

async function frames(): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for (const person of PEOPLE) {
    for (const width of [200, 260, 320]) {
      out.push(await onCanvas(await portrait(person, { width }), { width: 640, height: 480, grey: 120 }));
    }
  }
  return out;
}

function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;
}

function cpuMsSince(start: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(start);
  return (user + system) / 1000;
}

function medianOf(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined);
  return defined.length < values.length ? undefined : quantile(defined, 0.5);
}

/** Requests one after another on one worker, after a warm-up pass over every frame. */
async function oneWorker(
  images: readonly Buffer[],
  embeddings: EmbeddingOptions,
  rounds: number,
  detector: FaceDetectorKind,
): Promise<Pick<FaceBenchRow, 'medianMs' | 'p90Ms' | 'stagesMs' | 'request'>> {
  const engine = FaceEngine.start({ workers: 1, pipeline: { detector } });
  const wall: number[] = [];
  const stages = { decode: [] as number[], detect: [] as number[], embed: [] as number[] };
  const thread: (number | undefined)[] = [];
  const runQueue: (number | undefined)[] = [];
  const blocked: (number | undefined)[] = [];
  const processCpu: number[] = [];
  const roundTrip: number[] = [];
  try {
    // A whole pass first: after loading, the first pass over the frames ran ~20% slower (the JIT compiling,
    // onnxruntime's first runs at each size), and with one image of warm-up it was a fifth of the samples.
    for (const image of images) await engine.analyze(image, embeddings);
    for (let r = 0; r < rounds; r++) {
      for (const image of images) {
        const cpuStart = process.cpuUsage();
        const sent = performance.now();
        const a = await engine.analyze(image, embeddings);
        roundTrip.push(performance.now() - sent);
        processCpu.push(cpuMsSince(cpuStart));
        const ms = a.decodeMs + a.timings.detectMs + a.timings.embedMs;
        wall.push(ms);
        stages.decode.push(a.decodeMs);
        stages.detect.push(a.timings.detectMs);
        stages.embed.push(a.timings.embedMs);
        thread.push(a.thread?.cpuMs);
        runQueue.push(a.thread?.runQueueMs);
        blocked.push(a.thread ? ms - a.thread.cpuMs - a.thread.runQueueMs : undefined);
      }
    }
  } finally {
    await engine.close();
  }
  return {
    medianMs: quantile(wall, 0.5),
    p90Ms: quantile(wall, 0.9),
    stagesMs: {
      decode: quantile(stages.decode, 0.5),
      detect: quantile(stages.detect, 0.5),
      embed: quantile(stages.embed, 0.5),
    },
    request: {
      threadCpuMs: medianOf(thread),
      runQueueMs: medianOf(runQueue),
      blockedMs: medianOf(blocked),
      processCpuMs: quantile(processCpu, 0.5),
      roundTripMs: quantile(roundTrip, 0.5),
    },
  };
}

/** Images per second and CPU time per image with one worker per core, all busy. */
async function allWorkers(
  images: readonly Buffer[],
  embeddings: EmbeddingOptions,
  rounds: number,
  detector: FaceDetectorKind,
): Promise<Pick<FaceBenchRow, 'imagesPerSecond' | 'cpuMsPerImage' | 'cpuBoundImagesPerSecond' | 'workers'>> {
  const workers = availableParallelism();
  const pool = FaceEngine.start({ workers, pipeline: { detector } });
  try {
    await pool.warm();
    // Every frame once on every worker first (the first pass is slower: above).
    for (const image of images)
      await Promise.all(Array.from({ length: workers }, () => pool.analyze(image, embeddings)));
    const batch = Array.from({ length: 4 * rounds }, () => images).flat();
    const cpuStart = process.cpuUsage();
    const started = performance.now();
    await Promise.all(batch.map((image) => pool.analyze(image, embeddings)));
    const seconds = (performance.now() - started) / 1000;
    const cpuMsPerImage = cpuMsSince(cpuStart) / batch.length;
    return {
      imagesPerSecond: batch.length / seconds,
      cpuMsPerImage,
      cpuBoundImagesPerSecond: (availableParallelism() * 1000) / cpuMsPerImage,
      workers,
    };
  } finally {
    await pool.close();
  }
}

/**
 * Runs both phases for every algorithm.
 *
 * @example
 * const rows = await benchFace(5, 'onnx');
 * rows[1].medianMs; // F500's median wall time per image on one worker
 */
export async function benchFace(rounds = 5, detector = detectorOption(undefined)): Promise<FaceBenchRow[]> {
  const images = await frames();
  const rows: FaceBenchRow[] = [];
  for (const name of FACE_ALGORITHM_NAMES) {
    const { embeddings } = FACE_ALGORITHMS[name];
    const loadBefore = loadavg()[0] ?? NaN;
    const single = await oneWorker(images, embeddings, rounds, detector);
    const throughput = await allWorkers(images, embeddings, rounds, detector);
    rows.push({ algorithm: name, ...single, ...throughput, detector, loadAverage: [loadBefore, loadavg()[0] ?? NaN] });
  }
  return rows;
}

const fixed = (value: number | undefined, digits = 1): string => (value === undefined ? '–' : value.toFixed(digits));

/**
 * The report's two tables: latency and throughput; where one request's wall time went.
 *
 * @example
 * console.log(faceBenchTable(await benchFace()));
 */
export function faceBenchTable(rows: readonly FaceBenchRow[]): string {
  return [
    '| algorithm | detector | ms per 640×480 image, median (one worker, wall) | p90 | decode / detect / embed ms (medians) | CPU ms per request (process, all threads) | images/s (all workers) | CPU ms per image (all workers) | images/s the CPU time allows | workers |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.algorithm} | ${r.detector} | ${fixed(r.medianMs)} | ${fixed(r.p90Ms)} | ${fixed(r.stagesMs.decode)} / ${fixed(r.stagesMs.detect)} / ${fixed(r.stagesMs.embed)} | ${fixed(r.request.processCpuMs)} | ${fixed(r.imagesPerSecond)} | ${fixed(r.cpuMsPerImage)} | ${fixed(r.cpuBoundImagesPerSecond)} | ${r.workers} |`,
    ),
    '',
    "| one request, one worker (medians, ms) | wall in the worker | worker thread CPU | waiting for a core | blocked (decode on sharp's threads) | round trip (caller) | load average, 1 min (start – end) |",
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.algorithm} | ${fixed(r.medianMs)} | ${fixed(r.request.threadCpuMs)} | ${fixed(r.request.runQueueMs)} | ${fixed(r.request.blockedMs)} | ${fixed(r.request.roundTripMs)} | ${fixed(r.loadAverage[0])} – ${fixed(r.loadAverage[1])} |`,
    ),
  ].join('\n');
}

export function writeFaceBenchReport(rows: readonly FaceBenchRow[]): void {
  mkdirSync('reports', { recursive: true });
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const table = faceBenchTable(rows);
  writeFileSync(
    'reports/bench-face.md',
    `# Face engine latency\n\n\`npm run bench\` (bench/face.ts) on ${new Date().toISOString().slice(0, 10)}, ${cpu}, ${cpus().length} cores. One face per 640×480 JPEG frame; one worker, requests one after another: the wall time inside the worker (decode + detection + mesh + alignment + embeddings) and where it went (the worker thread's CPU time, its wait for a core, and the rest: blocked on sharp's decode threads), with the whole process's CPU time per request; then throughput with one worker per core, its CPU time per image and the rate that CPU time allows. Wall times include whatever else the machine ran (see the run-queue wait and the load average); CPU times change far less.\n\n${table}\n`,
  );
  writeFileSync('reports/bench-face.json', `${JSON.stringify({ cpu, rows }, null, 1)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { ...DETECTOR_OPTION, rounds: { type: 'string', default: '5' } } });
  const rows = await benchFace(Number(values.rounds), detectorOption(values.detector));
  console.log(faceBenchTable(rows));
  writeFaceBenchReport(rows);
}
