/**
 * Where a 3-frame foxtrot4 request's CPU goes: milliseconds per stage, in this process, one thread, steady
 * state, on the frames of a simulated phone capture (test/helpers/camera-simulation.ts, 480×640, decided
 * LIVE). Per frame, what a face worker does (decode, detection and mesh, the refined mesh and the F200 view
 * that face_swap_detection compares, the frame's and the face's liveness measures, the ONNX PAD model); per
 * request, what the main thread does (parse the request, decide: the multi-frame registrations and noise
 * floors). CPU time (`process.cpuUsage`) rather than wall time, so that a shared machine's other work
 * changes little; medians over `passes` passes, the first discarded.
 *
 * With W workers a request's wall time is about ceil(3 / W) × the worker stages + the main-thread stages.
 *
 * Then the wall time of the same request through HTTP: `veriport serve` (2 face workers, in-memory store) as a
 * child process, one client sending it `requests` times in a row (the first discarded), p50 and p90.
 * Run: `npx tsx bench/liveness-stages.ts [passes] [requests]` (defaults 8, 21).
 */
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { FACE_ALGORITHMS } from '../src/engines/face/algorithms.js';
import { FaceEngine } from '../src/engines/face/face-engine.js';
import { DEFAULT_PIPELINE_CONFIG, FacePipeline } from '../src/engines/face/face-pipeline.js';
import { decodeImage, DEFAULT_DECODE_OPTIONS } from '../src/engines/face/image-decoding.js';
import { faceFrameMeasures, frameMeasures } from '../src/engines/liveness/frame-measures.js';
import { parseLivenessRequest } from '../src/engines/liveness/liveness-request.js';
import { analyzeCrop, PAD_CROP_SIZE, padCrop } from '../src/engines/liveness/pad-features.js';
import { OnnxPadModel } from '../src/engines/liveness/pad-onnx-model.js';
import { analyzeFrames, decidePassiveLiveness } from '../src/engines/liveness/passive-liveness.js';
import { motionFrames, sequenceMotion } from '../src/engines/liveness/sequence-motion.js';
import { simulatedCapture } from '../test/helpers/camera-simulation.js';
import { photoFrame } from '../test/helpers/faces.js';
import { startServer } from '../test/helpers/process.js';
import { closedLoop } from './http-load.js';

/** Median CPU milliseconds by stage: per frame (worker) or per request (main thread), as the name says. */
export type StageCosts = Record<string, number>;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Times each stage of a 3-frame foxtrot4 request.
 *
 * @example
 * const costs = await benchLivenessStages(8);
 * costs['worker: ONNX PAD model (per frame)']; // ~10
 */
