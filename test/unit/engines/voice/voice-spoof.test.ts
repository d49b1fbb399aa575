import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectSpeech } from '../../../../src/engines/voice/voice-activity.js';
import {
  cueDensityDistance,
  cueRangeDeviation,
  loadVoiceSpoofModel,
  parseVoiceSpoofModel,
  spoofLogit,
} from '../../../../src/engines/voice/voice-spoof-classifier.js';
import { voiceSpoofScore } from '../../../../src/engines/voice/voice-spoof-detection.js';
import {
  VOICE_SPOOF_CUE_NAMES,
  VOICE_SPOOF_FEATURE_NAMES,
} from '../../../../src/engines/voice/voice-spoof-features.js';
import {
  parseVoiceWorkflow,
  voiceLivenessThreshold,
  voiceScoreFrr,
} from '../../../../src/engines/voice/voice-liveness-levels.js';
import { VoiceWorkflowError } from '../../../../src/engines/voice/voice-workflow-error.js';
import { padSilence, soxEffects, synthesizeSpeech } from '../../../helpers/speech.js';

test('the shipped voice spoof model loads and matches the features this build computes', () => {
  const model = loadVoiceSpoofModel();
  assert.deepEqual(model.featureNames, VOICE_SPOOF_FEATURE_NAMES);
  assert.equal(model.weights.length, 2 * VOICE_SPOOF_FEATURE_NAMES.length);
  assert.equal(model.cueRange.features.length, VOICE_SPOOF_CUE_NAMES.length);
  assert.equal(model.cueDensity.precision.length, VOICE_SPOOF_CUE_NAMES.length ** 2);
  assert.ok(model.cueDensity.gain > 0 && model.cueDensity.margin > 0 && model.clip > 0);
  assert.ok(model.heldOutScores.live.length > 100 && model.heldOutScores.spoof.length > 100);
});

test('parseVoiceSpoofModel refuses malformed files with a reason', () => {
  const good = { ...loadVoiceSpoofModel() };
  assert.doesNotThrow(() => parseVoiceSpoofModel(good, 'good.json'));
  const broken = (patch: Record<string, unknown>, reason: RegExp) =>
    assert.throws(() => parseVoiceSpoofModel({ ...good, ...patch }, 'bad.json'), reason);
  broken({ kind: 'other' }, /bad\.json.*kind/);
  broken({ weights: [1, 2, 3] }, /weights/);
  broken({ std: good.std.map(() => 0) }, /not positive/);
  broken({ heldOutScores: { live: [0.9, 0.1], spoof: [] } }, /ascending/);
  broken({ cueRange: { features: [999], centre: [0], scale: [1], margin: 3 } }, /feature indices/);
  broken({ bias: 'x' }, /bias/);
  broken({ clip: 0 }, /clip/);
  broken({ clip: undefined }, /clip/);
  broken({ cueDensity: undefined }, /cueDensity/);
  const density = good.cueDensity;
  broken({ cueDensity: { ...density, features: [999] } }, /cueDensity\.features/);
  broken({ cueDensity: { ...density, centre: [0] } }, /cueDensity\.centre/);
  broken({ cueDensity: { ...density, precision: density.precision.slice(1) } }, /m×m/);
  const m = density.features.length;
  const asymmetric = [...density.precision];
  asymmetric[1] = (asymmetric[1] ?? 0) + 1;
  broken({ cueDensity: { ...density, precision: asymmetric } }, /not symmetric/);
  broken({ cueDensity: { ...density, precision: density.precision.map((v, j) => (j === 0 ? -1 : v)) } }, /diagonal/);
  broken({ cueDensity: { ...density, gain: -1 } }, /gain/);
  broken({ cueDensity: { ...density, margin: 'x' } }, /margin/);
  assert.equal(m * m, density.precision.length);
  assert.throws(() => parseVoiceSpoofModel([], 'array.json'), /not a JSON object/);
});

/** No density term (gain 0) and no clip in reach: the terms under test alone. */
const densityOff = { features: [0], centre: [0], precision: [1], margin: 0, gain: 0 };

test('spoofLogit: the cue range lowers the logit only by what exceeds the margin', () => {
  const model = {
    mean: [0, 0],
    std: [1, 1],
    clip: 1e9,
    weights: [0, 0, 0, 0],
    bias: 2,
    cueRange: { features: [1], centre: [10], scale: [2], margin: 3 },
    cueDensity: densityOff,
  };
  assert.equal(cueRangeDeviation(model.cueRange, [0, 14]), 2);
  assert.equal(spoofLogit(model, [0, 14]), 2); // 2 spreads: inside the margin
  assert.equal(spoofLogit(model, [0, 20]), 0); // 5 spreads: 2 over the margin
  assert.throws(() => spoofLogit(model, [0]), RangeError);
});

test('spoofLogit: a standardised feature adds no more than at the clip', () => {
  const model = {
    mean: [1],
    std: [2],
    clip: 3,
    weights: [1, 0.5],
    bias: 0,
    cueRange: { features: [], centre: [], scale: [], margin: 3 },
    cueDensity: densityOff,
  };
  assert.equal(spoofLogit(model, [5]), 2 + 0.5 * 4); // z = 2: inside the clip
  assert.equal(spoofLogit(model, [101]), 3 + 0.5 * 9); // z = 50 counts as 3
  assert.equal(spoofLogit(model, [-99]), -3 + 0.5 * 9);
});

