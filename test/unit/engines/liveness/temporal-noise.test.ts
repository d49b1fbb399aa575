import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { lumaQuantisation } from '../../../../src/engines/liveness/jpeg-quantisation.js';
import { sequenceMotion } from '../../../../src/engines/liveness/sequence-motion.js';
import {
  MIN_FLOOR,
  NOISE_MARGIN,
  reencodingFloor,
  temporalNoiseStatus,
} from '../../../../src/engines/liveness/temporal-noise.js';
import { motionFrame } from '../../../helpers/luma-scenes.js';

const jpegTable = async (quality: number) =>
  lumaQuantisation(
    await sharp(Buffer.alloc(32 * 32 * 3, 128), { raw: { width: 32, height: 32, channels: 3 } })
      .jpeg({ quality })
      .toBuffer(),
  );

describe('temporal noise', () => {
  it('reads the per-frame noise of frames with fresh noise, and none from a still moved around', () => {
    const moves = [
      [0, 0],
      [1.3, -0.6],
      [2.1, 0.4],
    ] as const;
    const noisy = sequenceMotion(
      moves.map(([dx, dy], i) => motionFrame({ background: [dx, dy], face: [dx, dy], noise: 2 }, i + 1)),
    );
    for (const pair of noisy) assert.ok(pair.noise !== undefined && Math.abs(pair.noise - 2) < 0.25, `${pair.noise}`);
    const still = sequenceMotion(
      moves.map(([dx, dy], i) => motionFrame({ background: [dx, dy], face: [dx, dy], noise: 0 }, i + 1)),
    );
    for (const pair of still) assert.ok(pair.noise !== undefined && pair.noise < 0.2, `${pair.noise}`);
  });

  it('sets the floor from what re-encoding the face window with its own JPEG table changes', async () => {
    const window = motionFrame({ background: [0, 0], face: [0, 0], noise: 2 }, 1).face!.window;
    const q95 = reencodingFloor(window, await jpegTable(95));
    const q90 = reencodingFloor(window, await jpegTable(90));
    const q70 = reencodingFloor(window, await jpegTable(70));
    assert.ok(MIN_FLOOR < q90 && q95 < q90 && q90 < q70, `${q95} ${q90} ${q70}`);
    assert.equal(reencodingFloor(window, undefined), MIN_FLOOR); // a lossless frame
  });

  it('fails when any pair holds less noise than the margin over the floor; cannot tell with no pair measured', () => {
    const floor = 1;
    assert.equal(
      temporalNoiseStatus([
        { noise: 1.8, floor },
        { noise: 1.7, floor },
      ]),
      'PASS',
    );
    assert.equal(
      temporalNoiseStatus([
        { noise: 1.8, floor },
        { noise: NOISE_MARGIN * floor - 0.01, floor },
      ]),
      'FAIL',
    );
    assert.equal(
      temporalNoiseStatus([
        { noise: undefined, floor },
        { noise: 0, floor },
      ]),
      'FAIL',
    );
    assert.equal(temporalNoiseStatus([{ noise: undefined, floor }]), 'ERROR');
    assert.equal(temporalNoiseStatus([]), 'ERROR');
  });
});

describe('JPEG quantisation table', () => {
  it('reads the luminance table of a JPEG, nothing from a PNG or a truncated file', async () => {
    const q90 = await jpegTable(90);
    assert.equal(q90?.length, 64);
    assert.equal(q90?.[0], 3); // the DC step at quality 90: 16 × 0.2
    const png = await sharp(Buffer.alloc(8 * 8 * 3), { raw: { width: 8, height: 8, channels: 3 } })
      .png()
      .toBuffer();
    assert.equal(lumaQuantisation(png), undefined);
    assert.equal(lumaQuantisation(Uint8Array.of(0xff, 0xd8, 0xff, 0xdb, 0x00)), undefined);
  });
});
