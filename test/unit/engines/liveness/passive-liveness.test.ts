import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WorkerAnalysis } from '../../../../src/engines/face/face-analysis-types.js';
import type { FaceFrameMeasures } from '../../../../src/engines/liveness/frame-measures.js';
import type { Rgb } from '../../../../src/engines/liveness/light-trace.js';
import {
  levelThreshold,
  padCalibration,
  padThreshold,
  scoreFrr,
} from '../../../../src/engines/liveness/pad-calibration.js';
import { padScore } from '../../../../src/engines/liveness/pad-classifier.js';
import {
  decidePassiveLiveness,
  QUALITY_GATES,
  type LivenessResult,
} from '../../../../src/engines/liveness/passive-liveness.js';
import { TARGET_BPCER_BY_LEVEL } from '../../../../src/engines/liveness/workflows.js';
import {
  context,
  face,
  frame,
  identity,
  LIVE_PAD,
  livenessRequest,
  measures,
  NOW,
  padFeaturesScoring,
  SPOOF_PAD,
  thumbnail,
  type RequestSpec,
} from '../../../helpers/liveness-inputs.js';

/** Frames of one person moving a little: each frame and face thumbnail differs from the one before. */
function liveFrames(count: number, liveness: (i: number) => Partial<FaceFrameMeasures> = () => ({})): WorkerAnalysis[] {
  return Array.from({ length: count }, (_, i) =>
    frame(
      [
        face({
          vector: identity(0.05 * i),
          liveness: measures({ faceThumbnail: thumbnail(100 + 5 * i), ...liveness(i) }),
        }),
      ],
      100 + 5 * i,
    ),
  );
}

/** Frames showing one picture: identical thumbnails (the bytes still differ: re-encoded). */
function stillFrames(count: number): WorkerAnalysis[] {
  return Array.from({ length: count }, () => frame([face({ vector: identity(0) })], 100));
}

