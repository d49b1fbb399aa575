import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LumaWindow } from '../../../../src/engines/liveness/luma-window.js';
import {
  applyAffine,
  composeAffine,
  fitAffine,
  IDENTITY,
  invertAffine,
  registerWindows,
} from '../../../../src/engines/liveness/window-registration.js';
import { texture } from '../../../helpers/luma-scenes.js';

/** A 96×96 window of a texture moved by (dx, dy) (and scaled about the window centre), at frame (left, top). */
function window(dx: number, dy: number, left: number, top: number, scale = 1, seed = 3): LumaWindow {
  const t = texture(seed);
  const size = 96;
  const centre = left + size / 2;
  const data = new Float32Array(size * size);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++)
      data[y * size + x] = t((left + x - centre) / scale + centre - dx, (top + y - centre) / scale + centre - dy);
  return { data, width: size, height: size, left, top, scale: 1 };
}

describe('window registration', () => {
  it('recovers a sub-pixel shift from a start 2 px off, with the residual near zero', () => {
    const reference = window(0, 0, 40, 40);
    const moving = window(0.4, -0.7, 42, 39);
    const r = registerWindows(reference, moving, [1, 0, 2, 0, 1, 1]);
    assert.ok(r);
    const [x, y] = applyAffine(r.warp, 80, 80);
    assert.ok(Math.abs(x - 80.4) < 0.02 && Math.abs(y - 79.3) < 0.02, `${x}, ${y}`);
    assert.ok(r.rms < 0.5, `rms ${r.rms}`);
    assert.ok(r.overlap > 0.9);
  });

  it('recovers a scale change and a brightness change', () => {
    const reference = window(0, 0, 40, 40);
    const moving = window(0, 0, 40, 40, 1.02);
    const brighter = { ...moving, data: moving.data.map((v) => 1.1 * v + 5) };
    const r = registerWindows(reference, brighter, IDENTITY);
    assert.ok(r);
    assert.ok(Math.abs(r.warp[0] - 1.02) < 0.002 && Math.abs(r.warp[4] - 1.02) < 0.002, String(r.warp));
    assert.ok(Math.abs(r.gain - 1.1) < 0.01 && Math.abs(r.bias - 5) < 1.5, `${r.gain} ${r.bias}`);
  });

  it('gives up on a flat window', () => {
    const flat: LumaWindow = {
      data: new Float32Array(96 * 96).fill(100),
      width: 96,
      height: 96,
      left: 0,
      top: 0,
      scale: 1,
    };
    assert.equal(registerWindows(flat, flat, IDENTITY), undefined);
  });

  it('fits, composes and inverts affine maps', () => {
    const from = [
      [0, 0],
      [10, 0],
      [0, 10],
      [7, 3],
    ] as const;
    const map = [1.1, 0.1, 3, -0.1, 0.9, -2] as const;
    const fitted = fitAffine(
      from,
      from.map(([x, y]) => applyAffine(map, x, y)),
    );
    fitted.forEach((v, i) => assert.ok(Math.abs(v - (map[i] ?? 0)) < 1e-9));
    const round = composeAffine(invertAffine(map), map);
    round.forEach((v, i) => assert.ok(Math.abs(v - (IDENTITY[i] ?? 0)) < 1e-12));
    assert.throws(() => fitAffine(from.slice(0, 2), from.slice(0, 2)), RangeError);
  });
});
