import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import sharp from 'sharp';
import { FaceEngine } from '../../../../src/engines/face/face-engine.js';
import type { AnalyzedFace } from '../../../../src/engines/face/face-analysis-types.js';
import { decodeImage } from '../../../../src/engines/face/image-decoding.js';
import {
  OnnxPadModel,
  PAD_NET_INPUT_SIZE,
  PAD_NET_LIVE_CLASS,
  padNetCrop,
  padNetInput,
} from '../../../../src/engines/liveness/pad-onnx-model.js';
import { seededRandom } from '../../../../src/lib/seeded-random.js';
import { closeTestFaceEngine, onPhoneScreen, photoFrame, testFaceEngine } from '../../../helpers/faces.js';

after(closeTestFaceEngine);

const PLANE = PAD_NET_INPUT_SIZE * PAD_NET_INPUT_SIZE;

describe('padNetCrop', () => {
  it('scales the face box 2.7 times about its centre', () => {
    const crop = padNetCrop([100, 80, 60, 60], 640, 480);
    assert.ok(Math.abs(crop.x - 49) < 1e-9 && Math.abs(crop.y - 29) < 1e-9, JSON.stringify(crop));
    assert.ok(Math.abs(crop.width - 162) < 1e-9 && Math.abs(crop.height - 162) < 1e-9, JSON.stringify(crop));
  });

  it('moves a crop that leaves the image back inside it, keeping its size', () => {
    assert.deepEqual(padNetCrop([0, 0, 60, 60], 640, 480), { x: 0, y: 0, width: 162, height: 162 });
    const right = padNetCrop([600, 440, 40, 40], 640, 480);
    assert.ok(Math.abs(right.x + right.width - 639) < 1e-9 && Math.abs(right.y + right.height - 479) < 1e-9);
  });

  it('lowers the scale where the image is smaller than the crop', () => {
    const crop = padNetCrop([10, 10, 200, 200], 300, 400);
    assert.ok(Math.abs(crop.width - 299) < 1e-9, JSON.stringify(crop));
    assert.equal(crop.x, 0);
  });

  it('keeps a left edge of a few 1e-7 px as it is (the package read 5.6e-7 as 5 with parseInt and cut outside)', () => {
    const crop = padNetCrop([85 + 5.6e-7, 100, 100, 100], 640, 480);
    assert.ok(crop.x >= 0 && crop.x < 1e-3, `x ${crop.x}`);
  });

  it('always lies inside the image, for any box with area', () => {
    const random = seededRandom(16);
    for (let i = 0; i < 2000; i++) {
      const width = 2 + Math.floor(random() * 800);
      const height = 2 + Math.floor(random() * 800);
      const box = [
        random() * width * 1.2 - width * 0.1,
        random() * height * 1.2 - height * 0.1,
        1e-3 + random() * width,
        1e-3 + random() * height,
      ] as const;
      const crop = padNetCrop(box, width, height);
      const inside =
        crop.x >= 0 &&
        crop.y >= 0 &&
        crop.x + crop.width <= width - 1 + 1e-9 &&
        crop.y + crop.height <= height - 1 + 1e-9;
      assert.ok(inside && crop.width > 0 && crop.height > 0, `${JSON.stringify({ box, width, height, crop })}`);
    }
  });

  it('refuses a box without area', () => {
    assert.throws(() => padNetCrop([10, 10, 0, 20], 100, 100), RangeError);
  });
});

describe('padNetInput', () => {
  const uniform = (r: number, g: number, b: number) => ({
    data: Uint8Array.from({ length: 50 * 40 * 3 }, (_, i) => [r, g, b][i % 3] ?? 0),
    width: 50,
    height: 40,
  });

  it('holds the planes in B, G, R order, or R, G, B when asked', () => {
    const bgr = padNetInput(uniform(10, 20, 30), [10, 10, 10, 10]);
    assert.equal(bgr.length, 3 * PLANE);
    assert.deepEqual([bgr[0], bgr[PLANE + 77], bgr[2 * PLANE + PLANE - 1]], [30, 20, 10]);
    const rgb = padNetInput(uniform(10, 20, 30), [10, 10, 10, 10], { channels: 'rgb' });
    assert.deepEqual([rgb[5], rgb[PLANE + 5], rgb[2 * PLANE + 5]], [10, 20, 30]);
  });

  it('samples bilinearly at pixel centres, as OpenCV resizes', () => {
    // A horizontal ramp, value = x: the crop is the whole image (255 px), so pixel u reads x = (u + 0.5)·255/128 − 0.5.
    const ramp = {
      data: Uint8Array.from({ length: 256 * 256 * 3 }, (_, i) => Math.floor(i / 3) % 256),
      width: 256,
      height: 256,
    };
    const input = padNetInput(ramp, [64, 64, 128, 128]);
    for (const u of [0, 1, 50, 127]) {
      const expected = Math.max(0, ((u + 0.5) * 255) / 128 - 0.5);
      assert.ok(
        Math.abs((input[40 * 128 + u] ?? NaN) - expected) < 1e-3,
        `u ${u}: ${input[40 * 128 + u]} vs ${expected}`,
      );
    }
  });
});

