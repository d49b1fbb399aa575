import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planarResidual, type Landmark } from '../../../../src/engines/liveness/planar-motion.js';
import { seededRandom } from '../../../../src/lib/seeded-random.js';

/** A face-like 3-D point cloud: an ellipsoid cap (depth up to 0.5 eye distances) with a nose. */
function faceCloud(): Array<[number, number, number]> {
  const random = seededRandom(7);
  return Array.from({ length: 200 }, (_, i) => {
    const x = random() * 2 - 1;
    const y = random() * 2.4 - 1.2;
    const nose = i % 10 === 0 ? 0.4 : 0;
    return [x, y, 0.5 * Math.sqrt(Math.max(0, 1 - (x * x) / 1.2 - (y * y) / 2)) + nose];
  });
}

/** Perspective image of points turned by `yaw` about the vertical axis, camera 8 units away, 60 px per unit. */
function project(points: ReadonlyArray<readonly [number, number, number]>, yaw: number): Landmark[] {
  return points.map(([x, y, z]) => {
    const xr = x * Math.cos(yaw) + z * Math.sin(yaw);
    const zr = -x * Math.sin(yaw) + z * Math.cos(yaw);
    const depth = 8 - zr;
    return [320 + (480 * xr) / depth, 240 + (480 * y) / depth];
  });
}

describe('planar motion', () => {
  it('finds no parallax when a flat picture turns, and parallax when a 3-D face does', () => {
    const cloud = faceCloud();
    const flat = cloud.map(([x, y]) => [x, y, 0] as [number, number, number]);
    const turn = (15 * Math.PI) / 180;
    const flatResidual = planarResidual(project(flat, 0), project(flat, turn), 60);
    const faceResidual = planarResidual(project(cloud, 0), project(cloud, turn), 60);
    assert.ok(flatResidual < 1e-4, `flat: ${flatResidual}`);
    assert.ok(faceResidual > 0.01, `face: ${faceResidual}`);
  });

  it('needs enough landmarks', () => {
    assert.throws(() => planarResidual([[0, 0]], [[1, 1]], 60), /8 corresponding/);
  });
});
