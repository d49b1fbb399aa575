import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  cropTransform,
  DEFAULT_CROP_GEOMETRY,
  meanShapeTransform,
  sampleCrop,
  type FaceKeyPoints,
} from '../../../../src/engines/face/face-alignment.js';

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
});
