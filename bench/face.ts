/**
 * Face-engine latency per algorithm: median and p90 single-thread milliseconds per 640×480 image
 * (decode, detection, landmarks, alignment, embedding) on one worker, and images per second with one
 * worker per core. Images are built from the photos that ship with `@vladmandic/face-api` (one
 * selfie-sized face on a 640×480 frame). Run alone: `tsx bench/face.ts [--detector tfjs|onnx]`; `npm run bench`
 * runs it too. Writes reports/bench-face.{md,json}.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus } from 'node:os';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { FACE_ALGORITHMS, FACE_ALGORITHM_NAMES } from '../src/engines/face/algorithms.js';
import { FaceEngine } from '../src/engines/face/face-engine.js';
import type { FaceDetectorKind } from '../src/engines/face/face-detector-kind.js';
import { detectorOption, DETECTOR_OPTION } from '../eval/detector-option.js';
import { onCanvas, portrait, type Person } from '../test/helpers/faces.js';

export interface FaceBenchRow {
  readonly algorithm: string;
  readonly medianMs: number;
  readonly p90Ms: number;
  /** Medians of the stages, single thread: decode, detection with landmarks, crops and embeddings. */
  readonly stagesMs: { readonly decode: number; readonly detect: number; readonly embed: number };
  readonly imagesPerSecond: number;
  readonly workers: number;
  readonly detector: FaceDetectorKind;
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

export async function benchFace(rounds = 5, detector = detectorOption(undefined)): Promise<FaceBenchRow[]> {
  const images = await frames();
  const rows: FaceBenchRow[] = [];
  for (const name of FACE_ALGORITHM_NAMES) {
    const { embeddings } = FACE_ALGORITHMS[name];
    const single = FaceEngine.start({ workers: 1, pipeline: { detector } });
    const times: number[] = [];
    const stages = { decode: [] as number[], detect: [] as number[], embed: [] as number[] };
    try {
      const [warmUp] = images;
      if (warmUp === undefined) throw new Error('no frames to time');
      await single.analyze(warmUp, embeddings);
      for (let r = 0; r < rounds; r++) {
        for (const image of images) {
          const a = await single.analyze(image, embeddings);
          times.push(a.decodeMs + a.timings.detectMs + a.timings.embedMs);
          stages.decode.push(a.decodeMs);
          stages.detect.push(a.timings.detectMs);
          stages.embed.push(a.timings.embedMs);
        }
      }
    } finally {
      await single.close();
    }
    const workers = availableParallelism();
    const pool = FaceEngine.start({ workers, pipeline: { detector } });
    let imagesPerSecond: number;
    try {
      await pool.warm();
      // One analysis per worker first: onnxruntime's first run allocates and plans (start-up, not throughput).
      await Promise.all(images.slice(0, workers).map((image) => pool.analyze(image, embeddings)));
      const batch = Array.from({ length: 4 * rounds }, () => images).flat();
      const started = performance.now();
      await Promise.all(batch.map((image) => pool.analyze(image, embeddings)));
      imagesPerSecond = batch.length / ((performance.now() - started) / 1000);
    } finally {
      await pool.close();
    }
    const stagesMs = {
      decode: quantile(stages.decode, 0.5),
      detect: quantile(stages.detect, 0.5),
      embed: quantile(stages.embed, 0.5),
    };
    rows.push({
      algorithm: name,
      medianMs: quantile(times, 0.5),
      p90Ms: quantile(times, 0.9),
      stagesMs,
      imagesPerSecond,
      workers,
      detector,
    });
  }
  return rows;
}

export function faceBenchTable(rows: readonly FaceBenchRow[]): string {
  return [
    '| algorithm | detector | ms per 640×480 image, median (one thread) | p90 | decode / detect / embed ms (medians) | images/s (all workers) | workers |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.algorithm} | ${r.detector} | ${r.medianMs.toFixed(0)} | ${r.p90Ms.toFixed(0)} | ${r.stagesMs.decode.toFixed(0)} / ${r.stagesMs.detect.toFixed(0)} / ${r.stagesMs.embed.toFixed(0)} | ${r.imagesPerSecond.toFixed(1)} | ${r.workers} |`,
    ),
  ].join('\n');
}

export function writeFaceBenchReport(rows: readonly FaceBenchRow[]): void {
  mkdirSync('reports', { recursive: true });
  const cpu = cpus()[0]?.model ?? 'unknown CPU';
  const table = faceBenchTable(rows);
  writeFileSync(
    'reports/bench-face.md',
    `# Face engine latency\n\n\`npm run bench\` (bench/face.ts) on ${new Date().toISOString().slice(0, 10)}, ${cpu}, ${cpus().length} cores. One face per 640×480 JPEG frame; single-thread time inside one worker (decode + detection + mesh + alignment + embeddings), then throughput with one worker per core.\n\n${table}\n`,
  );
  writeFileSync('reports/bench-face.json', `${JSON.stringify({ cpu, rows }, null, 1)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { ...DETECTOR_OPTION } });
  const rows = await benchFace(5, detectorOption(values.detector));
  console.log(faceBenchTable(rows));
  writeFaceBenchReport(rows);
}
