import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cropTransform,
  DEFAULT_CROP_GEOMETRY,
  meanShapeTransform,
  sampleCrop,
  sampleRegion,
  type CropTransform,
  type FaceKeyPoints,
} from '../../../../src/engines/face/face-alignment.js';
import type { RgbImage } from '../../../../src/engines/face/raster.js';

/**
 * The sampler's definition, written plainly: each crop pixel averages k×k bilinear samples of the image
 * at a·u − b·v + tx, b·u + a·v + ty, positions clamped into the image (edge pixels repeat).
 */
function referenceSample(
  image: RgbImage,
  t: Omit<CropTransform, 'size'>,
  width: number,
  height: number,
  mirrored: boolean,
  k: number,
): number[] {
  const at = (x: number, y: number, c: number) => image.data[(y * image.width + x) * 3 + c]!;
  const out: number[] = [];
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const sums = [0, 0, 0];
      for (let j = 0; j < k; j++) {
        for (let i = 0; i < k; i++) {
          const su = (mirrored ? width - 1 - u : u) + (i + 0.5) / k - 0.5;
          const sv = v + (j + 0.5) / k - 0.5;
          const x = Math.min(Math.max(t.a * su - t.b * sv + t.tx, 0), image.width - 1);
          const y = Math.min(Math.max(t.b * su + t.a * sv + t.ty, 0), image.height - 1);
          const [x0, y0] = [Math.floor(x), Math.floor(y)];
          const [x1, y1] = [Math.min(x0 + 1, image.width - 1), Math.min(y0 + 1, image.height - 1)];
          const [fx, fy] = [x - x0, y - y0];
          for (let c = 0; c < 3; c++) {
            const top = at(x0, y0, c) * (1 - fx) + at(x1, y0, c) * fx;
            const bottom = at(x0, y1, c) * (1 - fx) + at(x1, y1, c) * fx;
            sums[c]! += top * (1 - fy) + bottom * fy;
          }
        }
      }
      out.push(...sums.map((sum) => sum / (k * k)));
    }
  }
  return out;
}

/** Where a crop pixel lands in the image. */
function toImage(t: ReturnType<typeof cropTransform>, u: number, v: number): [number, number] {
  return [t.a * u - t.b * v + t.tx, t.b * u + t.a * v + t.ty];
}

const LEVEL_ALWAYS = { ...DEFAULT_CROP_GEOMETRY, levelAboveDegrees: 0 };

