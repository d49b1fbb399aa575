import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LEFT_EYE, RIGHT_EYE } from '../../../../src/engines/face/face-alignment.js';
import type { FaceObservation } from '../../../../src/engines/face/face-pipeline.js';
import {
  DEFAULT_SUBJECT_RULES,
  dominantFace,
  isSubjectContender,
  prominenceOf,
  rankSubjectCandidates,
  selectSubjectFace,
  SIZE_FLOOR_EVIDENCE,
} from '../../../../src/engines/face/face-selection.js';

/** A 640×480 photo: its diagonal is 800 px, so 40 px off the centre costs 0.3 × 0.1 = 0.03 of prominence. */
const IMAGE = { width: 640, height: 480 };

/**
 * A face of box width `width` centred at (cx, cy), eyes 0.3 × width apart in the image; `eyeDepth`: how
 * much nearer the camera (in FaceMesh's 192-px crop units, as the detector gives z) the right eye is than
 * the left, as when the head is turned.
 */
function face(spec: {
  cx?: number;
  cy?: number;
  width: number;
  score?: number;
  eyeGap?: number;
  eyeDepth?: number;
}): FaceObservation {
  const { cx = 320, cy = 240, width, score = 0.95, eyeDepth = 0 } = spec;
  const eyeGap = spec.eyeGap ?? 0.3 * width;
  const mesh = Array.from({ length: 468 }, (): readonly [number, number, number] => [cx, cy, 0]);
  for (const i of RIGHT_EYE) mesh[i] = [cx - eyeGap / 2, cy, -eyeDepth / 2];
  for (const i of LEFT_EYE) mesh[i] = [cx + eyeGap / 2, cy, eyeDepth / 2];
  return {
    box: [cx - width / 2, cy - width / 2, width, width],
    score,
    pose: { yaw: 0, pitch: 0, roll: 0 },
    keyPoints: { rightEye: [cx - eyeGap / 2, cy], leftEye: [cx + eyeGap / 2, cy], mouth: [cx, cy + eyeGap] },
    mesh,
    recognitionViews: [],
    description: undefined,
  };
}

function chosen(faces: readonly FaceObservation[]): FaceObservation {
  const subject = selectSubjectFace(faces, IMAGE);
  assert.ok(subject.ok, subject.ok ? '' : subject.message);
  return subject.face;
}