test('spoofLogit: the cue density lowers the logit of a row jointly atypical, each cue inside its range', () => {
  // Two cues that go together in live speech (correlation 0.9): +1.5 on both is typical, +1.5 / −1.5 is not,
  // though each cue alone is 1.5 deviations from the centre either way.
  const rho = 0.9;
  const det = 1 - rho * rho;
  const model = {
    mean: [0, 0],
    std: [1, 1],
    clip: 3,
    weights: [0, 0, 0, 0],
    bias: 2,
    cueRange: { features: [0, 1], centre: [0, 0], scale: [1, 1], margin: 3 },
    cueDensity: {
      features: [0, 1],
      centre: [0, 0],
      precision: [1 / det, -rho / det, -rho / det, 1 / det],
      margin: 3,
      gain: 2,
    },
  };
  const together = [1.5, 1.5];
  const apart = [1.5, -1.5];
  assert.equal(cueRangeDeviation(model.cueRange, apart), 1.5);
  const distance = (row: number[]) => cueDensityDistance(model, row);
  assert.ok(Math.abs(distance(together) - Math.sqrt((2 * 2.25 * (1 - rho)) / det)) < 1e-12); // 1.54
  assert.ok(Math.abs(distance(apart) - Math.sqrt((2 * 2.25 * (1 + rho)) / det)) < 1e-12); // 6.69
  assert.equal(spoofLogit(model, together), 2); // inside the margin
  assert.ok(Math.abs(spoofLogit(model, apart) - (2 - 2 * (distance(apart) - 3))) < 1e-12);
  assert.ok(spoofLogit(model, apart) < -5);
  // The standardiser is applied first: the same row in raw units twice as wide is as far.
  assert.ok(Math.abs(cueDensityDistance({ ...model, std: [2, 2] }, [3, -3]) - distance(apart)) < 1e-12);
});

test('parseVoiceWorkflow: alfa2/4/6 are levels 2/4/6, securityLevel overrides, bad values are typed errors', () => {
  assert.deepEqual(parseVoiceWorkflow('alfa4'), { name: 'alfa4', securityLevel: 4, targetBpcer: 0.05 });
  assert.equal(parseVoiceWorkflow('alfa2').targetBpcer, 0.02);
  assert.equal(parseVoiceWorkflow('alfa6').targetBpcer, 0.1);
  assert.equal(parseVoiceWorkflow().name, 'alfa4');
  assert.deepEqual(parseVoiceWorkflow('alfa2', 6), { name: 'alfa2', securityLevel: 6, targetBpcer: 0.1 });
  const reason = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return error instanceof VoiceWorkflowError ? error.reason : 'other';
    }
    return 'none';
  };
  assert.equal(
    reason(() => parseVoiceWorkflow('alfa3')),
    'workflow',
  );
  assert.equal(
    reason(() => parseVoiceWorkflow('hotel4')),
    'workflow',
  );
  assert.equal(
    reason(() => parseVoiceWorkflow('alfa4', 0)),
    'security-level',
  );
  assert.equal(
    reason(() => parseVoiceWorkflow('alfa4', 11)),
    'security-level',
  );
  assert.equal(
    reason(() => parseVoiceWorkflow('alfa4', 2.5)),
    'security-level',
  );
});

test('thresholds reject the target share of held-out live scores; score_frr is -log10 of the share below', () => {
  const live = Array.from({ length: 100 }, (_, i) => (i + 1) / 100); // 0.01 .. 1.00
  const scores = { live, spoof: [] };
  assert.equal(voiceLivenessThreshold(parseVoiceWorkflow('alfa2'), scores), 0.03);
  assert.equal(voiceLivenessThreshold(parseVoiceWorkflow('alfa4'), scores), 0.06);
  assert.equal(voiceLivenessThreshold(parseVoiceWorkflow('alfa6'), scores), 0.11);
  assert.equal(voiceScoreFrr(0.105, scores), 1); // 10 of 100 below
  assert.equal(voiceScoreFrr(0, scores), -Math.log10(1 / 101)); // floored at one in n + 1
  // On the shipped scores a higher level asks for a higher P(live).
  const [t2, t4, t6] = ['alfa2', 'alfa4', 'alfa6'].map((w) => voiceLivenessThreshold(parseVoiceWorkflow(w)));
  assert.ok(t2 !== undefined && t4 !== undefined && t6 !== undefined && t2 <= t4 && t4 <= t6);
});

test('voiceSpoofScore: every cue named, P(live) in 0..1; an espeak-ng utterance and its simulated replay are refused at alfa4', async () => {
  const speech = padSilence(
    await synthesizeSpeech({
      text: 'Please verify my voice, I would like to open an account today.',
      voice: 'en-us',
      variant: 'm3',
    }),
    0.5,
    0.5,
  );
  const replayed = await soxEffects(speech, [
    'highpass',
    '-2',
    '300',
    'lowpass',
    '-2',
    '5000',
    'reverb',
    '60',
    '50',
    '80',
  ]);
  const threshold = voiceLivenessThreshold(parseVoiceWorkflow('alfa4'));
  for (const samples of [speech, replayed]) {
    const activity = await detectSpeech(samples);
    const { pLive, cues } = voiceSpoofScore(samples, activity);
    assert.deepEqual(Object.keys(cues).sort(), [...VOICE_SPOOF_CUE_NAMES].sort());
    assert.ok(pLive >= 0 && pLive <= 1);
    assert.ok(pLive < threshold, `P(live) ${pLive} vs alfa4 threshold ${threshold}`);
  }
});