describe('face alignment', () => {
  it('puts the eyes level at the chosen height and the mouth at the chosen distance, whatever the tilt', () => {
    for (const angle of [0, 0.3, -0.5]) {
      const c = Math.cos(angle);
      const s = Math.sin(angle);
      const at = (x: number, y: number): [number, number] => [200 + c * x - s * y, 150 + s * x + c * y];
      const points: FaceKeyPoints = { rightEye: at(-30, 0), leftEye: at(30, 0), mouth: at(0, 70) };
      const t = cropTransform(points, 150, LEVEL_ALWAYS);
      const eyes = toImage(t, 75, DEFAULT_CROP_GEOMETRY.eyeY * 150);
      assert.ok(Math.hypot(eyes[0] - 200, eyes[1] - 150) < 1e-6, 'eye midpoint maps to the crop position');
      const mouth = toImage(t, 75, (DEFAULT_CROP_GEOMETRY.eyeY + DEFAULT_CROP_GEOMETRY.eyeToMouth) * 150);
      assert.ok(
        Math.hypot(mouth[0] - points.mouth[0], mouth[1] - points.mouth[1]) < 1e-6,
        'mouth maps to its crop position',
      );
    }
  });

  it('rotates by the tilt beyond a 10 degree dead zone', () => {
    const tilted = (degrees: number): FaceKeyPoints => {
      const r = (degrees * Math.PI) / 180;
      return {
        rightEye: [200 - 30 * Math.cos(r), 150 - 30 * Math.sin(r)],
        leftEye: [200 + 30 * Math.cos(r), 150 + 30 * Math.sin(r)],
        mouth: [200, 220],
      };
    };
    const rotation = (t: ReturnType<typeof cropTransform>) => (Math.atan2(t.b, t.a) * 180) / Math.PI;
    assert.equal(rotation(cropTransform(tilted(6), 150)), 0);
    assert.ok(Math.abs(rotation(cropTransform(tilted(25), 150)) - 15) < 1e-9);
    assert.ok(Math.abs(rotation(cropTransform(tilted(-25), 150)) + 15) < 1e-9);
    assert.ok(Math.abs(rotation(cropTransform(tilted(6), 150, LEVEL_ALWAYS)) - 6) < 1e-9);
  });

  it('fits the mean-shape chip so that it moves with the face (a similarity of the mesh moves the crop alike)', () => {
    let seed = 3;
    const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    // A face-like cloud: the 468 points scattered around a 100-px face at (200, 150).
    const mesh = Array.from({ length: 468 }, () => [150 + 100 * random(), 100 + 100 * random(), 0] as const);
    const angle = (25 * Math.PI) / 180;
    const [scale, dx, dy] = [1.7, 40, -20];
    const move = ([x, y]: readonly number[]): [number, number] => [
      scale * (Math.cos(angle) * x! - Math.sin(angle) * y!) + dx,
      scale * (Math.sin(angle) * x! + Math.cos(angle) * y!) + dy,
    ];
    const moved = mesh.map((p) => [...move(p), 0] as const);
    const always = { padding: 0.25, levelAboveDegrees: 0 };
    const before = meanShapeTransform(mesh, 150, always);
    const after = meanShapeTransform(moved, 150, always);
    for (const [u, v] of [
      [0, 0],
      [75, 46],
      [150, 150],
    ] as const) {
      const expected = move(toImage(before, u, v));
      const got = toImage(after, u, v);
      assert.ok(Math.hypot(got[0] - expected[0], got[1] - expected[1]) < 1e-6, `crop (${u}, ${v})`);
    }
    // More padding: the same face, smaller in the crop.
    const padded = meanShapeTransform(moved, 150, { padding: 0.5, levelAboveDegrees: 0 });
    assert.ok(Math.hypot(padded.a, padded.b) > Math.hypot(after.a, after.b));
    // A 10° dead zone turns the crop 10° less.
    const tilt = (t: ReturnType<typeof cropTransform>): number => (Math.atan2(t.b, t.a) * 180) / Math.PI;
    const deadZone = meanShapeTransform(moved, 150, { padding: 0.25, levelAboveDegrees: 10 });
    assert.ok(Math.abs(tilt(after)) > 10, `fitted tilt ${tilt(after)}`);
    assert.ok(Math.abs(Math.abs(tilt(deadZone)) - (Math.abs(tilt(after)) - 10)) < 1e-9);
  });

  it('samples bilinearly and mirrors', () => {
    // A 4x1 image with red increasing left to right.
    const image = { width: 4, height: 1, data: Uint8Array.from([0, 0, 0, 100, 0, 0, 200, 0, 0, 250, 0, 0]) };
    const identity = { size: 2, a: 1.5, b: 0, tx: 0, ty: 0 };
    const crop = sampleCrop(image, identity);
    assert.deepEqual([crop[0], crop[3]], [0, 150]);
    const mirrored = sampleCrop(image, identity, true);
    assert.deepEqual([mirrored[0], mirrored[3]], [150, 0]);
  });

  it('samples as its plain definition: turned, scaled, clamped at the edges, mirrored and supersampled', () => {
    let seed = 11;
    const random = (): number => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    const image = { width: 37, height: 23, data: Uint8Array.from({ length: 37 * 23 * 3 }, () => random() * 256) };
    const transforms = [
      { a: 0.9, b: 0.2, tx: 5.3, ty: 2.7 },
      // Partly outside the image (clamped), turned the other way, enlarged.
      { a: 1.7, b: -0.6, tx: -6.2, ty: 9.1 },
      // Axis-aligned, landing on whole pixels up to the last row and column.
      { a: 1, b: 0, tx: 0, ty: 0 },
    ];
    for (const t of transforms) {
      for (const [width, height, mirrored, k] of [
        [40, 24, false, 1],
        [17, 29, true, 1],
        [12, 9, false, 3],
        [11, 8, true, 2],
      ] as const) {
        const got = sampleRegion(image, t, width, height, mirrored, k);
        const expected = referenceSample(image, t, width, height, mirrored, k);
        assert.equal(got.length, expected.length);
        const worst = Math.max(...expected.map((value, i) => Math.abs(value - got[i]!)));
        assert.ok(worst < 1e-3, `${JSON.stringify(t)} ${width}×${height} k=${k}: off by ${worst}`);
      }
    }
  });
});
