/**
 * The multi-frame injection signals inside the passive decision: a still moved around (no fresh sensor
 * noise) is refused in foxtrot and charlie whatever the signal's mode, reported in hotel; frames with
 * fresh noise and a head moving against the background pass (issue 16).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkerAnalysis } from '../../../../src/engines/face/face-analysis-types.js';
import { faceWindow, scenePlane } from '../../../../src/engines/liveness/luma-window.js';
import { decidePassiveLiveness } from '../../../../src/engines/liveness/passive-liveness.js';
import {
  context,
  face,
  frame,
  identity,
  livenessRequest,
  measures,
  thumbnail,
} from '../../../helpers/liveness-inputs.js';
import { motionFrame, type SceneMotion } from '../../../helpers/luma-scenes.js';

/** Analysed frames whose subject carries the windows of a synthetic scene (luma-scenes.ts) in motion. */
function framesOf(motions: ReadonlyArray<SceneMotion>): WorkerAnalysis[] {
  return motions.map((m, i) => {
    const measured = motionFrame(m, i + 1);
    const subject = measured.face;
    if (subject === undefined) throw new Error('the synthetic frame has a face');
    const analysed = face({
      vector: identity(0.05 * i),
      liveness: measures({ faceThumbnail: thumbnail(100 + 5 * i), window: subject.window }),
      mesh: subject.mesh.map(([x, y]) => [x, y, 0] as const),
    });
    return { ...frame([{ ...analysed, box: subject.box }], 100 + 5 * i), frameScene: measured.scene };
  });
}

const still = (noise: number): SceneMotion[] => [
  { background: [0, 0], face: [0, 0], noise },
  { background: [1, 0.5], face: [1, 0.5], noise },
  { background: [2, -0.5], face: [2, -0.5], noise },
];
const camera: SceneMotion[] = [
  { background: [0, 0], face: [0, 0], noise: 2 },
  { background: [0.6, 0.2], face: [2, -1], noise: 2 },
  { background: [1, 0.5], face: [3, -1.2], noise: 2 },
];

describe('multi-frame signals in the passive decision', () => {
  it('refuses a still moved around in foxtrot and charlie, whatever the mode, and reports it in hotel', () => {
    const frames = framesOf(still(0));
    const foxtrot = decidePassiveLiveness(livenessRequest('foxtrot4', 3), frames, context());
    assert.deepEqual(foxtrot.decision_info.IAD.signals.temporal_noise_analysis, {
      status: 'FAIL',
      mode: 'REPORT_ONLY',
    });
    assert.equal(foxtrot.decision_info.IAD.signals.planar_motion_detection?.status, 'FAIL');
    assert.equal(foxtrot.decision, 'SPOOF');
    assert.ok(foxtrot.feedback.includes('INJECTION_ATTACK_SUSPECTED'));
    const hotel = decidePassiveLiveness(livenessRequest('hotel4', 3), frames, context());
    assert.equal(hotel.decision_info.IAD.signals.temporal_noise_analysis?.status, 'FAIL');
    assert.equal(hotel.decision, 'LIVE');
    const deciding = decidePassiveLiveness(
      livenessRequest('hotel4', 3),
      frames,
      context(new Map([['temporal_noise_analysis', 'DECISIONING']])),
    );
    assert.equal(deciding.decision, 'SPOOF');
  });

  it('passes frames with fresh sensor noise and a head moving against the background', () => {
    const result = decidePassiveLiveness(livenessRequest('foxtrot4', 3), framesOf(camera), context());
    assert.equal(result.decision_info.IAD.signals.temporal_noise_analysis?.status, 'PASS');
    assert.equal(result.decision_info.IAD.signals.planar_motion_detection?.status, 'PASS');
    assert.equal(result.decision, 'LIVE');
  });

  it('cannot tell without the windows (ERROR), which does not refuse', () => {
    const plain = framesOf(camera).map((f) => ({
      ...f,
      frameScene: undefined,
      faces: f.faces.map((x) => ({ ...x, liveness: x.liveness && { ...x.liveness, window: undefined } })),
    }));
    const result = decidePassiveLiveness(livenessRequest('foxtrot4', 3), plain, context());
    for (const name of ['temporal_noise_analysis', 'planar_motion_detection'] as const)
      assert.equal(result.decision_info.IAD.signals[name]?.status, 'ERROR', name);
    assert.equal(result.decision, 'LIVE');
  });
});

describe('luma windows', () => {
  it('cuts the middle of the face at native resolution, clipped to the frame', () => {
    const luma = { data: Float32Array.from({ length: 200 * 100 }, (_, i) => i), width: 200, height: 100 };
    const w = faceWindow(luma, [50, 10, 100, 100]);
    assert.deepEqual([w.width, w.height, w.left, w.top, w.scale], [70, 70, 65, 25, 1]);
    assert.equal(w.data[0], 25 * 200 + 65);
    const edge = faceWindow(luma, [160, 60, 80, 80]);
    assert.equal(edge.left + edge.width, 200);
    assert.equal(edge.top + edge.height, 100);
  });

  it('marks pixels with a clipped colour channel white or black, so the noise measures leave them out', () => {
    const luma = { data: new Float32Array(100 * 100).fill(120), width: 100, height: 100 };
    const rgb = { data: new Uint8Array(100 * 100 * 3).fill(120), width: 100, height: 100 };
    rgb.data[(50 * 100 + 50) * 3] = 255; // red clipped in a skin highlight, luma still mid-grey
    rgb.data[(50 * 100 + 51) * 3 + 2] = 0;
    const w = faceWindow(luma, [10, 10, 80, 80], rgb);
    const at = (x: number, y: number) => w.data[(y - w.top) * w.width + (x - w.left)];
    assert.deepEqual([at(50, 50), at(51, 50), at(52, 50)], [255, 0, 120]);
  });

  it('reduces the whole frame by a whole factor, each pixel the mean of the frame pixels it covers', () => {
    const luma = { data: Float32Array.from({ length: 480 * 640 }, (_, i) => i % 480), width: 480, height: 640 };
    const plane = scenePlane(luma);
    assert.deepEqual([plane.width, plane.height, plane.scale, plane.left], [120, 160, 4, 1.5]);
    assert.equal(plane.data[1], 5.5); // columns 4..7
  });
});
