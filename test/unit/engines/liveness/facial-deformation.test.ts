import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { facialDeformation, facialDeformationStatus } from '../../../../src/engines/liveness/facial-deformation.js';

type Point = readonly [number, number];

/** A 468-point mesh with the landmarks the measures read placed on a frontal face 60 px between the eyes. */
function mesh(options: { eyesOpen?: number; mouthOpen?: number } = {}): Point[] {
  const open = options.eyesOpen ?? 1;
  const points: Point[] = Array.from({ length: 468 }, () => [0, 0] as const);
  const eye = (corners: [number, number], lids: Array<[number, number]>, cx: number) => {
    points[corners[0]] = [cx - 15, 100];
    points[corners[1]] = [cx + 15, 100];
    lids.forEach(([upper, lower], k) => {
      const x = cx - 6 + 6 * k;
      points[upper] = [x, 100 - 5 * open];
      points[lower] = [x, 100 + 4];
    });
  };
  eye(
    [33, 133],
    [
      [160, 144],
      [159, 145],
      [158, 153],
    ],
    70,
  );
  eye(
    [362, 263],
    [
      [387, 373],
      [386, 374],
      [385, 380],
    ],
    130,
  );
  points[61] = [80, 170];
  points[291] = [120, 170];
  points[13] = [100, 168];
  points[14] = [100, 170 + 12 * (options.mouthOpen ?? 0)];
  points[1] = [100, 140];
  points[152] = [100, 200 + 10 * (options.mouthOpen ?? 0)];
  return points;
}

/** The mesh turned, scaled and moved as a picture is, with a little landmark jitter. */
function moved(points: readonly Point[], degrees: number, scale: number, jitter: number, seed: number): Point[] {
  const t = (degrees * Math.PI) / 180;
  return points.map(([x, y], i) => {
    const wobble = jitter * Math.sin(seed * 7.1 + i * 1.3);
    return [
      scale * (Math.cos(t) * x - Math.sin(t) * y) + 12 + wobble,
      scale * (Math.sin(t) * x + Math.cos(t) * y) - 5 - wobble,
    ];
  });
}

describe('facial deformation', () => {
  it('stays under the still jitter for a picture shifted, turned and scaled', () => {
    const face = mesh();
    const frames = [face, moved(face, 2, 1.03, 0.3, 1), moved(face, -1.5, 0.98, 0.3, 2)];
    const deformation = facialDeformation(frames);
    assert.ok(deformation !== undefined && deformation < 1, `${deformation}`);
    assert.equal(facialDeformationStatus(deformation), 'FAIL');
  });

  it('sees a blink and an opening mouth', () => {
    const blink = facialDeformation([mesh(), mesh({ eyesOpen: 0.2 }), mesh()]);
    assert.ok(blink !== undefined && blink > 1, `${blink}`);
    const mouth = facialDeformation([mesh(), mesh({ mouthOpen: 1 })]);
    assert.ok(mouth !== undefined && mouth > 1, `${mouth}`);
    assert.equal(facialDeformationStatus(mouth), 'PASS');
  });

  it('cannot tell from fewer than two meshes', () => {
    assert.equal(facialDeformation([mesh()]), undefined);
    assert.equal(facialDeformation([mesh(), []]), undefined);
    assert.equal(facialDeformationStatus(undefined), 'ERROR');
  });
});
