/**
 * Where the PAD thresholds and `score_frr` come from: for each model, its P(live) scores of bona fide and
 * attack faces measured on people it was not fitted to, and the bona fide rejection rate each security
 * level aims at. The hand-made classifier's scores are its cross-validated held-out scores (pad-model.json);
 * the ONNX model's are its scores of the dev set's decided requests (pad-onnx-calibration.json, written by
 * `npm run eval -- calibrate-pad`; we never trained it, but its own training data is undisclosed).
 */
import { isFiniteNumberArray, isRecord } from '../../lib/json-guards.js';
import { loadPadModel } from './pad-classifier.js';
import type { PadModelKind } from './pad-model-kind.js';
import { PAD_NET_SHA256 } from './pad-onnx-model.js';
import { TARGET_BPCER_BY_LEVEL } from './workflows.js';
import onnxCalibrationJson from './pad-onnx-calibration.json' with { type: 'json' };

/** P(live) of bona fide and attack faces the model was not fitted to, each list ascending. */
export interface PadScores {
  readonly live: readonly number[];
  readonly spoof: readonly number[];
}

/** One model's thresholds: its scores and the bona fide rejection rate each security level aims at. */
export interface PadCalibration extends PadScores {
  readonly model: PadModelKind;
  /** Target BPCER of security levels 1..10 (index 0 = level 1). */
  readonly targetBpcerByLevel: readonly number[];
}

/**
 * Target BPCER per security level for the ONNX model. It stops all but ~1% of the dev attacks at 2% BPCER,
 * so its levels ask less of live users than the hand-made classifier's (TARGET_BPCER_BY_LEVEL: 5% at
 * level 4): level 2 = 1%, 4 = 2%, 6 = 4% (docs/liveness.md).
 */
export const ONNX_TARGET_BPCER_BY_LEVEL: readonly number[] = [
  0.005, 0.01, 0.015, 0.02, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15,
];

let onnxCalibration: PadCalibration | undefined;

/**
 * The calibration of a PAD model kind.
 *
 * @example
 * const calibration = padCalibration('onnx');
 * levelThreshold(4, calibration); // the P(live) a level-4 request needs
 * @throws {Error} when the model's calibration file is malformed or was measured on other weights
 */
export function padCalibration(kind: PadModelKind): PadCalibration {
  if (kind === 'handmade') {
    const { live, spoof } = loadPadModel().heldOutScores;
    return { model: kind, targetBpcerByLevel: TARGET_BPCER_BY_LEVEL, live, spoof };
  }
  onnxCalibration ??= {
    model: kind,
    targetBpcerByLevel: ONNX_TARGET_BPCER_BY_LEVEL,
    ...parseOnnxCalibration(onnxCalibrationJson, 'pad-onnx-calibration.json'),
  };
  return onnxCalibration;
}

/**
 * Checks the ONNX model's calibration read from JSON: measured on the model file this build loads
 * (its SHA-256), with ascending P(live) lists of live and attack scores.
 *
 * @example
 * const { live, spoof } = parseOnnxCalibration(JSON.parse(text), 'pad-onnx-calibration.json');
 * @throws {Error} naming `origin` and the first thing wrong with it
 */
export function parseOnnxCalibration(json: unknown, origin: string): PadScores {
  const malformed = (what: string): Error =>
    new Error(`${origin} is not a valid PAD calibration: ${what} (rewrite it with npm run eval -- calibrate-pad)`);
  if (!isRecord(json)) throw malformed('not a JSON object');
  if (json.sha256 !== PAD_NET_SHA256) throw malformed(`it was measured on other weights than ${PAD_NET_SHA256}`);
  const { scores } = json;
  if (!isRecord(scores)) throw malformed('`scores` is not an object');
  const { live, spoof } = scores;
  if (!isAscendingProbabilities(live) || !isAscendingProbabilities(spoof))
    throw malformed('`scores.live` or `.spoof` is not an ascending array of numbers in 0..1');
  if (live.length === 0) throw malformed('`scores.live` is empty');
  return { live, spoof };
}

/**
 * The P(live) threshold of a security level: the one that rejects the level's target share of the
 * calibration's live scores.
 *
 * @example
 * levelThreshold(4, padCalibration('onnx'));
 * @throws {RangeError} for a level outside 1..10 (parseWorkflow refuses those first)
 */
export function levelThreshold(securityLevel: number, calibration: PadCalibration): number {
  const target = calibration.targetBpcerByLevel[securityLevel - 1];
  if (target === undefined) throw new RangeError(`security level ${securityLevel} is not a whole number from 1 to 10`);
  return padThreshold(target, calibration);
}

/**
 * The P(live) threshold that rejects `targetBpcer` of bona fide presentations, read off the live scores
 * (each of a face the model was not fitted to).
 *
 * @example
 * padThreshold(0.05, padCalibration('handmade')); // the hand-made classifier's level-4 threshold
 * @throws {Error} when there are no live scores; RangeError for a target that is not a number
 */
export function padThreshold(targetBpcer: number, scores: PadScores): number {
  const { live } = scores;
  if (live.length === 0) throw new Error('the PAD calibration holds no live scores');
  const index = Math.min(live.length - 1, Math.max(0, Math.floor(targetBpcer * live.length)));
  const threshold = live[index];
  if (threshold === undefined) throw new RangeError(`no live score at a target BPCER of ${targetBpcer}`);
  return threshold;
}

/**
 * `score_frr`: -log10 of the bona fide rejection rate a threshold at this P(live) would cause
 * (share of the calibration's live scores below it), floored at one in (n + 1).
 *
 * @example
 * scoreFrr(0.9, padCalibration('onnx')); // e.g. 1.3: a threshold there would turn away ~5% of live users
 */
export function scoreFrr(pLive: number, scores: PadScores): number {
  const { live } = scores;
  let below = 0; // the scores are ascending: count up to the first that is not below pLive
  for (const score of live) {
    if (!(score < pLive)) break;
    below++;
  }
  return -Math.log10(Math.max(1 / (live.length + 1), below / live.length));
}

function isAscendingProbabilities(value: unknown): value is readonly number[] {
  return isFiniteNumberArray(value) && value.every((p, i) => p >= 0 && p <= 1 && (i === 0 || (value[i - 1] ?? p) <= p));
}
