import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { planarMotionStatus } from '../../../../src/engines/liveness/scene-parallax.js';
import { sequenceMotion, type PairMotion } from '../../../../src/engines/liveness/sequence-motion.js';
import { motionFrame, type SceneMotion } from '../../../helpers/luma-scenes.js';

const sequence = (motions: ReadonlyArray<Omit<SceneMotion, 'noise'>>) =>
  sequenceMotion(motions.map((m, i) => motionFrame({ ...m, noise: 1 }, i + 1)));

describe('planar motion', () => {
  it('passes a face moving against the background', () => {
    const pairs = sequence([
      { background: [0, 0], face: [0, 0] },
      { background: [0.5, 0.2], face: [2, -1] },
      { background: [1, 0.3], face: [3.5, -1.5] },
    ]);
    for (const p of pairs) assert.ok(p.disparity !== undefined && p.disparity > 1, `${p.disparity}`);
    assert.equal(planarMotionStatus(pairs), 'PASS');
  });

  it('fails face and background moving as one picture', () => {
    const pairs = sequence([
      { background: [0, 0], face: [0, 0] },
      { background: [2, -1], face: [2, -1] },
      { background: [4.5, -1.5], face: [4.5, -1.5] },
    ]);
    for (const p of pairs) assert.ok(p.disparity !== undefined && p.disparity < 0.2, `${p.disparity}`);
    assert.equal(planarMotionStatus(pairs), 'FAIL');
  });

  it('cannot tell when nothing moved or the background could not be followed', () => {
    const still = sequence([
      { background: [0, 0], face: [0, 0] },
      { background: [0.1, 0], face: [0.1, 0] },
    ]);
    assert.equal(planarMotionStatus(still), 'ERROR');
    const unknown: PairMotion = {
      face: undefined,
      noise: undefined,
      floor: 1,
      background: undefined,
      disparity: undefined,
      backgroundMotion: undefined,
    };
    assert.equal(planarMotionStatus([unknown]), 'ERROR');
    assert.equal(planarMotionStatus([]), 'ERROR');
  });
});
