import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FACE_ALGORITHMS } from '../../../../src/engines/face/algorithms.js';
import type { AnalyzeOptions, WorkerAnalysis } from '../../../../src/engines/face/face-analysis-types.js';
import type { FaceEngine } from '../../../../src/engines/face/face-engine.js';
import type { EmbeddingOptions } from '../../../../src/engines/face/face-pipeline.js';
import type { LivenessRequest } from '../../../../src/engines/liveness/liveness-request.js';
import {
  assessActiveLiveness,
  decideActiveLiveness,
  MIN_HEAD_TURN_DEGREES,
  MIN_TURN_PARALLAX,
  type ActiveLivenessResult,
} from '../../../../src/services/face-liveness/active-liveness.js';
import { planarResidual } from '../../../../src/engines/liveness/planar-motion.js';
import {
  context,
  face,
  frame,
  identity,
  INTER_EYE,
  livenessRequest,
  measures,
  SPOOF_PAD,
  thumbnail,
} from '../../../helpers/liveness-inputs.js';

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/**
 * Face-mesh landmarks of a head turned by `yaw` and `pitch` (radians): a 10×10 grid on an ellipsoid
 * cap with a nose, in perspective, 60 px per unit, camera 8 units away. `flat` squashes the head onto
 * a plane: a photo turned in front of the camera.
 */
function headMesh(yaw: number, pitch: number, flat = false): Array<[number, number, number]> {
  const points: Array<[number, number, number]> = [];
  for (let row = 0; row < 10; row++) {
    for (let col = 0; col < 10; col++) {
      const x = (col / 9) * 2 - 1;
      const y = (row / 9) * 2.4 - 1.2;
      const nose = Math.abs(x) < 0.25 && Math.abs(y) < 0.3 ? 0.4 : 0;
      const z = flat ? 0 : 0.6 * Math.sqrt(Math.max(0, 1 - (x * x) / 1.2 - (y * y) / 2)) + nose;
      const x1 = x * Math.cos(yaw) + z * Math.sin(yaw);
      const z1 = -x * Math.sin(yaw) + z * Math.cos(yaw);
      const y2 = y * Math.cos(pitch) - z1 * Math.sin(pitch);
      const z2 = y * Math.sin(pitch) + z1 * Math.cos(pitch);
      const depth = 8 - z2;
      points.push([240 + (480 * x1) / depth, 320 + (480 * y2) / depth, z2]);
    }
  }
  return points;
}

interface Pose {
  /** Pose the detector reports, degrees. */
  readonly yaw?: number;
  readonly pitch?: number;
  /** Turn the landmarks show, degrees (the reported pose by default). */
  readonly meshYaw?: number;
  readonly meshPitch?: number;
  readonly flat?: boolean;
  /** Identity angle of the face (0 = the passive frames' person). */
  readonly person?: number;
}

let scene = 0;
/** An analysed frame of a head in this pose; every frame's picture differs from every other's. */
function posed(pose: Pose): WorkerAnalysis {
  scene += 7;
  const { yaw = 0, pitch = 0, person = 0 } = pose;
  const mesh = headMesh(radians(pose.meshYaw ?? yaw), radians(pose.meshPitch ?? pitch), pose.flat);
  const liveness = measures({ faceThumbnail: thumbnail(scene % 256) });
  return frame(
    [face({ vector: identity(person), yaw: radians(yaw), pitch: radians(pitch), mesh, liveness })],
    scene % 256,
  );
}

const passiveFrames = () => [posed({}), posed({ yaw: 1 }), posed({ yaw: -1 })];
const right = (...poses: Pose[]) => poses.map((p) => posed(p));
const passiveRequest = livenessRequest('hotel4', 3);
const rightRequest = livenessRequest('active_right', 2);
const upRequest = livenessRequest('active_up', 2);

function decide(
  rightFrames: readonly WorkerAnalysis[],
  upFrames: readonly WorkerAnalysis[] = [posed({}), posed({ pitch: -20 })],
  passive: readonly WorkerAnalysis[] = passiveFrames(),
): ActiveLivenessResult {
  const rightOne = rightFrames.length === 2 ? rightRequest : livenessRequest('active_right', rightFrames.length);
  return decideActiveLiveness(passiveRequest, passive, [rightOne, upRequest], [rightFrames, upFrames], context());
}

