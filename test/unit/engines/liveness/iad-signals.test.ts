import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AnalyzedFace, WorkerAnalysis } from '../../../../src/engines/face/face-analysis-types.js';
import { iadSignals, type SignalInputs } from '../../../../src/engines/liveness/iad-signals.js';

const thumb = (value: number) => new Uint8Array(256).fill(value);
const frame = (value: number): WorkerAnalysis => ({
  width: 480,
  height: 640,
  decodeMs: 0,
  faces: [],
  timings: { detectMs: 0, embedMs: 0 },
  frameThumbnail: thumb(value),
});
const unit = (angle: number) => {
  const v = new Float32Array(128);
  v[0] = Math.cos(angle);
  v[1] = Math.sin(angle);
  return v;
};
const face = (vector: Float32Array) => ({ recognitionViews: [vector], mesh: [] }) as unknown as AnalyzedFace;

function inputs(overrides: Partial<SignalInputs>): SignalInputs {
  return {
    frames: [frame(100)],
    subjects: [undefined],
    frameBytes: [Buffer.from('a')],
    deviceNames: [],
    sameIdentityScore: 0.9,
    ...overrides,
  };
}

describe('injection signals', () => {
  it('image similarity: still frames fail, any motion passes, one frame cannot tell', () => {
    const still = iadSignals(
      inputs({
        frames: [frame(100), frame(100), frame(100)],
        subjects: [undefined, undefined, undefined],
        frameBytes: ['a', 'b', 'c'].map((x) => Buffer.from(x)),
      }),
      new Map(),
    );
    assert.deepEqual(still.image_similarity_detection, { status: 'FAIL', mode: 'DECISIONING' });
    const moving = iadSignals(
      inputs({
        frames: [frame(100), frame(100), frame(103)],
        subjects: [undefined, undefined, undefined],
        frameBytes: ['a', 'b', 'c'].map((x) => Buffer.from(x)),
      }),
      new Map(),
    );
    assert.equal(moving.image_similarity_detection.status, 'PASS');
    const identicalBytes = iadSignals(
      inputs({
        frames: [frame(100), frame(120)],
        subjects: [undefined, undefined],
        frameBytes: [Buffer.from('a'), Buffer.from('a')],
      }),
      new Map(),
    );
    assert.equal(identicalBytes.image_similarity_detection.status, 'FAIL');
    assert.equal(iadSignals(inputs({}), new Map()).image_similarity_detection.status, 'ERROR');
  });

  it('face swap: fails when a frame would not verify against the first', () => {
    const frames = [frame(1), frame(2), frame(3)];
    const same = iadSignals(
      inputs({
        frames,
        subjects: [face(unit(0)), face(unit(0.1)), face(unit(0.2))],
        frameBytes: frames.map((_, i) => Buffer.from([i])),
      }),
      new Map(),
    );
    assert.equal(same.face_swap_detection.status, 'PASS');
    const swapped = iadSignals(
      inputs({
        frames,
        subjects: [face(unit(0)), face(unit(1.2)), face(unit(0.1))],
        frameBytes: frames.map((_, i) => Buffer.from([i])),
      }),
      new Map(),
    );
    assert.equal(swapped.face_swap_detection.status, 'FAIL');
    assert.equal(iadSignals(inputs({}), new Map()).face_swap_detection.status, 'ERROR');
  });

  it('device names, modes and overrides', () => {
    const obs = iadSignals(
      inputs({ deviceNames: ['OBS Virtual Camera'] }),
      new Map([['virtual_camera_detection', 'REPORT_ONLY']]),
    );
    assert.deepEqual(obs.virtual_camera_detection, { status: 'FAIL', mode: 'REPORT_ONLY' });
    const phone = iadSignals(inputs({ deviceNames: ['samsung', 'SM-G991B', 'Android 14'] }), new Map());
    assert.equal(phone.virtual_camera_detection.status, 'PASS');
    assert.equal(phone.emulator_detection.status, 'PASS');
    assert.equal(
      iadSignals(inputs({ deviceNames: ['Genymotion Google Pixel'] }), new Map()).emulator_detection.status,
      'FAIL',
    );
    assert.deepEqual(phone.sensor_detection, { status: 'ERROR', mode: 'REPORT_ONLY' });
  });
});
