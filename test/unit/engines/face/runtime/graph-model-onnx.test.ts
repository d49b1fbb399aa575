import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as tf from '@tensorflow/tfjs-core';
import { loadGraphModel } from '@tensorflow/tfjs-converter';
import { InferenceSession, Tensor } from 'onnxruntime-node';
import {
  graphModelToOnnx,
  GraphModelConversionError,
} from '../../../../../src/engines/face/runtime/graph-model-onnx.js';
import { startTfjs } from '../../../../../src/engines/face/runtime/tfjs-runtime.js';
import { packageDir } from '../../../../../src/lib/package-files.js';

/** A deterministic, image-like input in [-1, 1]. */
function input(size: number): Float32Array {
  const out = new Float32Array(size * size * 3);
  let seed = 5;
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    out[i] = Math.max(-1, Math.min(1, (((seed >>> 16) % 256) / 255) * 1.4 - 0.7 + 0.3 * Math.sin(i / 900)));
  }
  return out;
}

describe('TF.js graph model to ONNX', () => {
  for (const [name, size] of [
    ['blazeface', 256],
    ['facemesh', 192],
  ] as const) {
    it(`${name}: onnxruntime gives TF.js's outputs, with channels padded for the blocked conv layout or not`, async () => {
      const path = join(packageDir('@vladmandic/human'), 'models', `${name}.json`);
      const x = input(size);
      await startTfjs();
      const reference = await loadGraphModel(pathToFileURL(path).href);
      const result = reference.execute(tf.tensor4d(x, [1, size, size, 3]));
      const tensors = Array.isArray(result) ? result : [result];
      const expected = await Promise.all(tensors.map(async (t) => (await t.data()) as Float32Array));
      tf.dispose(tensors);
      reference.dispose();
      // 1: no padding; 16: BlazeFace's 24 channels become 32 (AVX-512's block); 64: every layer padded.
      for (const channelBlock of [1, 16, 64]) {
        const model = graphModelToOnnx(path, [1, size, size, 3], { channelBlock });
        const session = await InferenceSession.create(model.bytes, { intraOpNumThreads: 1, interOpNumThreads: 1 });
        const got = await session.run({ [model.input]: new Tensor('float32', x, [1, size, size, 3]) });
        assert.equal(expected.length, model.outputs.length);
        for (const [i, output] of reference.outputs.entries()) {
          const outputName = output.name.split(':')[0] ?? '';
          const want = expected[i]!;
          const actual = got[outputName]?.data as Float32Array | undefined;
          assert.ok(actual, `output ${outputName}`);
          assert.equal(actual.length, want.length);
          const scale = Math.max(1, ...want.map(Math.abs));
          const worst = Math.max(...actual.map((v, j) => Math.abs(v - want[j]!)));
          assert.ok(
            worst <= 1e-5 * scale * 10,
            `block ${channelBlock}, ${outputName}: largest difference ${worst} (values up to ${scale})`,
          );
          // Vector outputs carry signal, so the comparison has teeth (FaceMesh's face flag is one value).
          if (want.length > 1) assert.ok(Math.max(...want) - Math.min(...want) > 1e-3, `${outputName} is flat`);
        }
        await session.release();
      }
    });
  }

  it('takes a planar (NCHW) input when asked, with the same outputs', async () => {
    const path = join(packageDir('@vladmandic/human'), 'models', 'blazeface.json');
    const size = 256;
    const x = input(size);
    const planar = new Float32Array(x.length);
    for (let p = 0; p < size * size; p++) for (let c = 0; c < 3; c++) planar[c * size * size + p] = x[p * 3 + c]!;
    const options = { intraOpNumThreads: 1, interOpNumThreads: 1 };
    const nhwc = graphModelToOnnx(path, [1, size, size, 3]);
    const nchw = graphModelToOnnx(path, [1, 3, size, size], { inputLayout: 'nchw' });
    const a = await (
      await InferenceSession.create(nhwc.bytes, options)
    ).run({ [nhwc.input]: new Tensor('float32', x, [1, size, size, 3]) });
    const b = await (
      await InferenceSession.create(nchw.bytes, options)
    ).run({ [nchw.input]: new Tensor('float32', planar, [1, 3, size, size]) });
    assert.deepEqual(nchw.outputs, nhwc.outputs);
    for (const name of nhwc.outputs) {
      const want = a[name]?.data as Float32Array;
      const got = b[name]?.data as Float32Array;
      assert.equal(got.length, want.length);
      const worst = Math.max(...got.map((v, i) => Math.abs(v - want[i]!)));
      assert.ok(worst <= 1e-4, `${name}: largest difference ${worst}`);
    }
  });

  it('names an op it cannot convert', () => {
    const dir = mkdtempSync(join(tmpdir(), 'graph-model-'));
    const path = join(dir, 'model.json');
    writeFileSync(
      path,
      JSON.stringify({
        modelTopology: {
          node: [
            { name: 'x', op: 'Placeholder' },
            { name: 'y', op: 'Softmax', input: ['x'] },
          ],
        },
        weightsManifest: [{ paths: [], weights: [] }],
      }),
    );
    assert.throws(
      () => graphModelToOnnx(path, [1, 2, 2, 3]),
      (e: unknown) => e instanceof GraphModelConversionError && /Softmax/.test(e.message),
    );
  });
});