/** Asserts the active part failed on the moves with this feedback, and the whole answer is SPOOF. */
function assertMoveRefused(result: ActiveLivenessResult, feedback: readonly string[]): void {
  const active = result.details.active_liveness;
  assert.deepEqual(active.feedback, feedback);
  assert.equal(active.decision, 'SPOOF');
  assert.equal(active.score, 0);
  assert.equal(active.decision_info.PAD.status, 'FAIL');
  assert.equal(result.decision, 'SPOOF');
  assert.equal(result.score, 0);
  assert.deepEqual(result.feedback, feedback);
}

describe('active liveness: the synthetic head', () => {
  it('shows parallax when it turns 20° and none as a flat picture', () => {
    const turned = planarResidual(headMesh(0, 0), headMesh(radians(20), 0), INTER_EYE);
    const flat = planarResidual(headMesh(0, 0, true), headMesh(radians(20), 0, true), INTER_EYE);
    assert.ok(turned > MIN_TURN_PARALLAX * 1.5, `head: ${turned}`);
    assert.ok(flat < MIN_TURN_PARALLAX / 10, `picture: ${flat}`);
  });
});

describe('active liveness: head turns', () => {
  it('is LIVE when the passive part is live and both turns are made by a 3-D head', () => {
    const result = decide(right({}, { yaw: 20 }));
    assert.equal(result.decision, 'LIVE');
    assert.equal(result.score, 100);
    assert.deepEqual(result.feedback, []);
    assert.equal(result.score_frr, result.details.passive_liveness.score_frr);
    assert.equal(result.details.passive_liveness.decision, 'LIVE');
    const active = result.details.active_liveness;
    assert.equal(active.decision, 'LIVE');
    assert.equal(active.score, 100);
    assert.equal(active.score_frr, 0);
    assert.deepEqual(active.decision_info.PAD, {
      status: 'PASS',
      spoof_type_probability: { '2D_MASK': 0, '3D_MASK': 0, PHOTO: 0, SCREEN: 0, OTHER: 0 },
    });
    assert.equal(active.decision_info.IAD.signals.face_swap_detection.status, 'PASS');
    assert.equal(active.decision_info.IAD.signals.image_similarity_detection.status, 'PASS');
  });

  it(`needs a turn of at least MIN_HEAD_TURN_DEGREES (${MIN_HEAD_TURN_DEGREES}°) from the first frame`, () => {
    const short = decide(right({}, { yaw: MIN_HEAD_TURN_DEGREES - 0.5, meshYaw: 20 }));
    assertMoveRefused(short, ['HEAD_MOVEMENT_NOT_DETECTED']);
    assert.deepEqual(short.details.active_liveness.decision_info.PAD.spoof_type_probability, {
      '2D_MASK': 0.3333,
      '3D_MASK': 0,
      PHOTO: 0.3333,
      SCREEN: 0.3333,
      OTHER: 0,
    });
    const enough = decide(right({}, { yaw: MIN_HEAD_TURN_DEGREES, meshYaw: 20 }));
    assert.equal(enough.decision, 'LIVE');
    // Measured from the first frame, not from straight ahead.
    const fromTurned = decide(right({ yaw: 15 }, { yaw: 24, meshYaw: 35 }));
    assertMoveRefused(fromTurned, ['HEAD_MOVEMENT_NOT_DETECTED']);
  });

  it('takes the frame turned furthest from the first', () => {
    assert.equal(decide(right({}, { yaw: 20 }, { yaw: 3 })).decision, 'LIVE');
  });

  it('names a clear turn the wrong way', () => {
    assertMoveRefused(decide(right({}, { yaw: -15 })), ['WRONG_HEAD_MOVEMENT']);
    assertMoveRefused(decide(right({}, { yaw: -MIN_HEAD_TURN_DEGREES })), ['WRONG_HEAD_MOVEMENT']);
    assertMoveRefused(decide(right({}, { yaw: -5 })), ['HEAD_MOVEMENT_NOT_DETECTED']);
  });

  it('reads up and down on the pitch: up is a negative pitch change', () => {
    assert.equal(decide(right({}, { yaw: 20 }), [posed({}), posed({ pitch: -20 })]).decision, 'LIVE');
    assertMoveRefused(decide(right({}, { yaw: 20 }), [posed({}), posed({ pitch: 20 })]), ['WRONG_HEAD_MOVEMENT']);
    // A yaw turn is no answer to "up".
    assertMoveRefused(decide(right({}, { yaw: 20 }), [posed({}), posed({ yaw: 20 })]), ['HEAD_MOVEMENT_NOT_DETECTED']);
  });

  it(`refuses a turn whose landmarks move as one plane (parallax under ${MIN_TURN_PARALLAX})`, () => {
    assertMoveRefused(decide(right({ flat: true }, { yaw: 20, flat: true })), ['FLAT_HEAD_MOVEMENT']);
    // The parallax is read between the first frame and the furthest turned, not a frame in between.
    const flatMiddle = decide(right({ flat: true }, { yaw: 5, meshYaw: 30 }, { yaw: 20, flat: true }));
    assertMoveRefused(flatMiddle, ['FLAT_HEAD_MOVEMENT']);
  });

  it('cannot see a turn with fewer than two faces', () => {
    const oneFace = decide([posed({}), frame([], 3)]);
    assertMoveRefused(oneFace, ['NO_FACE_DETECTED', 'HEAD_MOVEMENT_NOT_DETECTED']);
  });
});

