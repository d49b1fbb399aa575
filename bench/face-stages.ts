/**
 * Where an image's time goes on the ONNX detector path: CPU milliseconds per stage and per image
 * (decode, BlazeFace, the mesh pass, the refinement pass, one recognition view; F200 and F500 end to end)
 * in this process, one thread, steady state, on bench/face.ts's frames (one face each, 640×480).
 * CPU time (`process.cpuUsage`) rather than wall time, so that a shared machine's other work, which
 * delays a stage without adding to its CPU time, changes little; medians over `passes` passes, the first
 * discarded. Run: `npx tsx bench/face-stages.ts [passes]` (default 8).
 */
import { pathToFileURL } from 'node:url';
import { FACE_ALGORITHMS } from '../src/engines/face/algorithms.js';
import { BlazeFaceDetector } from '../src/engines/face/blazeface-detector.js';
import { meanShapeTransform, sampleCrop } from '../src/engines/face/face-alignment.js';
import { FaceMeshRefiner } from '../src/engines/face/face-mesh-refiner.js';
import { DEFAULT_PIPELINE_CONFIG, FacePipeline } from '../src/engines/face/face-pipeline.js';
import { FaceRecognizer, RECOGNIZER_INPUT_SIZE } from '../src/engines/face/face-recognizer.js';
import { decodeImage } from '../src/engines/face/image-decoding.js';
import { OnnxFaceDetector } from '../src/engines/face/onnx-face-detector.js';
import { onCanvas, portrait, type Person } from '../test/helpers/faces.js';

const PEOPLE: readonly Person[] = ['anna', 'bella', 'carla'];

/** Median CPU milliseconds per image, by stage. */
export type StageCosts = Record<string, number>;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/**
 * Times each stage on its own objects, then the pipeline end to end.
 *
 * @example
 * const costs = await benchFaceStages(8);
 * costs['F500 (decode + analyse)']; // 39.0
 */
export async function benchFaceStages(passes: number): Promise<StageCosts> {
  const frames: Buffer[] = [];
  for (const person of PEOPLE) {
    for (const width of [200, 260, 320]) {
      frames.push(await onCanvas(await portrait(person, { width }), { width: 640, height: 480, grey: 120 }));
    }
  }
  const options = { maxFaces: 5, minConfidence: 0.3, iris: false, description: false };
  const [blazeFace, detector, recognizer, pipeline] = await Promise.all([
    BlazeFaceDetector.load(),
    OnnxFaceDetector.load(options),
    FaceRecognizer.load(),
    FacePipeline.load({ ...DEFAULT_PIPELINE_CONFIG, detector: 'onnx' }),
  ]);
  const refiner = await FaceMeshRefiner.load(undefined, detector.mesh);
  const costs = new Map<string, number[]>();
  const cpu = async <T>(stage: string, work: () => Promise<T>, keep: boolean): Promise<T> => {
    const start = process.cpuUsage();
    const result = await work();
    const { user, system } = process.cpuUsage(start);
    if (keep) costs.set(stage, [...(costs.get(stage) ?? []), (user + system) / 1000]);
    return result;
  };
  for (let pass = 0; pass < passes; pass++) {
    const keep = pass > 0;
    for (const frame of frames) {
      const image = await cpu('decode', () => decodeImage(frame), keep);
      await cpu('BlazeFace (resize, model, decoding)', () => blazeFace.detect(image), keep);
      const [face] = await cpu('detection (BlazeFace + mesh pass)', () => detector.detect(image), keep);
      if (face === undefined) throw new Error('a bench frame has no face');
      const mesh = (await cpu('refinement pass', () => refiner.refine(image, face), keep)) ?? face.mesh;
      const transform = meanShapeTransform(mesh, RECOGNIZER_INPUT_SIZE, { padding: 0.25, levelAboveDegrees: 0 });
      await cpu('recognition, 1 view (crop, net)', () => recognizer.embed([sampleCrop(image, transform)]), keep);
      for (const name of ['F200', 'F500'] as const) {
        const { embeddings } = FACE_ALGORITHMS[name];
        await cpu(
          `${name} (decode + analyse)`,
          async () => pipeline.analyze(await decodeImage(frame), embeddings),
          keep,
        );
      }
    }
  }
  const out: StageCosts = {};
  for (const [stage, values] of costs) out[stage] = median(values);
  return out;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const costs = await benchFaceStages(Number(process.argv[2] ?? 8));
  console.log('| CPU ms per 640×480 image (one thread, median) | |\n|---|---|');
  for (const [stage, ms] of Object.entries(costs)) console.log(`| ${stage} | ${ms.toFixed(1)} |`);
}
