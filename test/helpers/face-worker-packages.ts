/**
 * Run as a child process (`node --import tsx test/helpers/face-worker-packages.ts <default|tfjs|onnx>`):
 * analyses one photo as a face worker does and prints, as JSON, the npm packages the process loaded.
 * `default` calls the face worker's own entry point with no worker data (the pipeline's defaults, liveness
 * and quality measures on); `tfjs` and `onnx` load the pipeline with that detector. A child process, so that
 * nothing the test runner loaded itself is counted.
 *
 * The packages are read from Node's CommonJS module cache: TF.js, its WASM backend, human's Node bundle and
 * onnxruntime-node are CommonJS, so importing them from ESM puts them there too.
 */
import { createRequire } from 'node:module';
import { FACE_ALGORITHMS } from '../../src/engines/face/algorithms.js';
import { parseFaceDetectorKind } from '../../src/engines/face/face-detector-kind.js';
import { portrait } from './faces.js';

const mode = process.argv[2] ?? 'default';
const photo = await portrait('anna', { width: 320 });
let faces: number;
if (mode === 'default') {
  const { default: analyzeImage } = await import('../../src/engines/face/face-worker.js');
  const outcome = await analyzeImage({
    image: photo,
    embeddings: FACE_ALGORITHMS.F500.embeddings,
    liveness: true,
    quality: true,
  });
  faces = outcome.ok ? outcome.faces.length : -1;
} else {
  const detector = parseFaceDetectorKind(mode);
  if (detector === undefined) throw new Error(`unknown detector '${mode}'`);
  const [{ DEFAULT_PIPELINE_CONFIG, FacePipeline }, { decodeImage }] = await Promise.all([
    import('../../src/engines/face/face-pipeline.js'),
    import('../../src/engines/face/image-decoding.js'),
  ]);
  const pipeline = await FacePipeline.load({ ...DEFAULT_PIPELINE_CONFIG, detector });
  faces = (await pipeline.analyze(await decodeImage(photo), FACE_ALGORITHMS.F500.embeddings)).faces.length;
}
const packages = new Set<string>();
for (const path of Object.keys(createRequire(import.meta.url).cache)) {
  // The package a file belongs to: the last node_modules/<name> or node_modules/@scope/<name> in its path.
  const name = /.*node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(path)?.[1];
  if (name !== undefined) packages.add(name.replace('\\', '/'));
}
console.log(JSON.stringify({ faces, packages: [...packages].sort() }));