describe('active liveness: the passive part and the injection signals', () => {
  it('keeps a passive quality refusal (score -1) as the decision', () => {
    const noFace = [frame([], 1), frame([], 2), frame([], 3)];
    const result = decide(right({}, { yaw: 20 }), undefined, noFace);
    assert.equal(result.decision, 'UNABLE_TO_CALCULATE_LIVENESS');
    assert.equal(result.score, -1);
    assert.equal(result.details.active_liveness.decision, 'LIVE');
    assert.deepEqual(result.feedback, ['NO_FACE_DETECTED']);
  });

  it('answers SPOOF when the passive part is a presentation attack, whatever the turns', () => {
    const printed = passiveFrames().map((f, i) =>
      frame([face({ vector: identity(0), liveness: measures({ padFeatures: SPOOF_PAD }) })], 200 + i),
    );
    const result = decide(right({}, { yaw: 20 }), undefined, printed);
    assert.equal(result.details.passive_liveness.decision, 'SPOOF');
    assert.equal(result.decision, 'SPOOF');
    assert.equal(result.score, 0);
    assert.deepEqual(result.feedback, ['PRESENTATION_ATTACK_SUSPECTED']);
  });

  it('fails the active part when its frames show another person than the passive frames', () => {
    const result = decide(right({ person: 1.5 }, { yaw: 20, person: 1.5 }));
    const active = result.details.active_liveness;
    assert.equal(active.decision_info.IAD.signals.face_swap_detection.status, 'FAIL');
    assert.equal(active.decision, 'SPOOF');
    assert.equal(active.decision_info.PAD.status, 'PASS');
    assert.deepEqual(active.feedback, ['INJECTION_ATTACK_SUSPECTED']);
    assert.equal(result.decision, 'SPOOF');
  });

  it('compares the reference face with the picture of the frame it came from (passive frame 0 without a face)', () => {
    // The active frames replay one still: the picture and face of passive frame 1, unchanged.
    const still = () => frame([face({ vector: identity(0), yaw: 0, mesh: headMesh(0, 0) })], 50);
    const stillTurned = (yaw: number) =>
      frame([face({ vector: identity(0), yaw: radians(yaw), mesh: headMesh(radians(yaw), 0) })], 50);
    const actives = [still(), stillTurned(20)];
    const ups = [
      still(),
      frame([face({ vector: identity(0), pitch: radians(-20), mesh: headMesh(0, radians(-20)) })], 50),
    ];
    const noFaceFirst = [frame([], 200), still(), posed({})];
    const replayed = decide(actives, ups, noFaceFirst);
    const signals = replayed.details.active_liveness.decision_info.IAD.signals;
    // Frame 1 (the reference face's own frame) is the same picture as every active frame: a still.
    assert.equal(signals.image_similarity_detection.status, 'FAIL');
    assert.equal(signals.face_swap_detection.status, 'PASS');
    assert.equal(replayed.decision, 'SPOOF');
    assert.deepEqual(replayed.details.active_liveness.feedback, ['INJECTION_ATTACK_SUSPECTED']);
    // With a face in frame 0, frame 0 is the reference, and its picture differs from the active ones.
    const faceFirst = [posed({}), still(), posed({})];
    const fresh = decide(actives, ups, faceFirst).details.active_liveness.decision_info.IAD.signals;
    assert.equal(fresh.image_similarity_detection.status, 'PASS');
  });

  it('takes the reference frame bytes with it: a byte-identical replay of it is no motion', () => {
    const bytes = Buffer.from('the same jpeg');
    const passive = livenessRequest('hotel4', 3, { bytes: [Buffer.from('p0'), bytes, Buffer.from('p2')] });
    const replay = livenessRequest('active_right', 2, { bytes: [bytes, Buffer.from('a1')] });
    const still = frame([face({ vector: identity(0), mesh: headMesh(0, 0) })], 50);
    const turned = frame([face({ vector: identity(0), yaw: radians(20), mesh: headMesh(radians(20), 0) })], 50);
    const noFaceFirst = [frame([], 200), frame([face({ vector: identity(0), mesh: headMesh(0, 0) })], 90), posed({})];
    const result = decideActiveLiveness(passive, noFaceFirst, [replay], [[still, turned]], context()).details
      .active_liveness.decision_info.IAD.signals;
    // Reference frame 1 and the first active frame are byte-identical (skipped), the rest is one still.
    assert.equal(result.image_similarity_detection.status, 'FAIL');
  });

  it('refuses frame analyses that do not match the requests', () => {
    assert.throws(
      () => decideActiveLiveness(passiveRequest, passiveFrames(), [rightRequest, upRequest], [[]], context()),
      /2 active requests but 1 frame analyses/,
    );
    assert.throws(
      () => decideActiveLiveness(passiveRequest, passiveFrames(), [passiveRequest], [passiveFrames()], context()),
      /asks for no head move/,
    );
  });
});

