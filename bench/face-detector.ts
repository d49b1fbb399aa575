/**
 * TF.js against ONNX detector (`VERIPORT_FACE_DETECTOR`): median milliseconds per 640×480 image for
 * detection + mesh and end to end (decode, detection, refinement, embeddings) with F500 and F200, on
 * one worker per detector, on bench/face.ts's frames (one face each). The two workers are timed in
 * turn, `repeats` times, so a shared machine's load falls on both; each repeat gives one median, and
 * the spread of the repeats is the noise. Run: `npx tsx bench/face-detector.ts [repeats] [rounds]`.
 */
import { pathToFileURL } from 'node:url';
import { FACE_ALGORITHMS, FACE_ALGORITHM_NAMES } from '../src/engines/face/algorithms.js';
import { FACE_DETECTOR_KINDS } from '../src/engines/face/face-detector-kind.js';
import { FaceEngine } from '../src/engines/face/face-engine.js';
import { onCanvas, portrait, type Person } from '../test/helpers/faces.js';

const PEOPLE: readonly Person[] = ['anna', 'bella', 'carla'];

/** Medians per repeat, by "algorithm detector" (e.g. "F500 onnx"). */
export type DetectorBench = Record<string, { readonly detectMs: number[]; readonly totalMs: number[] }>;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Times both detectors; `rounds` passes over the 9 frames make one repeat's median.
 *
 * @example
 * const bench = await benchDetectors(5, 5);
 * bench['F500 onnx']?.detectMs; // [15.8, 15.7, ...]
 */
export async function benchDetectors(repeats: number, rounds: number): Promise<DetectorBench> {
  const frames: Buffer[] = [];
  for (const person of PEOPLE) {
    for (const width of [200, 260, 320]) {
      frames.push(await onCanvas(await portrait(person, { width }), { width: 640, height: 480, grey: 120 }));
    }
  }
  const engines = FACE_DETECTOR_KINDS.map((detector) => ({
    detector,
    engine: FaceEngine.start({ workers: 1, pipeline: { detector } }),
  }));
  const out: DetectorBench = {};
  try {
    for (const algorithm of FACE_ALGORITHM_NAMES) {
      const { embeddings } = FACE_ALGORITHMS[algorithm];
      for (const { engine } of engines) for (const frame of frames.slice(0, 2)) await engine.analyze(frame, embeddings);
      for (let r = 0; r < repeats; r++) {
        for (const { detector, engine } of engines) {
          const detect: number[] = [];
          const total: number[] = [];
          for (let i = 0; i < rounds; i++) {
            for (const frame of frames) {
              const a = await engine.analyze(frame, embeddings);
              detect.push(a.timings.detectMs);
              total.push(a.decodeMs + a.timings.detectMs + a.timings.embedMs);
            }
          }
          const row = (out[`${algorithm} ${detector}`] ??= { detectMs: [], totalMs: [] });
          row.detectMs.push(median(detect));
          row.totalMs.push(median(total));
        }
      }
    }
  } finally {
    await Promise.all(engines.map(({ engine }) => engine.close()));
  }
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const bench = await benchDetectors(Number(process.argv[2] ?? 5), Number(process.argv[3] ?? 5));
  const list = (values: readonly number[]) => values.map((v) => v.toFixed(1)).join(' ');
  for (const [key, row] of Object.entries(bench)) {
    console.log(`${key}: detect+mesh ${list(row.detectMs)} | end to end ${list(row.totalMs)} (median per repeat)`);
  }
}