/** The subject (largest) face of a frame, analysed by the test engine with the liveness measures. */
async function subject(engine: FaceEngine, frame: Buffer): Promise<AnalyzedFace> {
  const analysis = await engine.analyze(frame, { views: [], description: false }, { liveness: true });
  const [face] = [...analysis.faces].sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
  assert.ok(face, 'a face');
  return face;
}

/**
 * The frame through ink and paper, photographed again: levels compressed towards the paper's white and the ink's
 * black, saturation lowered, a fine 2-px halftone grain, slightly out of focus.
 */
async function printedCopy(frame: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const out = Buffer.alloc(data.length);
  for (let i = 0; i < data.length; i++) {
    const x = Math.floor(i / 3) % info.width;
    const y = Math.floor(i / 3 / info.width);
    const grain = ((x >> 1) + (y >> 1)) % 2 ? 6 : -6;
    out[i] = Math.max(0, Math.min(255, 35 + (data[i] ?? 0) * 0.72 + grain));
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } })
    .modulate({ saturation: 0.75 })
    .blur(1)
    .jpeg({ quality: 85 })
    .toBuffer();
}

describe('OnnxPadModel', () => {
  it('scores a face the same every time, and as the face engine does', async () => {
    const frame = await photoFrame('bella');
    const face = await subject(testFaceEngine(), frame);
    const fromEngine = face.liveness?.padNet;
    assert.ok(fromEngine, 'the engine runs the ONNX model by default');
    const model = await OnnxPadModel.load();
    const image = await decodeImage(frame);
    const first = await model.predict(image, face.box);
    assert.deepEqual(await model.predict(image, face.box), first);
    assert.deepEqual(first, fromEngine);
    const [a, b, c] = first.probabilities;
    assert.ok(Math.abs(a + b + c - 1) < 1e-6);
    assert.equal(first.pLive, first.probabilities[PAD_NET_LIVE_CLASS]);
    // Measured 0.997: a face in its own surroundings, as a camera frames it.
    assert.ok(first.pLive > 0.9, `P(live) ${first.pLive}`);
  });

  it('scores a phone-screen and a printed copy of a frame lower than the frame (not always below a threshold)', async () => {
    const engine = testFaceEngine();
    for (const person of ['anna', 'bella', 'carla'] as const) {
      const frame = await photoFrame(person);
      const original = (await subject(engine, frame)).liveness?.padNet?.pLive ?? NaN;
      for (const [attack, bytes] of [
        ['phone screen', await onPhoneScreen(frame)],
        ['printed', await printedCopy(frame)],
      ] as const) {
        const copy = (await subject(engine, bytes)).liveness?.padNet?.pLive ?? NaN;
        assert.ok(copy < original, `${person} ${attack}: ${copy} against ${original}`);
      }
    }
  });
});

describe('the face engine and the PAD model setting', () => {
  it('runs the ONNX model for padModel onnx (the default) and not for handmade', async () => {
    const frame = await photoFrame('anna');
    const handmade = FaceEngine.start({ workers: 1, padModel: 'handmade' });
    try {
      const face = await subject(handmade, frame);
      assert.ok(face.liveness, 'liveness measures');
      assert.equal(face.liveness.padNet, undefined);
      assert.equal((face.liveness.padFeatures?.length ?? 0) > 0, true);
    } finally {
      await handmade.close();
    }
    assert.ok((await subject(testFaceEngine(), frame)).liveness?.padNet);
  });
});
