import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-backend-wasm';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { packageDir } from '../../../lib/package-files.js';

let ready: Promise<typeof tf> | undefined;

/**
 * Starts TensorFlow.js on the WebAssembly backend (SIMD, one thread: the worker pool gives the
 * parallelism) and teaches it to load `file://` models, which Node's `fetch` refuses. Idempotent.
 *
 * @example
 * const tf = await startTfjs();
 * tf.getBackend(); // 'wasm'
 */
export function startTfjs(): Promise<typeof tf> {
  ready ??= (async () => {
    // A router returns null for URLs it does not own (the typing says IOHandler only).
    const fileRouter = (url: string | string[]): tf.io.IOHandler | null => {
      const path = Array.isArray(url) ? url[0] : url;
      return typeof path === 'string' && path.startsWith('file://') ? fileModelHandler(fileURLToPath(path)) : null;
    };
    tf.io.registerLoadRouter(fileRouter as Parameters<typeof tf.io.registerLoadRouter>[0]);
    setWasmPaths(`${join(packageDir('@tensorflow/tfjs-backend-wasm'), 'dist')}/`);
    setThreadsCount(1);
    tf.env().set('WASM_HAS_MULTITHREAD_SUPPORT', false);
    if (!(await tf.setBackend('wasm'))) throw new Error('the TensorFlow.js WASM backend did not start');
    await tf.ready();
    tf.enableProdMode();
    return tf;
  })();
  return ready;
}

/** A TF.js IOHandler reading a layers/graph model (`model.json` and its weight shards) from disk. */
function fileModelHandler(modelPath: string): tf.io.IOHandler {
  return {
    async load() {
      const json = JSON.parse(await readFile(modelPath, 'utf8')) as tf.io.ModelJSON;
      return tf.io.getModelArtifactsForJSON(json, async (manifest) => {
        const specs = manifest.flatMap((group) => group.weights);
        const shards = await Promise.all(
          manifest.flatMap((group) => group.paths.map((p) => readFile(join(dirname(modelPath), p)))),
        );
        const weights = Buffer.concat(shards);
        return [specs, weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength)];
      });
    },
  };
}