describe('the subject rule: the dominant face', () => {
  it('takes the only face', () => {
    const only = face({ width: 200 });
    assert.equal(chosen([only]), only);
  });

  it('ignores a smaller face behind the subject, even a large one at the side (0.75 of its width)', () => {
    const subject = face({ width: 200 });
    const behind = face({ cx: 560, cy: 150, width: 150 });
    assert.equal(chosen([behind, subject]), subject);
    assert.ok(!isSubjectContender(behind, 200));
  });

  it('prefers, among faces of near-equal width, the one nearer the centre, even when slightly smaller', () => {
    const central = face({ width: 180 });
    const atTheSide = face({ cx: 540, width: 200 });
    assert.ok(isSubjectContender(central, 200));
    assert.equal(chosen([atTheSide, central]), central);
  });

  it('takes the more central of two equal faces when the difference is clear', () => {
    const nearer = face({ cx: 240, width: 120 });
    const farther = face({ cx: 520, width: 120 });
    assert.equal(chosen([farther, nearer]), nearer);
  });

  it('lets the detection score decide between two equal, equally central faces', () => {
    const sure = face({ cx: 200, width: 120, score: 0.99 });
    const unsure = face({ cx: 440, width: 120, score: 0.6 });
    assert.equal(chosen([unsure, sure]), sure);
  });

  it('refuses two faces of near-equal size and centrality as ambiguous, saying so', () => {
    const left = face({ cx: 200, width: 120 });
    const right = face({ cx: 440, width: 118 });
    const subject = selectSubjectFace([left, right], IMAGE);
    assert.ok(!subject.ok && subject.reason === 'ambiguous-faces');
    assert.match(subject.message, /^2 faces of near-equal size and nearness to the centre/);
    // A third face in the background does not change that, nor is it counted.
    const three = selectSubjectFace([left, right, face({ cx: 600, cy: 60, width: 40 })], IMAGE);
    assert.ok(!three.ok && /^2 faces/.test(three.message));
  });

  it('is ambiguous only within the margin: 40 px more off-centre than the other is 0.03 of prominence', () => {
    const centred = face({ width: 100, score: 1 });
    assert.ok(Math.abs(prominenceOf(centred, 100, IMAGE) - 1) < 1e-12);
    const nearly = prominenceOf(face({ cx: 320 + 39, width: 100, score: 1 }), 100, IMAGE);
    const clearly = prominenceOf(face({ cx: 320 + 41, width: 100, score: 1 }), 100, IMAGE);
    assert.ok(
      1 - nearly < DEFAULT_SUBJECT_RULES.ambiguityMargin && 1 - clearly > DEFAULT_SUBJECT_RULES.ambiguityMargin,
    );
    assert.equal(rankSubjectCandidates([centred, face({ cx: 359, width: 100, score: 1 })], IMAGE).tied, 2);
    assert.equal(rankSubjectCandidates([centred, face({ cx: 361, width: 100, score: 1 })], IMAGE).tied, 1);
  });

  it('refuses an image without a face', () => {
    assert.deepEqual(selectSubjectFace([], IMAGE), {
      ok: false,
      reason: 'no-face',
      message: 'no face found in the image',
    });
  });

  it('refuses a subject under the size floor with the measured reason, and measures what it accepts', () => {
    const floor = DEFAULT_SUBJECT_RULES.minInterEyePixels;
    const small = selectSubjectFace([face({ width: 60, eyeGap: floor - 1 })], IMAGE);
    assert.ok(!small.ok && small.reason === 'face-too-small');
    assert.match(
      small.message,
      new RegExp(
        `${floor - 1} pixels between the eyes \\(a turned head counted as if it faced the camera\\), at least ${floor} needed`,
      ),
    );
    assert.match(small.message, new RegExp(`with ${SIZE_FLOOR_EVIDENCE.belowPixels} px between the eyes F500 misses`));
    const atFloor = selectSubjectFace([face({ width: 60, eyeGap: floor })], IMAGE);
    assert.ok(atFloor.ok && atFloor.interEyePixels === floor);
    // Without a floor (liveness), a small face is still the subject.
    assert.ok(
      selectSubjectFace([face({ width: 60, eyeGap: 8 })], IMAGE, { ...DEFAULT_SUBJECT_RULES, minInterEyePixels: 0 }).ok,
    );
  });

  it('measures a turned head between the eyes in 3-D: 12 px apart in the image, 20 px as if facing the camera', () => {
    // As a dev-set photo of a head turned 0.7 rad: 12.1 px between the eyes in the image, 22.3 in 3-D.
    // A 76-px box: its 192-px mesh crop makes a depth of 16 / (76 / 192) = 40.4 crop units 16 image pixels.
    const turned = face({ width: 76, eyeGap: 12, eyeDepth: 16 / (76 / 192) });
    const subject = selectSubjectFace([turned], IMAGE);
    assert.ok(subject.ok, subject.ok ? '' : subject.message);
    assert.ok(Math.abs(subject.interEyePixels - 20) < 1e-9);
    // The same eyes without depth (a frontal face that small) stay under the floor.
    const frontal = selectSubjectFace([face({ width: 76, eyeGap: 12 })], IMAGE);
    assert.ok(!frontal.ok && frontal.reason === 'face-too-small');
    // The depth is scaled by the box's larger side (a box clipped on one side by the image edge keeps the other).
    const clipped = selectSubjectFace([{ ...turned, box: [0, 202, 40, 76] as const }], IMAGE);
    assert.ok(clipped.ok && Math.abs(clipped.interEyePixels - 20) < 1e-9);
  });

  it('reads the key points in the image when the mesh has no eye contours (a hand-built face), never throws', () => {
    const partial = { ...face({ width: 76, eyeGap: 24 }), mesh: [[0, 0, 0] as const] };
    const subject = selectSubjectFace([partial], IMAGE);
    assert.ok(subject.ok && Math.abs(subject.interEyePixels - 24) < 1e-9);
  });
});

describe('the dominant face of face analysis', () => {
  it("is the subject rule's choice, whatever the mode, when the rule finds one", () => {
    const central = face({ width: 180, score: 0.8 });
    const atTheSide = face({ cx: 540, width: 200, score: 0.99 });
    assert.equal(dominantFace([atTheSide, central], IMAGE, 'size'), central);
    assert.equal(dominantFace([atTheSide, central], IMAGE, 'score'), central);
  });

  it('breaks a tie by box size or by detection score as the mode says, instead of refusing', () => {
    const wider = face({ cx: 200, width: 122, score: 0.9 });
    const surer = face({ cx: 440, width: 120, score: 0.95 });
    assert.equal(rankSubjectCandidates([wider, surer], IMAGE).tied, 2);
    assert.equal(dominantFace([surer, wider], IMAGE, 'size'), wider);
    assert.equal(dominantFace([wider, surer], IMAGE, 'score'), surer);
    assert.equal(dominantFace([], IMAGE, 'size'), undefined);
  });
});
