import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { FaceRecognitionNet } from '@vladmandic/face-api';
import sharp from 'sharp';
import { sampleCrop } from '../../../../src/engines/face/face-alignment.js';
import { decodeImage } from '../../../../src/engines/face/image-decoding.js';
import {
  FaceRecognizer,
  RECOGNIZER_DIMENSIONS,
  RECOGNIZER_INPUT_SIZE,
} from '../../../../src/engines/face/face-recognizer.js';
import { startTfjs } from '../../../../src/engines/face/runtime/tfjs-runtime.js';
import { packageDir, requirePackageFile } from '../../../../src/lib/package-files.js';
import { unitVector } from '../../../../src/lib/vectors.js';
import { portrait, type Person } from '../../../helpers/faces.js';

/** face-api's own TF.js forward pass: the reference the ONNX graph must reproduce. */
async function faceApiEmbeddings(crops: readonly Float32Array[]): Promise<Float32Array[]> {
  const tf = await startTfjs();
  const faceapi = requirePackageFile<{ FaceRecognitionNet: new () => FaceRecognitionNet }>(
    '@vladmandic/face-api',
    'dist/face-api.node-wasm.js',
  );
  const net = new faceapi.FaceRecognitionNet();
  await net.loadFromDisk(join(packageDir('@vladmandic/face-api'), 'model'));
  const side = RECOGNIZER_INPUT_SIZE;
  const images = crops.map((crop) => tf.tensor3d(crop, [side, side, 3], 'float32'));
  const output = (await net.forward(images as never)) as unknown as { data(): Promise<Float32Array>; dispose(): void };
  const flat = await output.data();
  output.dispose();
  for (const image of images) image.dispose();
  net.dispose();
  return crops.map((_, i) => unitVector(flat.subarray(i * RECOGNIZER_DIMENSIONS, (i + 1) * RECOGNIZER_DIMENSIONS)));
}

async function crop(person: Person): Promise<Float32Array> {
  const side = RECOGNIZER_INPUT_SIZE;
  const { data } = await sharp(await portrait(person, { margin: 0.15 }))
    .resize(side, side)
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Float32Array.from(data);
}

describe('face recognition graph (ONNX, built from face-api weights)', () => {
  it("gives the embeddings of face-api's own forward pass, crop by crop in one batch", async () => {
    const crops = await Promise.all((['anna', 'bella', 'carla'] as const).map(crop));
    const recognizer = await FaceRecognizer.load();
    const got = await recognizer.embed(crops);
    const expected = await faceApiEmbeddings(crops);
    assert.equal(got.length, 3);
    got.forEach((vector, i) => {
      assert.equal(vector.length, RECOGNIZER_DIMENSIONS);
      const reference = expected[i]!;
      const worst = Math.max(...vector.map((v, d) => Math.abs(v - reference[d]!)));
      assert.ok(worst < 1e-4, `crop ${i}: largest difference ${worst}`);
    });
    // Different people's vectors differ far more than the tolerance: the comparison above has teeth.
    const apart = Math.max(...got[0]!.map((v, d) => Math.abs(v - got[1]![d]!)));
    assert.ok(apart > 1e-2, `anna vs bella differ by at most ${apart}`);
    assert.deepEqual(await recognizer.embed([]), []);
    await assert.rejects(recognizer.embed([new Float32Array(10)]), RangeError);
  });

  it("embeds views cut from an image as the crops sampled one by one, a mirror sharing its view's samples", async () => {
    const image = await decodeImage(await portrait('bella', { width: 300 }));
    const side = RECOGNIZER_INPUT_SIZE;
    const plain = { size: side, a: 1.1, b: 0.15, tx: 60, ty: 40 };
    const closer = { ...plain, a: 1.0, b: 0.14 };
    const views = [
      { transform: plain, mirrored: false },
      { transform: { ...plain }, mirrored: true },
      { transform: closer, mirrored: false },
      { transform: closer, mirrored: true },
    ];
    const recognizer = await FaceRecognizer.load();
    const got = await recognizer.embedViews(image, views);
    const expected = await recognizer.embed(views.map((v) => sampleCrop(image, v.transform, v.mirrored)));
    assert.equal(got.length, 4);
    got.forEach((vector, i) => {
      const worst = Math.max(...vector.map((v, d) => Math.abs(v - expected[i]![d]!)));
      assert.ok(worst < 1e-6, `view ${i}: largest difference ${worst}`);
    });
    // A mirror is a different input: its vector differs (the comparison above has teeth).
    const mirrorApart = Math.max(...got[0]!.map((v, d) => Math.abs(v - got[1]![d]!)));
    assert.ok(mirrorApart > 1e-3, `plain vs mirrored differ by at most ${mirrorApart}`);
    await assert.rejects(
      recognizer.embedViews(image, [{ transform: { ...plain, size: 100 }, mirrored: false }]),
      RangeError,
    );
  });
});
