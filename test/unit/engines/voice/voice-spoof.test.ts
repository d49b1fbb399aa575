import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectSpeech } from '../../../../src/engines/voice/voice-activity.js';
import {
  cueDensityDistance,
  cueRangeDeviation,
  fusedSpoofLogit,
  loadVoiceSpoofModel,
  VOICE_SPOOF_GROUPS,
  parseVoiceSpoofModel,
  spoofLogit,
} from '../../../../src/engines/voice/voice-spoof-classifier.js';
import { voiceSpoofScore } from '../../../../src/engines/voice/voice-spoof-detection.js';
import {
  VOICE_SPOOF_MEMBERS,
  VOICE_SPOOF_CUE_NAMES,
  VOICE_SPOOF_FEATURE_NAMES,
} from '../../../../src/engines/voice/voice-spoof-features.js';
import {
  parseVoiceWorkflow,
  voiceLivenessThreshold,
  voiceScoreFrr,
} from '../../../../src/engines/voice/voice-liveness-levels.js';
import { VoiceWorkflowError } from '../../../../src/engines/voice/voice-workflow-error.js';
import { powerSpectrogram } from '../../../../src/engines/voice/features/power-spectrum.js';
import {
  SUBBAND_CEPSTRA_NAMES,
  SUBBAND_VALUES,
  subbandCepstra,
} from '../../../../src/engines/voice/spoof-cues/subband-cepstra.js';
import { padSilence, soxEffects, synthesizeSpeech, whiteNoise } from '../../../helpers/speech.js';

test('the shipped voice spoof model loads and matches the features this build computes', () => {
  const model = loadVoiceSpoofModel();
  assert.deepEqual(model.featureNames, VOICE_SPOOF_FEATURE_NAMES);
  // The five members once per group, group by group.
  assert.deepEqual(
    model.members.map(({ name, group, columns }) => ({ name, group, columns })),
    VOICE_SPOOF_GROUPS.flatMap((group) => VOICE_SPOOF_MEMBERS.map(({ name, columns }) => ({ name, group, columns }))),
  );
  for (const member of model.members) {
    assert.equal(member.weights.length, 2 * member.columns.length);
    // The range and density terms check the member row's cues.
    const cues = member.cueRange.features.map((k) => VOICE_SPOOF_FEATURE_NAMES[member.columns[k] ?? -1]);
    assert.deepEqual(cues, [...VOICE_SPOOF_CUE_NAMES]);
    assert.deepEqual(member.cueDensity.features, member.cueRange.features);
    assert.equal(member.cueDensity.precision.length, VOICE_SPOOF_CUE_NAMES.length ** 2);
    assert.ok(member.cueDensity.gain > 0 && member.cueDensity.margin > 0 && member.clip > 0);
  }
  assert.ok(model.heldOutScores.live.length > 100 && model.heldOutScores.spoof.length > 100);
});

test('parseVoiceSpoofModel refuses malformed files with a reason', () => {
  const shipped = loadVoiceSpoofModel();
  const good = { ...shipped };
  assert.doesNotThrow(() => parseVoiceSpoofModel(good, 'good.json'));
  const [first, ...rest] = shipped.members;
  assert.ok(first !== undefined && rest.length > 0);
  const brokenModel = (patch: Record<string, unknown>, reason: RegExp) =>
    assert.throws(() => parseVoiceSpoofModel({ ...good, ...patch }, 'bad.json'), reason);
  // Every member model is checked, the last as well as the first.
  // A patch may depend on the member (the members differ in width).
  type Member = typeof first;
  const broken = (patch: Record<string, unknown> | ((member: Member) => Record<string, unknown>), reason: RegExp) => {
    const patched = (member: Member) => ({ ...member, ...(typeof patch === 'function' ? patch(member) : patch) });
    const last = rest.at(-1) ?? first;
    brokenModel({ members: [patched(first), ...rest] }, new RegExp(`members\\[0\\]: .*${reason.source}`));
    brokenModel({ members: [first, ...rest.slice(0, -1), patched(last)] }, reason);
  };
  brokenModel({ kind: 'other' }, /bad\.json.*kind/);
  brokenModel({ members: [] }, /members/);
  brokenModel({ members: undefined }, /members/);
  brokenModel({ heldOutScores: { live: [0.9, 0.1], spoof: [] } }, /ascending/);
  broken({ columns: [999] }, /columns/);
  broken({ columns: [] }, /columns/);
  broken({ columns: first.columns.slice(1) }, /mean/);
  broken({ name: 3 }, /name/);
  broken({ weights: [1, 2, 3] }, /weights/);
  broken((member) => ({ std: member.std.map(() => 0) }), /not positive/);
  broken({ cueRange: { features: [999], centre: [0], scale: [1], margin: 3 } }, /feature indices/);
  broken({ bias: 'x' }, /bias/);
  broken({ clip: 0 }, /clip/);
  broken({ clip: undefined }, /clip/);
  broken({ cueDensity: undefined }, /cueDensity/);
  const density = first.cueDensity;
  broken({ cueDensity: { ...density, features: [999] } }, /cueDensity\.features/);
  broken({ cueDensity: { ...density, centre: [0] } }, /cueDensity\.centre/);
  broken({ cueDensity: { ...density, precision: density.precision.slice(1) } }, /m×m/);
  const m = density.features.length;
  const asymmetric = [...density.precision];
  asymmetric[1] = (asymmetric[1] ?? 0) + 1;
  broken({ cueDensity: { ...density, precision: asymmetric } }, /not symmetric/);
  broken(
    { cueDensity: { ...density, precision: density.precision.map((v: number, j: number) => (j === 0 ? -1 : v)) } },
    /diagonal/,
  );
  broken({ cueDensity: { ...density, gain: -1 } }, /gain/);
  broken({ cueDensity: { ...density, margin: 'x' } }, /margin/);
  assert.equal(m * m, density.precision.length);
  assert.throws(() => parseVoiceSpoofModel([], 'array.json'), /not a JSON object/);
});

