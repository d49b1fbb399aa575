import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { FaceDetector, type DetectedFace } from '../../../../src/engines/face/face-detector.js';
import { FaceMeshRefiner, type Mesh } from '../../../../src/engines/face/face-mesh-refiner.js';
import { decodeImage } from '../../../../src/engines/face/image-decoding.js';
import type { RgbImage } from '../../../../src/engines/face/raster.js';
import { startTfjs } from '../../../../src/engines/face/runtime/tfjs-runtime.js';
import { portrait } from '../../../helpers/faces.js';

/** Larger side of the mesh's bounding box, in pixels. */
function extent(mesh: Mesh): number {
  const xs = mesh.map((p) => p[0]);
  const ys = mesh.map((p) => p[1]);
  return Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
}

function meanDistance(a: Mesh, b: Mesh): number {
  return a.reduce((sum, p, i) => sum + Math.hypot(p[0] - b[i]![0], p[1] - b[i]![1]), 0) / a.length;
}

/** Least-squares similarity from `a` to `b` (x, y): its rotation in degrees and the RMS residual. */
function similarityFit(a: Mesh, b: Mesh): { degrees: number; residual: number } {
  const n = a.length;
  const ca = [a.reduce((s, p) => s + p[0], 0) / n, a.reduce((s, p) => s + p[1], 0) / n];
  const cb = [b.reduce((s, p) => s + p[0], 0) / n, b.reduce((s, p) => s + p[1], 0) / n];
  let sxx = 0;
  let dotSum = 0;
  let crossSum = 0;
  for (let i = 0; i < n; i++) {
    const [px, py] = [a[i]![0] - ca[0]!, a[i]![1] - ca[1]!];
    const [qx, qy] = [b[i]![0] - cb[0]!, b[i]![1] - cb[1]!];
    sxx += px * px + py * py;
    dotSum += px * qx + py * qy;
    crossSum += px * qy - py * qx;
  }
  const [k, m] = [dotSum / sxx, crossSum / sxx];
  let residual = 0;
  for (let i = 0; i < n; i++) {
    const [px, py] = [a[i]![0] - ca[0]!, a[i]![1] - ca[1]!];
    residual += (k * px - m * py + cb[0]! - b[i]![0]) ** 2 + (m * px + k * py + cb[1]! - b[i]![1]) ** 2;
  }
  return { degrees: (Math.atan2(m, k) * 180) / Math.PI, residual: Math.sqrt(residual / n) };
}

describe('FaceMesh refinement pass', () => {
  let detector: FaceDetector;
  let refiner: FaceMeshRefiner;
  const detectLargest = async (image: RgbImage): Promise<DetectedFace> => {
    const tf = await startTfjs();
    const input = tf.tensor3d(image.data, [image.height, image.width, 3], 'int32');
    try {
      const faces = await detector.detect(input);
      const face = [...faces].sort((a, b) => b.box[2] - a.box[2])[0];
      assert.ok(face, 'a face is detected');
      return face;
    } finally {
      input.dispose();
    }
  };

  before(async () => {
    [detector, refiner] = await Promise.all([
      FaceDetector.load({ maxFaces: 1, minConfidence: 0.3, iris: false, description: false }),
      FaceMeshRefiner.load(),
    ]);
  });

  it('keeps the face where the detector put it, at sub-pixel precision', async () => {
    const image = await decodeImage(await portrait('anna'));
    const face = await detectLargest(image);
    const refined = await refiner.refine(image, face);
    assert.ok(refined, 'the refined crop holds a face');
    assert.equal(refined.length, 468);
    const size = extent(face.mesh);
    assert.ok(
      meanDistance(refined, face.mesh) < 0.02 * size,
      `moved ${meanDistance(refined, face.mesh).toFixed(2)} px on a ${size} px face`,
    );
    // human's points are whole pixels; the refined ones are not.
    assert.ok(face.mesh.every((p) => Number.isInteger(p[0])));
    assert.ok(refined.filter((p) => !Number.isInteger(p[0])).length > 400);
    // z is scaled like x and y: the face's depth is a fraction of its width, not FaceMesh's 192-px units.
    const depth = Math.max(...refined.map((p) => p[2])) - Math.min(...refined.map((p) => p[2]));
    assert.ok(depth > 0.3 * size && depth < 1.2 * size, `depth ${depth.toFixed(1)} for a ${size.toFixed(1)} px face`);
  });

  it('sizes the crop from the mesh when the image edge clips the detector box (a face filling the frame)', async () => {
    const image = await decodeImage(await portrait('anna', { margin: -0.12 }));
    const face = await detectLargest(image);
    const [x, y, w, h] = face.box;
    assert.ok(
      x <= 0 || y <= 0 || x + w >= image.width - 1 || y + h >= image.height - 1,
      `box ${face.box.join(',')} in ${image.width}×${image.height}`,
    );
    const refined = await refiner.refine(image, face);
    assert.ok(refined);
    const size = extent(face.mesh);
    assert.ok(
      meanDistance(refined, face.mesh) < 0.02 * size,
      `moved ${meanDistance(refined, face.mesh).toFixed(2)} px on a ${size} px face`,
    );
  });

  it('re-locates the face from a poor seed (the crop is cut, read and mapped back correctly)', async () => {
    const image = await decodeImage(await portrait('bella'));
    const face = await detectLargest(image);
    const good = await refiner.refine(image, face);
    assert.ok(good);
    const size = extent(face.mesh);
    // A seed 8% of the face off to the right and down: the pass must find the face again.
    const shifted: Mesh = face.mesh.map(([x, y, z]) => [x + 0.08 * size, y + 0.08 * size, z]);
    const again = await refiner.refine(image, { mesh: shifted, box: face.box });
    assert.ok(again);
    assert.ok(meanDistance(shifted, good) > 0.1 * size);
    assert.ok(
      meanDistance(again, good) < 0.02 * size,
      `off by ${meanDistance(again, good).toFixed(2)} px on a ${size} px face`,
    );
  });

  it('turns a tilted face upright: a 30° turned photo gives the same mesh, turned 30°', async () => {
    const upright = await decodeImage(await portrait('carla'));
    const tilted = await decodeImage(await portrait('carla', { rotateDegrees: 30 }));
    const a = await refiner.refine(upright, await detectLargest(upright));
    const b = await refiner.refine(tilted, await detectLargest(tilted));
    assert.ok(a && b);
    const fit = similarityFit(a, b);
    assert.ok(Math.abs(fit.degrees - 30) < 1.5, `turned ${fit.degrees.toFixed(2)}°`);
    // FaceMesh's own scatter between two captures is ~1.5% of the face (human's meshes: 2.3 px on 187);
    // a crop mapped back with the wrong turn would be off by a third of the face.
    assert.ok(fit.residual < 0.025 * extent(a), `residual ${fit.residual.toFixed(2)} px`);
  });

  it('rejects a crop without a face', async () => {
    const image = await decodeImage(await portrait('anna'));
    const face = await detectLargest(image);
    const grey: RgbImage = {
      width: image.width,
      height: image.height,
      data: new Uint8Array(image.data.length).fill(128),
    };
    assert.equal(await refiner.refine(grey, face), undefined);
  });
});
