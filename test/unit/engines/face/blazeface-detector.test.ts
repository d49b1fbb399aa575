import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import {
  blazeFaceAnchors,
  decodeBlazeFace,
  nonMaxSuppression,
  DEFAULT_BLAZEFACE_OPTIONS,
} from '../../../../src/engines/face/blazeface-detector.js';
import { FaceDetector, type DetectedFace } from '../../../../src/engines/face/face-detector.js';
import { DEFAULT_PIPELINE_CONFIG, FacePipeline, PLAIN_VIEW } from '../../../../src/engines/face/face-pipeline.js';
import { decodeImage } from '../../../../src/engines/face/image-decoding.js';
import { OnnxDetectorOptionError, OnnxFaceDetector } from '../../../../src/engines/face/onnx-face-detector.js';
import type { RgbImage } from '../../../../src/engines/face/raster.js';
import { startTfjs } from '../../../../src/engines/face/runtime/tfjs-runtime.js';
import { portrait } from '../../../helpers/faces.js';

const require = createRequire(import.meta.url);
/** face-api's demo photos: groups of 3 to 5 people, faces turned and tilted. */
const DEMO = join(dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');
const PHOTOS = ['sample1.jpg', 'sample2.jpg', 'sample3.jpg', 'sample4.jpg', 'sample5.jpg', 'sample6.jpg'];
const OPTIONS = { maxFaces: 5, minConfidence: 0.3, iris: false, description: false };

async function photo(file: string, width: number): Promise<RgbImage> {
  return decodeImage(await sharp(join(DEMO, file)).resize({ width }).jpeg().toBuffer());
}

function meanDistance(a: DetectedFace['mesh'], b: DetectedFace['mesh']): number {
  return a.reduce((sum, p, i) => sum + Math.hypot(p[0] - b[i]![0], p[1] - b[i]![1]), 0) / a.length;
}

describe('BlazeFace decoding', () => {
  it('lays out 896 anchors: 16×16 cells of stride 16 twice, then 8×8 of stride 32 six times', () => {
    const anchors = blazeFaceAnchors(256);
    assert.equal(anchors.length / 2, 896);
    assert.deepEqual([...anchors.slice(0, 6)], [8, 8, 8, 8, 24, 8]);
    assert.deepEqual([...anchors.slice(512 * 2, 512 * 2 + 2)], [16, 16]);
    assert.deepEqual([...anchors.slice(-2)], [240, 240]);
  });

  it('keeps the best of overlapping boxes and drops scores under the floor', () => {
    const boxes = Float32Array.from([0, 0, 10, 10, 1, 1, 11, 11, 50, 50, 60, 60, 80, 80, 90, 90]);
    const scores = Float32Array.from([0.8, 0.9, 0.7, 0.25]);
    assert.deepEqual(nonMaxSuppression(boxes, scores, { maxFaces: 5, minConfidence: 0.3, iouThreshold: 0.1 }), [1, 2]);
    assert.deepEqual(nonMaxSuppression(boxes, scores, { maxFaces: 1, minConfidence: 0.3, iouThreshold: 0.1 }), [1]);
  });

  it('decodes a box about its anchor, enlarges and squares it, and reads the roll of the mouth-to-nose line', () => {
    const anchors = blazeFaceAnchors(256);
    const raw = new Float32Array(896 * 17).fill(-10);
    const i = 600; // an anchor of the stride-32 layer
    const [ax, ay] = [anchors[i * 2]!, anchors[i * 2 + 1]!];
    // logit, centre offset (2, -4), size 40×20, key points: nose (0, 0), mouth (10, 10) from the anchor.
    raw.set([3, 2, -4, 40, 20, 0, 0, 0, 0, 0, 0, 10, 10, 0, 0, 0, 0], i * 17);
    const [face, ...rest] = decodeBlazeFace(raw, anchors, { width: 512, height: 256 }, DEFAULT_BLAZEFACE_OPTIONS);
    assert.equal(rest.length, 0);
    assert.ok(face);
    assert.ok(Math.abs(face.score - 1 / (1 + Math.exp(-3))) < 1e-6);
    const [cx, cy] = [(ax + 2) * 2, ay - 4];
    // 40 × 2 (image is twice as wide) × 1.4 = 112 wide, 20 × 1.4 = 28 high, squared to 112.
    assert.deepEqual(face.size, [112, 28]);
    assert.deepEqual(face.start, [Math.round(cx - 56), Math.round(cy - 56)]);
    assert.deepEqual(face.end, [Math.round(cx + 56), Math.round(cy + 56)]);
    assert.deepEqual(face.keyPoints[2], [ax * 2, ay]);
    // Mouth at (+20, +10) from the nose in image pixels (x doubled): human's roll of the mouth-to-nose line.
    assert.ok(Math.abs(face.roll - (Math.PI / 2 - Math.atan2(10, -20))) < 1e-6);
  });
});

describe('ONNX face detector against the TF.js one', () => {
  let tfjs: FaceDetector;
  let onnx: OnnxFaceDetector;
  let tf: Awaited<ReturnType<typeof startTfjs>>;

  before(async () => {
    tf = await startTfjs();
    [tfjs, onnx] = await Promise.all([FaceDetector.load(OPTIONS), OnnxFaceDetector.load(OPTIONS)]);
  });

  for (const width of [640, 1200]) {
    it(`finds the same faces, boxes, scores, meshes and poses in face-api's demo photos at ${width} px`, async () => {
      let faces = 0;
      for (const file of PHOTOS) {
        const image = await photo(file, width);
        const input = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
        const expected = await tfjs.detect(input).finally(() => input.dispose());
        const actual = await onnx.detect(image);
        assert.equal(actual.length, expected.length, `${file}: face count`);
        expected.forEach((want, k) => {
          const got = actual[k]!;
          const where = `${file} face ${k}`;
          const slack = Math.max(2, 0.01 * want.box[2]);
          want.box.forEach((v, j) =>
            assert.ok(
              Math.abs(got.box[j]! - v) <= slack,
              `${where}: box ${got.box.join(',')} vs ${want.box.join(',')}`,
            ),
          );
          assert.ok(Math.abs(got.score - want.score) <= 0.01, `${where}: score ${got.score} vs ${want.score}`);
          assert.equal(got.mesh.length, 468);
          const distance = meanDistance(got.mesh, want.mesh);
          assert.ok(distance <= 1, `${where}: mesh ${distance.toFixed(2)} px apart`);
          for (const axis of ['yaw', 'pitch', 'roll'] as const) {
            assert.ok(Math.abs(got.pose[axis] - want.pose[axis]) <= 0.02, `${where}: ${axis}`);
          }
          faces++;
        });
      }
      assert.ok(faces >= 20, `only ${faces} faces compared`);
    });
  }

  it('finds no face in a plain gradient', async () => {
    const width = 320;
    const height = 240;
    const data = new Uint8Array(width * height * 3);
    for (let i = 0; i < width * height; i++) data.fill(Math.round(((i % width) / width) * 255), i * 3, i * 3 + 3);
    assert.deepEqual(await onnx.detect({ data, width, height }), []);
  });

  it('meshes a face whose crop runs off the image the same after other images (zeros outside, not the last crop)', async () => {
    // The portrait cut so the face is at the top-left corner: its mesh crop reaches past both edges.
    const cut = await sharp(await portrait('anna', { width: 400 }))
      .extract({ left: 120, top: 120, width: 280, height: 280 })
      .jpeg()
      .toBuffer();
    const edge = await decodeImage(cut);
    const other = await decodeImage(await portrait('carla', { margin: 0.6, width: 480 }));
    const detector = await OnnxFaceDetector.load(OPTIONS);
    const first = await detector.detect(edge);
    assert.ok(first.length >= 1);
    await detector.detect(other);
    assert.deepEqual(await detector.detect(edge), first);
  });

  it('refuses iris and description, which only the TF.js detector has', async () => {
    await assert.rejects(OnnxFaceDetector.load({ ...OPTIONS, iris: true }), OnnxDetectorOptionError);
    await assert.rejects(OnnxFaceDetector.load({ ...OPTIONS, description: true }), OnnxDetectorOptionError);
  });
});

describe('face pipeline with the ONNX detector', () => {
  it('gives the same face and recognition embedding as with the TF.js detector', async () => {
    const image = await decodeImage(await portrait('anna'));
    const [tfjs, onnx] = await Promise.all([
      FacePipeline.load({ ...DEFAULT_PIPELINE_CONFIG, detector: 'tfjs' }),
      FacePipeline.load({ ...DEFAULT_PIPELINE_CONFIG, detector: 'onnx' }),
    ]);
    const want = await tfjs.analyze(image, { views: [PLAIN_VIEW], description: false });
    const got = await onnx.analyze(image, { views: [PLAIN_VIEW], description: false });
    assert.equal(got.faces.length, 1);
    assert.equal(want.faces.length, 1);
    const [a, b] = [want.faces[0]!.recognitionViews[0]!, got.faces[0]!.recognitionViews[0]!];
    const cosine = a.reduce((sum, v, i) => sum + v * b[i]!, 0);
    assert.ok(cosine > 0.999, `cosine ${cosine}`);
  });
});