describe('active liveness: assessActiveLiveness', () => {
  it('analyses every frame with F200 embeddings and liveness measures, then decides on them', async () => {
    const passiveOnes = passiveFrames();
    const rightOnes = right({}, { yaw: 20 });
    const upOnes = [posed({}), posed({ pitch: -20 })];
    const byRequest: Array<[LivenessRequest, WorkerAnalysis[]]> = [
      [passiveRequest, passiveOnes],
      [rightRequest, rightOnes],
      [upRequest, upOnes],
    ];
    const analyses = new Map<string, WorkerAnalysis>();
    for (const [request, frames] of byRequest)
      for (const [i, f] of request.frames.entries()) analyses.set(f.bytes.toString(), frames[i]!);
    const calls: Array<{ embeddings: EmbeddingOptions; options: AnalyzeOptions | undefined }> = [];
    const fake = {
      analyze(image: Uint8Array, embeddings: EmbeddingOptions, options?: AnalyzeOptions): Promise<WorkerAnalysis> {
        calls.push({ embeddings, options });
        const analysis = analyses.get(Buffer.from(image).toString());
        return analysis ? Promise.resolve(analysis) : Promise.reject(new Error('unknown frame'));
      },
    } satisfies Pick<FaceEngine, 'analyze'>;
    // FaceEngine has a private worker pool: the fake stands in for its one method the liveness code calls.
    const engine = fake as unknown as FaceEngine;

    const result = await assessActiveLiveness(engine, passiveRequest, [rightRequest, upRequest], context());
    assert.equal(result.decision, 'LIVE');
    assert.deepEqual(result, decide(rightOnes, upOnes, passiveOnes));
    assert.equal(calls.length, 7);
    for (const call of calls) {
      assert.deepEqual(call.embeddings.views, FACE_ALGORITHMS.F200.embeddings.views);
      assert.deepEqual(call.options, { liveness: true, rotation: 0 });
    }
  });
});