export async function benchLivenessStages(passes: number): Promise<StageCosts> {
  const engine = FaceEngine.start({ workers: 1 });
  let frames: Buffer[];
  let analysed;
  let request;
  try {
    frames = await simulatedCapture(engine, await photoFrame('anna'), { seed: 1 });
    request = await parseLivenessRequest(body(frames), undefined);
    analysed = await analyzeFrames(engine, request);
  } finally {
    await engine.close();
  }
  const [pipeline, padNet] = await Promise.all([FacePipeline.load(DEFAULT_PIPELINE_CONFIG), OnnxPadModel.load()]);
  const views = FACE_ALGORITHMS.F200.embeddings.views;
  const context = { now: Date.now(), maxAgeMs: 1e12, maxSkewMs: 1e12, iadModes: new Map() };
  const costs = new Map<string, number[]>();
  const cpu = async <T>(stage: string, work: () => Promise<T> | T, keep: boolean): Promise<T> => {
    const start = process.cpuUsage();
    const result = await work();
    const { user, system } = process.cpuUsage(start);
    if (keep) costs.set(stage, [...(costs.get(stage) ?? []), (user + system) / 1000]);
    return result;
  };
  for (let pass = 0; pass < passes; pass++) {
    const keep = pass > 0;
    for (const bytes of frames) {
      const image = await cpu(
        'worker: decode (per frame)',
        () => decodeImage(bytes, { ...DEFAULT_DECODE_OPTIONS, rotation: 0 }),
        keep,
      );
      await cpu(
        'worker: detection and mesh (per frame)',
        () => pipeline.analyze(image, { views: [], description: false }),
        keep,
      );
      const { faces } = await cpu(
        'worker: detection, mesh, refinement, F200 view (per frame)',
        () => pipeline.analyze(image, { views, description: false }),
        keep,
      );
      const face = faces[0];
      if (face === undefined) throw new Error('a simulated frame has no face');
      const frame = await cpu('worker: frame measures (per frame)', () => frameMeasures(image), keep);
      // What a worker measures when the ONNX model decides (the default): the hand-made features' sharpness alone.
      await cpu(
        'worker: face measures (per frame)',
        () => faceFrameMeasures(image, face, frame, { handmadePad: false }),
        keep,
      );
      await cpu(
        'worker: hand-made PAD features, only with VERIPORT_PAD_MODEL=handmade (per frame)',
        () => analyzeCrop(padCrop(image, face), PAD_CROP_SIZE),
        keep,
      );
      await cpu('worker: ONNX PAD model (per frame)', () => padNet.predict(image, face.box), keep);
    }
    await cpu('main: parse the request (per request)', () => parseLivenessRequest(body(frames), undefined), keep);
    // Fresh copies: a request's windows are new objects (nothing cached from the previous pass).
    const copies = structuredClone(analysed);
    await cpu('main: decide (per request)', () => decidePassiveLiveness(request, copies, context), keep);
    const again = structuredClone(analysed);
    const subjects = again.map((a) => [...a.faces].sort((x, y) => y.box[2] - x.box[2])[0]);
    await cpu(
      'main:   of which registrations and noise floors (per request)',
      () =>
        sequenceMotion(
          motionFrames(
            again,
            subjects,
            request.frames.map((f) => f.bytes),
          ),
        ),
      keep,
    );
  }
  const out: StageCosts = {};
  for (const [stage, values] of costs) out[stage] = median(values);
  return out;
}

/**
 * Wall milliseconds of the 3-frame foxtrot4 request through HTTP on a 2-worker server, one request at a time.
 *
 * @example
 * const { p50, p90, decision } = await benchFoxtrotHttp(21);
 */
export async function benchFoxtrotHttp(
  requests: number,
): Promise<{ p50: number; p90: number; count: number; decision: string; load: number[] }> {
  const engine = FaceEngine.start({ workers: 1 });
  let frames: Buffer[];
  try {
    frames = await simulatedCapture(engine, await photoFrame('anna'), { seed: 1 });
  } finally {
    await engine.close();
  }
  const payload = JSON.stringify({ video: { meta_data: {}, workflow_data: body(frames) } });
  const server = await startServer({ VERIPORT_DATA_DIR: 'memory://', VERIPORT_FACE_WORKERS: '2' });
  try {
    const answer = await fetch(`${server.url}/face-liveness/checkLiveness`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: payload,
    });
    const text = await answer.text();
    const decision = /"decision":"([A-Z_]+)"/.exec(text)?.[1] ?? `HTTP ${answer.status}`;
    const load = loadavg();
    const samples = await closedLoop({
      url: server.url,
      concurrency: 1,
      requests,
      next: () => ({ kind: 'foxtrot', path: '/face-liveness/checkLiveness', body: payload }),
    });
    const times = samples
      .slice(1)
      .filter((s) => s.status === 200)
      .map((s) => s.ms)
      .sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? NaN;
    return { p50: at(0.5), p90: at(0.9), count: times.length, decision, load: [...load, ...loadavg()] };
  } finally {
    await server.stop();
  }
}

function body(frames: readonly Buffer[]) {
  return { workflow: 'foxtrot4', frames: frames.map((f, i) => ({ data: f.toString('base64'), timestamp: i * 100 })) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const costs = await benchLivenessStages(Number(process.argv[2] ?? 8));
  console.log('| CPU ms, 3-frame foxtrot4 at 480×640 (one thread, median) | |\n|---|---|');
  for (const [stage, ms] of Object.entries(costs)) console.log(`| ${stage} | ${ms.toFixed(1)} |`);
  const http = await benchFoxtrotHttp(Number(process.argv[3] ?? 21));
  console.log(
    `\nHTTP, 2 face workers, one request at a time (${http.decision}): p50 ${http.p50.toFixed(0)} ms, ` +
      `p90 ${http.p90.toFixed(0)} ms over ${http.count} requests; load average before and after ` +
      `${http.load.map((l) => l.toFixed(1)).join(' ')} on ${cpus().length} cores`,
  );
}