/** No density term (gain 0) and no clip in reach: the terms under test alone. */
const densityOff = { features: [0], centre: [0], precision: [1], margin: 0, gain: 0 };

test("fusedSpoofLogit: the mean of the member models' logits, each on its own columns of the row; in groups, the least group mean", () => {
  const band = (columns: number[], weight: number, bias: number) => ({
    columns,
    mean: [0],
    std: [1],
    clip: 1e9,
    weights: [weight, 0],
    bias,
    cueRange: { features: [], centre: [], scale: [], margin: 3 },
    cueDensity: densityOff,
  });
  // Band 0 reads column 2 (logit 1 + 2·3 = 7), band 1 column 0 (logit −4 + 1·(−1) = −5): mean 1.
  const model = { members: [band([2], 2, 1), band([0], 1, -4)] };
  assert.equal(fusedSpoofLogit(model, [-1, 100, 3]), 1);
  assert.equal(fusedSpoofLogit({ members: [band([2], 2, 1)] }, [-1, 100, 3]), 7);
  assert.throws(() => fusedSpoofLogit(model, [0, 0]), RangeError);
  // In groups: each group's mean, then the least of them. Group a: (7 + (−5)) / 2 = 1; group b: 2 + 1·(−1) = 1,
  // then −3 + 0·3 → mean (1 − 3) / 2 = −1. The least is −1, whichever group comes first.
  const grouped = [
    { ...band([2], 2, 1), group: 'a' },
    { ...band([0], 1, 2), group: 'b' },
    { ...band([0], 1, -4), group: 'a' },
    { ...band([2], 0, -3), group: 'b' },
  ];
  assert.equal(fusedSpoofLogit({ members: grouped }, [-1, 100, 3]), -1);
  assert.equal(fusedSpoofLogit({ members: [...grouped].reverse() }, [-1, 100, 3]), -1);
  // Group b's members moved to a: one group of four, mean (7 + 1 − 5 − 3) / 4 = 0.
  assert.equal(fusedSpoofLogit({ members: grouped.map((m) => ({ ...m, group: 'a' })) }, [-1, 100, 3]), 0);
});

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

test("subbandCepstra: three bands of named statistics; a 2 kHz low-pass lowers the upper bands' relative level only", async () => {
  const white = whiteNoise(2, -20, 7);
  const dull = await soxEffects(white, ['lowpass', '-2', '2000']);
  const stats = (samples: Float32Array) =>
    subbandCepstra(powerSpectrogram(samples, { sampleRate: 16_000 }), () => true);
  const [flat, low] = [stats(white), stats(dull)];
  assert.equal(flat.length, 3 * SUBBAND_VALUES);
  assert.equal(SUBBAND_CEPSTRA_NAMES.length, flat.length);
  const level = (values: Float64Array, band: number) => values[band * SUBBAND_VALUES + SUBBAND_VALUES - 1] ?? NaN;
  // Relative levels sum to 0: cutting the top band raises the others' (white noise: -9.6, 1.5, 8.0 → 2.7, 5.2, -8.0).
  assert.ok(Math.abs(level(flat, 0) + level(flat, 1) + level(flat, 2)) < 1e-9);
  assert.ok(level(low, 2) < level(flat, 2) - 10 && level(low, 0) > level(flat, 0) + 10);
  // Each band's own cepstrum: the low band's envelope moves little when only the upper bands are cut.
  const lowBandMeans = (values: Float64Array) => [...values.subarray(0, 12)];
  const shift = lowBandMeans(low).reduce((t, v, c) => t + Math.abs(v - (lowBandMeans(flat)[c] ?? 0)), 0);
  assert.ok(shift < 3, `low band moved by ${shift}`); // the 2-pole roll-off reaches into it a little (1.5)
  // Speech-frame selection: statistics of no frames are all 0 but the (relative) levels.
  const none = subbandCepstra(powerSpectrogram(white, { sampleRate: 16_000 }), () => false);
  assert.ok(none.every((v) => v === 0));
});
