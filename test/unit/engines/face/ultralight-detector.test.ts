import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { BlazeFaceDetector, DEFAULT_BLAZEFACE_OPTIONS } from '../../../../src/engines/face/blazeface-detector.js';
import { DEFAULT_PIPELINE_CONFIG, FacePipeline, PLAIN_VIEW } from '../../../../src/engines/face/face-pipeline.js';
import { decodeImage } from '../../../../src/engines/face/image-decoding.js';
import { OnnxFaceDetector } from '../../../../src/engines/face/onnx-face-detector.js';
import type { RgbImage } from '../../../../src/engines/face/raster.js';
import {
  decodeUltraLight,
  DEFAULT_ULTRALIGHT_OPTIONS,
  ULTRALIGHT_PRIORS,
  ultraLightInput,
  ultraLightMeshCrop,
  ultraLightPlacement,
  UltraLightDetector,
} from '../../../../src/engines/face/ultralight-detector.js';
import { dot } from '../../../../src/lib/vectors.js';
import { onCanvas, portrait } from '../../../helpers/faces.js';

const OPTIONS = { maxFaces: 5, minConfidence: 0.3, iris: false, description: false };

/** Model outputs with every prior background but the given ones: [prior, face probability, x1, y1, x2, y2 shares]. */
function outputs(faces: ReadonlyArray<readonly [number, number, number, number, number, number]>) {
  const scores = new Float32Array(ULTRALIGHT_PRIORS * 2);
  const boxes = new Float32Array(ULTRALIGHT_PRIORS * 4);
  for (let i = 0; i < ULTRALIGHT_PRIORS; i++) scores.set([1, 0], i * 2);
  for (const [i, p, ...corners] of faces) {
    scores.set([1 - p, p], i * 2);
    boxes.set(corners, i * 4);
  }
  return { scores, boxes };
}

describe('Ultra-Light decoding', () => {
  it('letterboxes the image into 320×240, its aspect kept, centred', () => {
    assert.deepEqual(ultraLightPlacement({ width: 150, height: 150 }), { scale: 1.6, left: 40, top: 0 });
    assert.deepEqual(ultraLightPlacement({ width: 640, height: 120 }), { scale: 0.5, left: 0, top: 90 });
    // A white 1×1 image fills the middle 240×240 of the input (1.0), the border stays 0 (grey 127); a
    // white 4×1 one the middle 320×80.
    const white = (width: number): RgbImage => ({ data: new Uint8Array(width * 3).fill(255), width, height: 1 });
    const square = ultraLightInput(white(1));
    assert.equal(square.length, 3 * 240 * 320);
    const at = (input: Float32Array, channel: number, x: number, y: number) => input[channel * 240 * 320 + y * 320 + x];
    assert.deepEqual(
      [at(square, 0, 40, 0), at(square, 2, 279, 239), at(square, 1, 39, 120), at(square, 1, 280, 120)],
      [1, 1, 0, 0],
    );
    const wide = ultraLightInput(white(4));
    assert.deepEqual(
      [at(wide, 0, 0, 80), at(wide, 0, 319, 159), at(wide, 0, 160, 79), at(wide, 0, 160, 160)],
      [1, 1, 0, 0],
    );
  });

  it('keeps faces over the score floor, the best of overlapping boxes, and maps corners back to the image', () => {
    const { scores, boxes } = outputs([
      [10, 0.9, 0.25, 0.25, 0.5, 0.75],
      [11, 0.95, 0.26, 0.25, 0.51, 0.75], // overlaps prior 10 and scores higher: it stays, 10 goes
      [20, 0.8, 0.6, 0.1, 0.7, 0.3],
      [30, 0.7, 0.8, 0.8, 0.9, 0.9], // at the floor (0.7): dropped
    ]);
    // A 150×150 image lies at x 40..280 of the input, scale 1.6.
    const faces = decodeUltraLight(scores, boxes, { width: 150, height: 150 }, DEFAULT_ULTRALIGHT_OPTIONS);
    assert.equal(faces.length, 2);
    const [first, second] = faces;
    assert.ok(first && second);
    assert.ok(Math.abs(first.score - 0.95) < 1e-6 && Math.abs(second.score - 0.8) < 1e-6);
    const close = (a: number, b: number) => Math.abs(a - b) < 1e-3;
    assert.ok(
      close(first.x1, (0.26 * 320 - 40) / 1.6) && close(first.x2, (0.51 * 320 - 40) / 1.6),
      JSON.stringify(first),
    );
    assert.ok(close(first.y1, (0.25 * 240) / 1.6) && close(first.y2, (0.75 * 240) / 1.6), JSON.stringify(first));
    assert.equal(
      decodeUltraLight(scores, boxes, { width: 150, height: 150 }, { ...DEFAULT_ULTRALIGHT_OPTIONS, maxFaces: 1 })
        .length,
      1,
    );
    assert.throws(
      () => decodeUltraLight(scores, boxes.subarray(4), { width: 1, height: 1 }, DEFAULT_ULTRALIGHT_OPTIONS),
      RangeError,
    );
  });

  it("frames FaceMesh's crop as BlazeFace's: 1.11 × the box's height, 0.095 of it lower, level", () => {
    const crop = ultraLightMeshCrop({ x1: 50, y1: 30, x2: 90, y2: 110, score: 1 });
    assert.deepEqual(crop, { start: [26, 33], end: [114, 122], roll: 0 });
  });
});

describe('the Ultra-Light detector as the ONNX detector’s fallback', () => {
  // A portrait on a tall strip (360×1400): BlazeFace reads the image stretched to 256×256, which squeezes
  // the face 3.9 times; the Ultra-Light detector reads it letterboxed, undistorted.
  let strip: RgbImage;
  before(async () => {
    strip = await decodeImage(
      await onCanvas(await portrait('anna', { width: 300 }), { width: 360, height: 1400, grey: 128 }),
    );
  });

  it('finds the face BlazeFace misses, and FaceMesh meshes it', async () => {
    const blazeFace = await BlazeFaceDetector.load(DEFAULT_BLAZEFACE_OPTIONS);
    assert.equal((await blazeFace.detect(strip)).length, 0);
    const [found, ...others] = await (await UltraLightDetector.load()).detect(strip);
    assert.ok(found && others.length === 0);
    assert.ok(found.score > 0.9);
    const faces = await (await OnnxFaceDetector.load(OPTIONS)).detect(strip);
    assert.equal(faces.length, 1);
    const [face] = faces;
    assert.ok(face && face.score > 0.9, JSON.stringify(face?.score));
    // The portrait (300×300) lies at x 30..330, y 550..850; the face in its middle.
    const [x, y, w, h] = face.box;
    assert.ok(x > 30 && x + w < 330 && y > 550 && y + h < 850 && w > 100, JSON.stringify(face.box));
  });

  it('gives the template the same portrait gives framed as usual', async () => {
    const pipeline = await FacePipeline.load({ ...DEFAULT_PIPELINE_CONFIG, detector: 'onnx' });
    const embeddings = { views: [PLAIN_VIEW], description: false };
    const [fallback] = (await pipeline.analyze(strip, embeddings)).faces;
    const usual = await decodeImage(
      await onCanvas(await portrait('anna', { width: 300 }), { width: 480, height: 640, grey: 128 }),
    );
    const [framed] = (await pipeline.analyze(usual, embeddings)).faces;
    const [a] = fallback?.recognitionViews ?? [];
    const [b] = framed?.recognitionViews ?? [];
    assert.ok(a && b);
    assert.ok(dot(a, b) > 0.98, `cosine ${dot(a, b)}`);
  });
});
