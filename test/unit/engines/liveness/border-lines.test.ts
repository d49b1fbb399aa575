import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { framingPlane, framingSides } from '../../../../src/engines/liveness/border-lines.js';
import { lumaPlane } from '../../../../src/engines/liveness/luma.js';
import type { RgbImage } from '../../../../src/engines/face/raster.js';

const W = 480;
const H = 640;
const FACE: [number, number, number, number] = [165, 220, 150, 170];

/** A grey frame with a face-coloured blob, optionally inside a dark bezel 50 px out from the face. */
function frame(bezelSides: ReadonlyArray<'top' | 'bottom' | 'left' | 'right'>): RgbImage {
  const data = new Uint8Array(W * H * 3).fill(128);
  const paint = (x0: number, y0: number, x1: number, y1: number, v: [number, number, number]) => {
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) data.set(v, (y * W + x) * 3);
  };
  const [x, y, w, h] = FACE;
  const [l, t, r, b] = [x - 50, y - 60, x + w + 50, y + h + 90];
  if (bezelSides.includes('top')) paint(l, t - 14, r, t, [10, 10, 10]);
  if (bezelSides.includes('bottom')) paint(l, b, r, b + 14, [10, 10, 10]);
  if (bezelSides.includes('left')) paint(l - 14, t, l, b, [10, 10, 10]);
  if (bezelSides.includes('right')) paint(r, t, r + 14, b, [10, 10, 10]);
  paint(x, y, x + w, y + h, [200, 150, 130]);
  return { data, width: W, height: H };
}

describe('framing edges', () => {
  it('counts the sides of a bezel around the face', () => {
    const sides = (image: RgbImage) => framingSides(framingPlane(lumaPlane(image)), image.width, FACE);
    assert.equal(sides(frame(['top', 'bottom', 'left', 'right'])), 4);
    assert.equal(sides(frame(['top', 'left'])), 2);
    assert.equal(sides(frame([])), 0);
  });
});