function decide(
  workflow: string,
  frames: readonly WorkerAnalysis[],
  spec: RequestSpec = {},
  modes: ReadonlyMap<string, 'DECISIONING' | 'REPORT_ONLY'> = new Map(),
): LivenessResult {
  return decidePassiveLiveness(livenessRequest(workflow, frames.length, spec), frames, context(modes));
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** What every quality or timing refusal answers besides its decision and feedback. */
function assertRefusal(result: LivenessResult, decision: string, feedback: readonly string[]): void {
  assert.equal(result.decision, decision);
  assert.deepEqual(result.feedback, feedback);
  assert.equal(result.score, -1);
  assert.equal(result.score_frr, 0);
  assert.deepEqual(result.decision_info.PAD, {
    status: 'ERROR',
    spoof_type_probability: { '2D_MASK': 0, '3D_MASK': 0, PHOTO: 0, SCREEN: 0, OTHER: 0 },
  });
}

describe('passive liveness: a live sequence', () => {
  it('is LIVE with score 100, PAD PASS, no feedback and the score_frr of its mean P(live)', () => {
    const result = decide('foxtrot4', liveFrames(3));
    const pLive = padScore(LIVE_PAD);
    assert.equal(result.decision, 'LIVE');
    assert.equal(result.score, 100);
    assert.deepEqual(result.feedback, []);
    assert.equal(result.score_frr, round(scoreFrr(pLive, padCalibration('handmade'))));
    assert.equal(result.decision_info.PAD.status, 'PASS');
    const attack = round((1 - pLive) / 3);
    assert.deepEqual(result.decision_info.PAD.spoof_type_probability, {
      '2D_MASK': attack,
      '3D_MASK': 0,
      PHOTO: attack,
      SCREEN: attack,
      OTHER: 0,
    });
    const { signals } = result.decision_info.IAD;
    assert.equal(signals.image_similarity_detection.status, 'PASS');
    assert.equal(signals.face_swap_detection.status, 'PASS');
  });
});

describe('passive liveness: gate order', () => {
  it('refuses a package older than the age limit before anything else, even with no face', () => {
    const noFaces = [frame([], 100), frame([], 110), frame([], 120)];
    const old = decide('foxtrot4', noFaces, { packageTimestamp: NOW - 60_001 });
    assertRefusal(old, 'TIMESTAMP_TOO_OLD', ['NO_FACE_DETECTED']);
    assert.equal(decide('foxtrot4', liveFrames(3), { packageTimestamp: NOW - 60_000 }).decision, 'LIVE');
  });

  it('refuses a package from beyond the allowed clock skew', () => {
    const future = decide('hotel4', liveFrames(1), { packageTimestamp: NOW + 5_001 });
    assertRefusal(future, 'TIMESTAMP_IN_FUTURE', []);
    assert.equal(decide('hotel4', liveFrames(1), { packageTimestamp: NOW + 5_000 }).decision, 'LIVE');
  });

  it('cannot calculate liveness without a usable face, saying why per frame', () => {
    assertRefusal(decide('hotel4', [frame([], 100)]), 'UNABLE_TO_CALCULATE_LIVENESS', ['NO_FACE_DETECTED']);
    const twoPeople = frame([face({ vector: identity(0) }), face({ vector: identity(1) })], 100);
    assertRefusal(decide('hotel4', [twoPeople]), 'UNABLE_TO_CALCULATE_LIVENESS', ['MULTIPLE_FACES_DETECTED']);
    // Below the detection confidence floor of the request (0.3): not a face for liveness.
    const faint = frame([face({ vector: identity(0), score: 0.2 })], 100);
    assertRefusal(decide('hotel4', [faint]), 'UNABLE_TO_CALCULATE_LIVENESS', ['NO_FACE_DETECTED']);
    // A face the worker did not measure for liveness counts as none.
    const { liveness: _liveness, ...unmeasured } = face({ vector: identity(0) });
    assertRefusal(decide('hotel4', [frame([unmeasured], 100)]), 'UNABLE_TO_CALCULATE_LIVENESS', []);
  });

  it('refuses a face too far away before judging light or blur, on the largest face of the sequence', () => {
    const poor = { interEyePixels: 30, dynamicRange: 20, sharpness: 0.5 };
    assertRefusal(
      decide(
        'foxtrot4',
        liveFrames(3, () => poor),
      ),
      'FACE_TOO_LOW_RESOLUTION',
      ['FACE_TOO_FAR'],
    );
    const justBelow = liveFrames(3, () => ({ interEyePixels: QUALITY_GATES.minInterEyePixels - 0.5 }));
    assertRefusal(decide('foxtrot4', justBelow), 'FACE_TOO_LOW_RESOLUTION', ['FACE_TOO_FAR']);
    const oneClose = liveFrames(3, (i) => ({ interEyePixels: i === 2 ? QUALITY_GATES.minInterEyePixels : 30 }));
    assert.equal(decide('foxtrot4', oneClose).decision, 'LIVE');
  });

  it('refuses a flat face before judging blur, naming dark or bright light by the median brightness', () => {
    const blurredDark = { dynamicRange: 30, brightness: 60, sharpness: 0.5 };
    const dark = decide(
      'foxtrot4',
      liveFrames(3, () => blurredDark),
    );
    assertRefusal(dark, 'TOO_LOW_FACIAL_DYNAMIC_RANGE', ['INSUFFICIENT_LIGHTING']);
    const washedOut = decide(
      'foxtrot4',
      liveFrames(3, () => ({ dynamicRange: 30, brightness: 128 })),
    );
    assertRefusal(washedOut, 'TOO_LOW_FACIAL_DYNAMIC_RANGE', ['LIGHT_TOO_BRIGHT']);
  });

  it('reads the dynamic range as the median over the frames', () => {
    const ranges = (values: readonly number[]) => liveFrames(3, (i) => ({ dynamicRange: values[i] ?? 0 }));
    assert.equal(
      decide('foxtrot4', ranges([20, QUALITY_GATES.minDynamicRange, 20])).decision,
      'TOO_LOW_FACIAL_DYNAMIC_RANGE',
    );
    assert.equal(decide('foxtrot4', ranges([20, QUALITY_GATES.minDynamicRange, 70])).decision, 'LIVE');
  });

  it('refuses a blurred face before the PAD classifier, on the median sharpness', () => {
    const blurredSpoof = () => ({ padFeatures: SPOOF_PAD, sharpness: 1.1 });
    assertRefusal(decide('foxtrot4', liveFrames(3, blurredSpoof)), 'TOO_BLURRY', ['TOO_MUCH_BLUR']);
    const sharpness = (values: readonly number[]) => liveFrames(3, (i) => ({ sharpness: values[i] ?? 0 }));
    assert.equal(decide('foxtrot4', sharpness([0.5, QUALITY_GATES.minSharpness, 2])).decision, 'LIVE');
    assert.equal(decide('foxtrot4', sharpness([0.5, 1.1, 2])).decision, 'TOO_BLURRY');
  });
});

describe('passive liveness: presentation attacks', () => {
  it('answers SPOOF with PAD FAIL and the attack split over the 2-D types', () => {
    const result = decide(
      'foxtrot4',
      liveFrames(3, () => ({ padFeatures: SPOOF_PAD })),
    );
    const pLive = padScore(SPOOF_PAD);
    assert.equal(result.decision, 'SPOOF');
    assert.equal(result.score, 0);
    assert.deepEqual(result.feedback, ['PRESENTATION_ATTACK_SUSPECTED']);
    assert.equal(result.score_frr, round(scoreFrr(pLive, padCalibration('handmade'))));
    assert.equal(result.decision_info.PAD.status, 'FAIL');
    assert.equal(result.decision_info.PAD.spoof_type_probability.PHOTO, round((1 - pLive) / 3));
  });

  it('averages P(live) over the frames', () => {
    const mixed = liveFrames(3, (i) => ({ padFeatures: i === 0 ? LIVE_PAD : SPOOF_PAD }));
    assert.equal(decide('foxtrot4', mixed).decision_info.PAD.status, 'FAIL');
  });

  it('judges P(live) at the threshold of the security level, digit or override', () => {
    const level2 = padThreshold(TARGET_BPCER_BY_LEVEL[1]!, padCalibration('handmade'));
    const level6 = padThreshold(TARGET_BPCER_BY_LEVEL[5]!, padCalibration('handmade'));
    assert.ok(level2 < level6, `${level2} < ${level6}`);
    const between = liveFrames(1, () => ({ padFeatures: padFeaturesScoring((level2 + level6) / 2) }));
    assert.equal(decide('hotel2', between).decision, 'LIVE');
    assert.equal(decide('hotel6', between).decision, 'SPOOF');
    assert.equal(decide('hotel2', between, { securityLevel: 6 }).decision, 'SPOOF');
  });
});

describe('passive liveness: the PAD model of the context', () => {
  /** The ONNX model's output for a face it gives P(live) `pLive`. */
  const padNet = (pLive: number) => ({ padNet: { probabilities: [pLive, 1 - pLive, 0] as const, pLive } });
  const withModel = (frames: readonly WorkerAnalysis[], model: 'onnx' | 'handmade', workflow = 'foxtrot4') =>
    decidePassiveLiveness(livenessRequest(workflow, frames.length), frames, context(new Map(), model));

  it('decides on the ONNX model’s P(live) with the onnx setting, on the hand-made features with handmade', () => {
    // Features the hand-made classifier calls live, an ONNX output that calls them an attack, and the reverse.
    const onnxSaysSpoof = liveFrames(3, () => ({ padFeatures: LIVE_PAD, ...padNet(0.01) }));
    const onnxSaysLive = liveFrames(3, () => ({ padFeatures: SPOOF_PAD, ...padNet(0.99) }));
    assert.equal(withModel(onnxSaysSpoof, 'onnx').decision, 'SPOOF');
    assert.equal(withModel(onnxSaysSpoof, 'handmade').decision, 'LIVE');
    const live = withModel(onnxSaysLive, 'onnx');
    assert.equal(live.decision, 'LIVE');
    assert.equal(live.score_frr, round(scoreFrr(0.99, padCalibration('onnx'))));
    assert.equal(withModel(onnxSaysLive, 'handmade').decision, 'SPOOF');
  });

  it('judges the ONNX P(live) at the ONNX model’s thresholds of the level', () => {
    const onnx = padCalibration('onnx');
    const [level2, level6] = [levelThreshold(2, onnx), levelThreshold(6, onnx)];
    assert.ok(level2 < level6, `${level2} < ${level6}`);
    const between = liveFrames(1, () => padNet((level2 + level6) / 2));
    assert.equal(withModel(between, 'onnx', 'hotel2').decision, 'LIVE');
    assert.equal(withModel(between, 'onnx', 'hotel6').decision, 'SPOOF');
  });

  it('refuses to decide with the ONNX model on frames the face engine did not score with it', () => {
    assert.throws(() => withModel(liveFrames(1), 'onnx', 'hotel4'), /did not run the ONNX PAD model/);
  });
});

describe('passive liveness: injection signals', () => {
  it('answers SPOOF when a DECISIONING signal fails, even with PAD passing', () => {
    const result = decide('hotel4', liveFrames(1), { deviceNames: ['OBS Virtual Camera'] });
    assert.equal(result.decision, 'SPOOF');
    assert.equal(result.score, 0);
    assert.deepEqual(result.feedback, ['INJECTION_ATTACK_SUSPECTED']);
    assert.equal(result.decision_info.PAD.status, 'PASS');
    assert.deepEqual(result.decision_info.IAD.signals.virtual_camera_detection, {
      status: 'FAIL',
      mode: 'DECISIONING',
    });
  });

  it('names both attacks when PAD and a signal fail', () => {
    const both = decide(
      'hotel4',
      liveFrames(1, () => ({ padFeatures: SPOOF_PAD })),
      { deviceNames: ['bluestacks'] },
    );
    assert.equal(both.decision, 'SPOOF');
    assert.deepEqual(both.feedback, ['PRESENTATION_ATTACK_SUSPECTED', 'INJECTION_ATTACK_SUSPECTED']);
  });

  it('reports a REPORT_ONLY failure without deciding on it; the configured modes switch either way', () => {
    const framed = liveFrames(1, () => ({ framingSides: 4 }));
    const reported = decide('hotel4', framed);
    assert.equal(reported.decision, 'LIVE');
    assert.deepEqual(reported.decision_info.IAD.signals.suspicious_border_detection, {
      status: 'FAIL',
      mode: 'REPORT_ONLY',
    });
    const decisioning = new Map([['suspicious_border_detection', 'DECISIONING' as const]]);
    assert.equal(decide('hotel4', framed, {}, decisioning).decision, 'SPOOF');
    const reportOnly = new Map([['virtual_camera_detection', 'REPORT_ONLY' as const]]);
    assert.equal(decide('hotel4', liveFrames(1), { deviceNames: ['ManyCam'] }, reportOnly).decision, 'LIVE');
  });

  it('does not count a DECISIONING signal that could not be computed (ERROR) against hotel', () => {
    const single = decide('hotel4', liveFrames(1));
    assert.equal(single.decision_info.IAD.signals.image_similarity_detection.status, 'ERROR');
    assert.equal(single.decision_info.IAD.signals.face_swap_detection.status, 'ERROR');
    assert.equal(single.decision, 'LIVE');
  });
});

describe('passive liveness: foxtrot must pass the multi-frame signals', () => {
  const reportOnly = new Map([
    ['image_similarity_detection', 'REPORT_ONLY' as const],
    ['face_swap_detection', 'REPORT_ONLY' as const],
  ]);

  it('fails a still sequence on image similarity even when that signal is configured REPORT_ONLY', () => {
    const foxtrot = decide('foxtrot4', stillFrames(3), {}, reportOnly);
    assert.equal(foxtrot.decision_info.IAD.signals.image_similarity_detection.status, 'FAIL');
    assert.equal(foxtrot.decision, 'SPOOF');
    assert.deepEqual(foxtrot.feedback, ['INJECTION_ATTACK_SUSPECTED']);
    assert.equal(decide('hotel4', stillFrames(3), {}, reportOnly).decision, 'LIVE');
  });

  it('fails a face swap even when that signal is configured REPORT_ONLY', () => {
    const swapped = liveFrames(3);
    swapped[2] = frame([face({ vector: identity(1.5), liveness: measures({ faceThumbnail: thumbnail(20) }) })], 20);
    const foxtrot = decide('foxtrot4', swapped, {}, reportOnly);
    assert.equal(foxtrot.decision_info.IAD.signals.face_swap_detection.status, 'FAIL');
    assert.equal(foxtrot.decision, 'SPOOF');
    assert.equal(decide('hotel4', swapped, {}, reportOnly).decision, 'LIVE');
  });

  it('fails when a must-pass signal cannot be computed (ERROR), where hotel passes', () => {
    // Faces too small for an embedding: nothing to compare identities with.
    const noEmbeddings = Array.from({ length: 3 }, (_, i) =>
      frame([face({ liveness: measures({ faceThumbnail: thumbnail(100 + 5 * i) }) })], 100 + 5 * i),
    );
    const foxtrot = decide('foxtrot4', noEmbeddings);
    assert.equal(foxtrot.decision_info.IAD.signals.face_swap_detection.status, 'ERROR');
    assert.equal(foxtrot.decision, 'SPOOF');
    assert.deepEqual(foxtrot.feedback, ['INJECTION_ATTACK_SUSPECTED']);
    assert.equal(decide('hotel4', noEmbeddings).decision, 'LIVE');
  });
});

describe('passive liveness: charlie decides on the light trace', () => {
  const screens: Rgb[] = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
  ];
  /** Face colours under each screen colour: following it, or following the next one (a replay). */
  const following: Rgb[] = [
    [200, 140, 120],
    [180, 160, 120],
    [180, 140, 140],
  ];
  const notFollowing: Rgb[] = [following[1]!, following[2]!, following[0]!];
  const constant: Rgb[] = [following[0]!, following[0]!, following[0]!];
  const colouredFrames = (colours: readonly Rgb[]) => liveFrames(3, (i) => ({ meanRgb: colours[i]! }));
  const charlie = (colours: readonly Rgb[], spec: RequestSpec = {}) =>
    decide('charlie4', colouredFrames(colours), { screenColours: screens, ...spec });

  it('is LIVE when the face follows the screen and SPOOF when it does not, though optical_analysis is REPORT_ONLY', () => {
    const live = charlie(following);
    assert.deepEqual(live.decision_info.IAD.signals.optical_analysis, { status: 'PASS', mode: 'REPORT_ONLY' });
    assert.equal(live.decision, 'LIVE');
    const replay = charlie(notFollowing);
    assert.equal(replay.decision_info.IAD.signals.optical_analysis.status, 'FAIL');
    assert.equal(replay.decision, 'SPOOF');
    assert.deepEqual(replay.feedback, ['INJECTION_ATTACK_SUSPECTED']);
  });

  it('does not decide on an inconclusive trace, unless the mode is STRICT', () => {
    const normal = charlie(constant);
    assert.equal(normal.decision_info.IAD.signals.optical_analysis.status, 'ERROR');
    assert.equal(normal.decision, 'LIVE');
    const strict = charlie(constant, { lightTraceMode: 'STRICT' });
    assert.equal(strict.decision_info.IAD.signals.optical_analysis.status, 'FAIL');
    assert.equal(strict.decision, 'SPOOF');
  });

  it('cannot trace fewer than 3 frames with both a face and a screen colour', () => {
    const twoTagged = charlie(notFollowing, { screenColours: [screens[0], screens[1], undefined] });
    assert.equal(twoTagged.decision_info.IAD.signals.optical_analysis.status, 'ERROR');
    assert.equal(twoTagged.decision, 'LIVE');
  });

  it('is not run for foxtrot', () => {
    const foxtrot = decide('foxtrot4', colouredFrames(notFollowing), { screenColours: screens });
    assert.equal(foxtrot.decision_info.IAD.signals.optical_analysis.status, 'ERROR');
    assert.equal(foxtrot.decision, 'LIVE');
  });
});
