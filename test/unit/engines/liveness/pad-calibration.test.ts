import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  levelThreshold,
  ONNX_TARGET_BPCER_BY_LEVEL,
  padCalibration,
  parseOnnxCalibration,
  scoreFrr,
} from '../../../../src/engines/liveness/pad-calibration.js';
import { loadPadModel } from '../../../../src/engines/liveness/pad-classifier.js';
import { parsePadModelKind } from '../../../../src/engines/liveness/pad-model-kind.js';
import { PAD_NET_SHA256 } from '../../../../src/engines/liveness/pad-onnx-model.js';
import { TARGET_BPCER_BY_LEVEL } from '../../../../src/engines/liveness/workflows.js';

const ascending = (xs: readonly number[]) => xs.every((x, i) => i === 0 || (xs[i - 1] ?? x) <= x);

describe('padCalibration', () => {
  it('reads the ONNX model its scores of the dev set and its own level table', () => {
    const onnx = padCalibration('onnx');
    assert.equal(onnx.model, 'onnx');
    assert.equal(onnx.targetBpcerByLevel, ONNX_TARGET_BPCER_BY_LEVEL);
    assert.ok(onnx.live.length > 100 && onnx.spoof.length > 100, `${onnx.live.length} / ${onnx.spoof.length}`);
    assert.ok(ascending(onnx.live) && ascending(onnx.spoof));
  });

  it('reads the hand-made classifier its held-out scores and the general level table', () => {
    const handmade = padCalibration('handmade');
    assert.equal(handmade.targetBpcerByLevel, TARGET_BPCER_BY_LEVEL);
    assert.deepEqual(handmade.live, loadPadModel().heldOutScores.live);
  });

  it('orders the thresholds by level, each rejecting at most its target share of the live scores', () => {
    for (const calibration of [padCalibration('onnx'), padCalibration('handmade')]) {
      const thresholds = [1, 2, 4, 6, 10].map((level) => levelThreshold(level, calibration));
      assert.ok(ascending(thresholds), `${calibration.model}: ${thresholds.join(' ')}`);
      for (const level of [2, 4, 6]) {
        const t = levelThreshold(level, calibration);
        const bpcer = calibration.live.filter((s) => s < t).length / calibration.live.length;
        assert.ok(bpcer <= (calibration.targetBpcerByLevel[level - 1] ?? 0), `${calibration.model} ${level}: ${bpcer}`);
      }
    }
    assert.throws(() => levelThreshold(11, padCalibration('onnx')), RangeError);
  });

  it('meets the dev goal at level 4 with the ONNX model: APCER and BPCER at most 2% of its decided scores', () => {
    const onnx = padCalibration('onnx');
    const t = levelThreshold(4, onnx);
    const apcer = onnx.spoof.filter((s) => s >= t).length / onnx.spoof.length;
    const bpcer = onnx.live.filter((s) => s < t).length / onnx.live.length;
    assert.ok(apcer <= 0.02 && bpcer <= 0.02, `APCER ${apcer}, BPCER ${bpcer}`);
  });

  it('gives score_frr from the model’s own live scores, floored at one in n + 1', () => {
    const onnx = padCalibration('onnx');
    assert.equal(scoreFrr(0, onnx), -Math.log10(1 / (onnx.live.length + 1)));
    const median = onnx.live[Math.floor(onnx.live.length / 2)] ?? NaN;
    assert.ok(
      Math.abs(scoreFrr(median, onnx) - -Math.log10(Math.floor(onnx.live.length / 2) / onnx.live.length)) < 0.05,
    );
  });
});

describe('parseOnnxCalibration', () => {
  const valid = { sha256: PAD_NET_SHA256, scores: { live: [0.2, 0.9], spoof: [0.01, 0.3] } };

  it('returns the scores of a calibration of these weights', () => {
    assert.deepEqual(parseOnnxCalibration(valid, 'x.json'), valid.scores);
  });

  it('refuses a calibration of other weights, unsorted or out-of-range scores, or no live scores', () => {
    const cases: unknown[] = [
      { ...valid, sha256: 'ab'.repeat(32) },
      { ...valid, scores: { live: [0.9, 0.2], spoof: [] } },
      { ...valid, scores: { live: [0.2, 1.5], spoof: [] } },
      { ...valid, scores: { live: [], spoof: [0.1] } },
      { ...valid, scores: undefined },
      [],
    ];
    for (const json of cases) assert.throws(() => parseOnnxCalibration(json, 'x.json'), /x\.json is not a valid PAD/);
  });
});

describe('parsePadModelKind', () => {
  it('reads a kind in any case, the default for none, and undefined for another name', () => {
    assert.equal(parsePadModelKind(' Handmade '), 'handmade');
    assert.equal(parsePadModelKind('ONNX'), 'onnx');
    assert.equal(parsePadModelKind(undefined), 'onnx');
    assert.equal(parsePadModelKind(''), 'onnx');
    assert.equal(parsePadModelKind('cnn'), undefined);
  });
});
