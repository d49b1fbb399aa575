import assert from 'node:assert/strict';
import { test } from 'node:test';
import { analyzeSample } from '../../../src/engines/voice/voice-sample-analysis.js';
import {
  memberRow,
  cueDensityDistance,
  fusedSpoofLogit,
  spoofLogit,
} from '../../../src/engines/voice/voice-spoof-classifier.js';
import { VOICE_SPOOF_FEATURE_NAMES, VOICE_SPOOF_MEMBERS } from '../../../src/engines/voice/voice-spoof-features.js';
import { sigmoid } from '../../../src/lib/sigmoid.js';
import { CLASSIFIER_TERMS, evaluateRows, testing } from '../../../eval/train-voice-spoof.js';
import type { CorpusKind } from '../../../eval/voice-spoof-corpus.js';
import { asBrowserRecording } from '../../../eval/voice-spoof-rows.js';

const { errorsAt, rejectionsBySet, equalErrorRate } = testing;

/** A held-out score of fold `fold`; NaN = refused by the service's gates. */
function scored(kind: CorpusKind, fold: number, pLive: number, source = 's') {
  return { row: { item: { kind, fold, source, path: 'p', recipe: 'r' }, features: [] }, pLive };
}

test('errorsAt: a bona fide sample the gates refuse is a rejection, a refused attack is not accepted', () => {
  // Three folds with the same scored bona fide (thresholds from the other folds: the 0.5 one at a 0 target).
  const rows = [0, 1, 2].flatMap((fold) => [
    scored('bonafide', fold, 0.5),
    scored('bonafide', fold, 0.9),
    scored('bonafide', fold, Number.NaN),
    scored('espeak', fold, 0.95),
    scored('espeak', fold, Number.NaN),
  ]);
  const counts = errorsAt(rows, 0);
  assert.deepEqual(counts, {
    attacks: 6,
    accepted: 3,
    attacksRefused: 3,
    bonafide: 9,
    rejected: 3,
    bonafideRefused: 3,
  });
});

test('rejectionsBySet: one threshold for both bona fide sets, each set counted on its own', () => {
  // Per fold, the other folds' bona fide give the threshold 0.4 at a 25% target (sorted 0.2 0.4 0.8 0.9 ...).
  const rows = [0, 1, 2].flatMap((fold) => [
    scored('bonafide', fold, 0.9, 'fsdd-jackson'),
    scored('bonafide', fold, 0.8, 'fsdd-theo'),
    scored('bonafide', fold, 0.4, 'ls-19'),
    scored('bonafide', fold, 0.2, 'ls-26'),
    scored('flite', fold, 0.95, 'kal'),
  ]);
  assert.deepEqual(rejectionsBySet(rows, 0.25), {
    FSDD: { bonafide: 6, rejected: 0 },
    LibriSpeech: { bonafide: 6, rejected: 3 },
  });
  assert.equal(errorsAt(rows, 0.25).rejected, 3);
});

test('equalErrorRate: refused samples sit below every threshold', () => {
  const rows = [scored('bonafide', 0, 0.9), scored('bonafide', 0, Number.NaN), scored('flite', 0, Number.NaN)];
  // Threshold 0.9: the refused bona fide is rejected (1 of 2), the refused attack not accepted.
  assert.equal(equalErrorRate(rows), 0.5);
});

test('asBrowserRecording: a corpus file arrives as a 48 kHz recording, cut by the engine resampler above 7.36 kHz', async () => {
  const seconds = 1;
  const tone = (hz: number) =>
    Float32Array.from({ length: 16_000 * seconds }, (_, i) => 0.3 * Math.sin((2 * Math.PI * hz * i) / 16_000));
  const level = (x: Float32Array) => Math.sqrt(x.slice(2000, -2000).reduce((s, v) => s + v * v, 0) / (x.length - 4000));
  const low = await analyzeSample(asBrowserRecording(tone(1000), 48_000));
  const high = await analyzeSample(asBrowserRecording(tone(7800), 48_000));
  assert.equal(low.audio.sourceSampleRate, 48_000);
  assert.ok(Math.abs(level(low.audio.samples) - 0.3 / Math.SQRT2) < 0.01);
  assert.ok(level(high.audio.samples) < 0.3e-3, `7.8 kHz kept at ${level(high.audio.samples)}`);
});

test('train: a feature masked rangeOnly gets no logistic weight but stays in the range term, linearOnly no square', () => {
  const { train } = testing;
  const d = 48;
  // Deterministic rows: feature 47 separates the classes, the rest is a fixed pseudo-random pattern.
  const rows = Array.from({ length: 60 }, (_, i) => {
    const live = i % 2 === 0;
    const features = Array.from({ length: d }, (_, j) => Math.sin(i * 12.9898 + j * 78.233) * 0.5);
    features[d - 1] = (live ? 1 : -1) + 0.3 * Math.sin(i * 3.1);
    return {
      item: {
        kind: live ? ('bonafide' as const) : ('espeak' as const),
        fold: 0,
        source: 's',
        path: `p${i}`,
        recipe: 'r',
      },
      features,
    };
  });
  const free = train(rows, [d - 1]);
  assert.ok(Math.abs(free.weights[d - 1] ?? 0) > 0.01, 'the separating feature is weighed when not masked');
  const rangeOnly = train(rows, [d - 1], { rangeOnly: [d - 1] });
  assert.equal(rangeOnly.weights[d - 1], 0);
  assert.equal(rangeOnly.weights[2 * d - 1], 0);
  assert.deepEqual(rangeOnly.cueRange.features, [d - 1]);
  const linearOnly = train(rows, [d - 1], { linearOnly: [d - 1] });
  assert.equal(linearOnly.weights[2 * d - 1], 0);
  assert.ok(Math.abs(linearOnly.weights[d - 1] ?? 0) > 0.01);
});

test('trainsWhileHeldOut: what shares the held kind mechanism stays out of training', () => {
  const { trainsWhileHeldOut } = testing;
  const row = (kind: CorpusKind, source: string) => ({
    item: { kind, fold: 0, source, path: 'p', recipe: 'r' },
    features: [],
  });
  // A replay of flite speech is flite's output through a loudspeaker: unseen flite means none of it.
  assert.equal(trainsWhileHeldOut(row('tts-replay', 'flite:kal'), 'flite'), false);
  assert.equal(trainsWhileHeldOut(row('tts-replay', 'festival:kal'), 'flite'), true);
  assert.equal(trainsWhileHeldOut(row('flite', 'kal'), 'flite'), false);
  assert.equal(trainsWhileHeldOut(row('espeak', 'en'), 'flite'), true);
  // The two replay kinds share the simulated loudspeaker and room.
  assert.equal(trainsWhileHeldOut(row('tts-replay', 'espeak:en'), 'replay'), false);
  assert.equal(trainsWhileHeldOut(row('replay', 'ls-103'), 'tts-replay'), false);
  assert.equal(trainsWhileHeldOut(row('flite', 'kal'), 'tts-replay'), true);
  assert.equal(trainsWhileHeldOut(row('bonafide', 'ls-103'), 'replay'), true);
  assert.equal(trainsWhileHeldOut(row('vocoded', 'ls-103'), 'replay'), true);
  // Our own loudspeaker simulator: in under the `simulator` protocol, out under `mechanism` for a replay kind.
  assert.equal(trainsWhileHeldOut(row('rerecorded', 'ls-103'), 'replay'), true);
  assert.equal(trainsWhileHeldOut(row('rerecorded', 'ls-103'), 'replay', 'mechanism'), false);
  assert.equal(trainsWhileHeldOut(row('rerecorded', 'ls-103'), 'tts-replay', 'mechanism'), false);
  assert.equal(trainsWhileHeldOut(row('rerecorded', 'ls-103'), 'flite', 'mechanism'), true);
  assert.equal(trainsWhileHeldOut(row('room-live', 'ls-103'), 'replay', 'mechanism'), true);
});

test('train: room-live rows are live in the logistic part, but the range and density terms read bona fide alone', () => {
  const { train } = testing;
  const d = 48;
  const cue = d - 1;
  // Bona fide dry (cue near 0), attacks dry and apart on feature 0; room-live rows wet (cue near 4).
  const rows = Array.from({ length: 90 }, (_, i) => {
    const kind = (['bonafide', 'espeak', 'room-live'] as const)[i % 3] ?? 'bonafide';
    const features = Array.from({ length: d }, (_, j) => Math.sin(i * 12.9898 + j * 78.233) * 0.5);
    features[0] = kind === 'espeak' ? -2 : 1;
    features[cue] = (kind === 'room-live' ? 4 : 0) + 0.3 * Math.sin(i * 3.1);
    return { item: { kind, fold: 0, source: `s${i % 7}`, path: `p${i}`, recipe: 'r' }, features };
  });
  const model = train(rows, [cue]);
  const bonafideOnly = train(
    rows.filter((row) => row.item.kind !== 'room-live'),
    [cue],
  );
  // Standardiser and range from the bona fide rows only: identical with or without the room-live rows.
  assert.deepEqual(model.mean, bonafideOnly.mean);
  assert.deepEqual(model.cueRange, bonafideOnly.cueRange);
  assert.deepEqual(model.cueDensity, bonafideOnly.cueDensity);
  // Labelled live, the wet rows make the cue's weights favour wet: the logistic part differs.
  // At the clip (z = 3, z² = 9): what a row far on the wet side gains.
  const wetGain = (m: typeof model): number => (m.weights[cue] ?? 0) * 3 + (m.weights[d + cue] ?? 0) * 9;
  assert.ok(wetGain(model) > wetGain(bonafideOnly) + 0.1, `${wetGain(model)} vs ${wetGain(bonafideOnly)}`);
});

test('train: the cue density is fitted on bona fide rows, its margin from cross-fitted distances; features clipped', () => {
  const { train } = testing;
  const d = 48;
  const cues = [d - 2, d - 1];
  // Bona fide: the two cues go together (a shared t plus a little of their own); attacks sit elsewhere on feature 0.
  const rows = Array.from({ length: 120 }, (_, i) => {
    const live = i % 3 !== 0;
    const features = Array.from({ length: d }, (_, j) => Math.sin(i * 12.9898 + j * 78.233) * 0.5);
    const t = Math.sin(i * 0.7) * 2;
    features[d - 2] = t + 0.2 * Math.sin(i * 5.3);
    features[d - 1] = t + 0.2 * Math.cos(i * 4.1);
    features[0] = (live ? 0 : 3) + 0.3 * Math.sin(i * 3.1);
    return {
      item: {
        kind: live ? ('bonafide' as const) : ('espeak' as const),
        fold: 0,
        source: `s${i % 10}`,
        path: `p${i}`,
        recipe: 'r',
      },
      features,
    };
  });
  const model = train(rows, cues);
  assert.equal(model.clip, CLASSIFIER_TERMS.clip);
  assert.deepEqual(model.cueDensity.features, cues);
  assert.equal(model.cueDensity.gain, CLASSIFIER_TERMS.densityGain);
  const live = rows.filter((row) => row.item.kind === 'bonafide');
  const inSample = live.map((row) => cueDensityDistance(model, row.features)).sort((a, b) => a - b);
  // Cross-fitted (each speaker group measured by a density fitted without it): beyond the in-sample quantile.
  assert.ok(model.cueDensity.margin > (inSample[Math.floor(0.95 * (inSample.length - 1))] ?? Infinity));
  assert.ok(model.cueDensity.margin < 4);
  // A live-looking row whose cues part ways (each within the live spread alone) is far in the density.
  const base = live[1]?.features ?? [];
  const apart = [...base];
  apart[d - 2] = 2;
  apart[d - 1] = -2;
  assert.ok(cueDensityDistance(model, apart) > model.cueDensity.margin + 2);
  const without = train(rows, cues, {}, { ...CLASSIFIER_TERMS, densityGain: 0 });
  assert.equal(without.cueDensity.gain, 0);
  assert.ok(
    spoofLogit(model, apart) < spoofLogit({ ...model, cueDensity: { ...model.cueDensity, gain: 0 } }, apart) - 2,
  );
  // Clipped: feature 0 far beyond anything trained on scores as at the clip.
  const far = [...base];
  far[0] = 1e3;
  const atClip = [...base];
  atClip[0] = (model.mean[0] ?? 0) + model.clip * (model.std[0] ?? 1);
  const noRanges = { ...model, cueDensity: { ...model.cueDensity, gain: 0 } };
  assert.ok(Math.abs(spoofLogit(noRanges, far) - spoofLogit(noRanges, atClip)) < 1e-9);
});

test('trainFused and crossValidate: one model per member on its columns, held-out P(live) of their mean logit', () => {
  const { crossValidate, train, trainFused } = testing;
  // Columns 0-1 are member a's own, 2-3 member b's, 4-5 cues both read; a separates the classes, b barely.
  const members = [
    { name: 'a', columns: [0, 1, 4, 5] },
    { name: 'b', columns: [2, 3, 4, 5] },
  ];
  const cues = [4, 5];
  const rows = Array.from({ length: 90 }, (_, i) => {
    const live = i % 3 !== 0;
    const features = Array.from({ length: 6 }, (_, j) => Math.sin(i * 12.9898 + j * 78.233));
    features[0] = (live ? 1 : -1) + 0.5 * Math.sin(i * 3.1);
    features[2] = (live ? 0.2 : -0.2) + Math.sin(i * 1.7);
    return {
      item: {
        kind: live ? ('bonafide' as const) : ('espeak' as const),
        fold: Math.floor(i / 30),
        source: `s${i % 15}`,
        path: `p${i}`,
        recipe: 'r',
      },
      features,
    };
  });
  // No logistic mask, so that each member is the plain single-model trainer on its columns.
  const choice = { members, cueIndices: cues, mask: {}, terms: CLASSIFIER_TERMS, groups: [] };
  const fused = trainFused(rows, choice);
  assert.deepEqual(
    fused.members.map((member) => member.columns),
    members.map((member) => member.columns),
  );
  // Each member is the single-model trainer on its columns, its cue terms on the cues' places among them.
  const onColumns = (columns: readonly number[], from: typeof rows) =>
    from.map((row) => ({ ...row, features: memberRow(columns, row.features) }));
  assert.deepEqual(fused.members[1]?.weights, train(onColumns([2, 3, 4, 5], rows), [2, 3]).weights);
  assert.deepEqual(fused.members[0]?.cueRange.features, [2, 3]);

  const scored = crossValidate(
    rows,
    () => true,
    () => true,
    choice,
  );
  const trainedOn = rows.filter((row) => row.item.fold !== 0);
  const [a, b] = members.map(({ columns }) => train(onColumns(columns, trainedOn), [2, 3]));
  assert.ok(a !== undefined && b !== undefined);
  let differs = 0;
  for (const { row, pLive } of scored.filter((s) => s.row.item.fold === 0)) {
    const logitA = spoofLogit(a, memberRow([0, 1, 4, 5], row.features));
    const logitB = spoofLogit(b, memberRow([2, 3, 4, 5], row.features));
    assert.ok(Math.abs(pLive - sigmoid((logitA + logitB) / 2)) < 1e-12);
    if (Math.abs(logitA - logitB) > 0.1) differs++;
  }
  assert.ok(differs > 10, 'the members disagree on most rows, so the mean is not either alone');
});

test('trainFused in groups: each group trained on the live rows and its own kinds; a group with none sits out', () => {
  const { trainFused } = testing;
  const members = [{ name: 'm', columns: [0, 1, 2] }];
  const kinds: CorpusKind[] = ['bonafide', 'espeak', 'bonafide', 'replay', 'room-live', 'vocoded'];
  // Feature 0 tells synthetic speech from live, feature 1 replays; feature 2 is the one cue.
  const rows = Array.from({ length: 120 }, (_, i) => {
    const kind = kinds[i % kinds.length] ?? 'bonafide';
    const features = [0, 1, 2].map((j) => 0.4 * Math.sin(i * 12.9898 + j * 78.233));
    if (kind === 'espeak' || kind === 'vocoded') features[0] = (features[0] ?? 0) - 2;
    if (kind === 'replay') features[1] = (features[1] ?? 0) + 2;
    return { item: { kind, fold: i % 3, source: `s${i % 20}`, path: `p${i}`, recipe: 'r' }, features };
  });
  const choice = { members, cueIndices: [2], mask: {}, terms: CLASSIFIER_TERMS };
  const groups = [
    { name: 'synthesis', kinds: ['espeak', 'vocoded'] },
    { name: 'replay', kinds: ['replay'] },
  ] as const;
  const fused = trainFused(rows, { ...choice, groups });
  assert.deepEqual(
    fused.members.map((member) => member.group),
    ['synthesis', 'replay'],
  );
  const alone = (keep: readonly CorpusKind[]) =>
    trainFused(
      rows.filter((row) => keep.includes(row.item.kind)),
      { ...choice, groups: [] },
    ).members[0];
  assert.deepEqual(fused.members[0]?.weights, alone(['bonafide', 'room-live', 'espeak', 'vocoded'])?.weights);
  assert.deepEqual(fused.members[1]?.weights, alone(['bonafide', 'room-live', 'replay'])?.weights);
  // Each group's model weighs its own kind's feature: the synthesis group feature 0, the replay group feature 1.
  const [synthesis, replay] = fused.members;
  assert.ok(synthesis !== undefined && replay !== undefined);
  assert.ok(Math.abs(synthesis.weights[0] ?? 0) > 3 * Math.abs(synthesis.weights[1] ?? 0));
  assert.ok(Math.abs(replay.weights[1] ?? 0) > 3 * Math.abs(replay.weights[0] ?? 0));
  // No replay row left (held out): the replay group sits out of that model.
  const withoutReplays = trainFused(
    rows.filter((row) => row.item.kind !== 'replay'),
    { ...choice, groups },
  );
  assert.deepEqual(
    withoutReplays.members.map((member) => member.group),
    ['synthesis'],
  );
});

test('evaluateRows: room and noise cues get no logistic weight, so a wetter, hummier row than live gains nothing', () => {
  const d = VOICE_SPOOF_FEATURE_NAMES.length;
  const hum = VOICE_SPOOF_FEATURE_NAMES.indexOf('mainsHum');
  const kinds: CorpusKind[] = ['bonafide', 'bonafide', 'espeak', 'flite', 'festival'];
  // Live rows spread around 0 on every feature, hum included; the synthetic attacks are hum-free (hum at -2.5)
  // and differ a little elsewhere. Trained on them alone, a logistic part learns "more hum = more live",
  // which a replay (live speech plus a loudspeaker's room and hum) would exploit.
  const rows = Array.from({ length: 150 }, (_, i) => {
    const kind = kinds[i % kinds.length] ?? 'bonafide';
    const features = Array.from({ length: d }, (_, j) => Math.sin(i * 12.9898 + j * 78.233) * 0.8);
    features[hum] = kind === 'bonafide' ? 1.2 * Math.sin(i * 0.37) : -2.5 + 0.2 * Math.sin(i);
    if (kind !== 'bonafide') features[0] = (features[0] ?? 0) + 0.8;
    return { item: { kind, fold: i % 3, source: `s${i % 30}`, path: `p${i}`, recipe: 'r' }, features };
  });
  const { model } = evaluateRows(rows, { trainingOnly: true });
  for (const member of model.members) {
    const k = member.columns.indexOf(hum);
    assert.ok(k >= 0, 'every member model reads the hum cue');
    assert.equal(member.weights[k], 0);
    assert.equal(member.weights[member.columns.length + k], 0);
  }
  const live = [...(rows[0]?.features ?? [])];
  live[hum] = 0;
  const humid = [...live];
  humid[hum] = 1;
  const gain = fusedSpoofLogit(model, humid) - fusedSpoofLogit(model, live);
  assert.ok(gain <= 1e-9, `shipped mask: more hum gains ${gain}`);
  // Trained with the logistic part free to weigh every cue, the same row gains.
  const free = evaluateRows(rows, { trainingOnly: true, mask: {} }).model;
  const freeGain = fusedSpoofLogit(free, humid) - fusedSpoofLogit(free, live);
  assert.ok(freeGain > 0.1, `no mask: more hum gains ${freeGain}`);
});

test('evaluateRows: an arrival is scored by the same models, never trained on nor used for thresholds', () => {
  const d = VOICE_SPOOF_FEATURE_NAMES.length;
  // A sub-band value, which the first member reads (the LFCC means are in no member).
  const telling = VOICE_SPOOF_MEMBERS[0]?.columns[0] ?? 0;
  const kinds: CorpusKind[] = ['bonafide', 'bonafide', 'espeak', 'flite', 'replay'];
  const wavRows = Array.from({ length: 150 }, (_, i) => {
    const kind = kinds[i % kinds.length] ?? 'bonafide';
    const features = Array.from({ length: d }, (_, j) => Math.sin(i * 12.9898 + j * 78.233) * 0.8);
    if (kind !== 'bonafide') features[telling] = (features[telling] ?? 0) + 1.5;
    return { item: { kind, fold: i % 3, source: `s${i % 30}`, path: `p${i}`, recipe: 'r' }, features };
  });
  const copies = wavRows.map((row) => ({ ...row, features: [...row.features] }));
  const arrivalOf = (rows: typeof wavRows, label: string): Record<string, unknown> => {
    const figures = evaluateRows(wavRows, { trainingOnly: true, arrivals: [{ label, key: 'arrival', rows }] }).json
      .arrival;
    assert.ok(typeof figures === 'object' && figures !== null);
    return { ...figures };
  };
  const same = arrivalOf(copies, 'copy');
  assert.deepEqual(same.other, same.wav);
  // The same items with their bona fide moved toward the attacks (a codec that blurs what tells them apart).
  const blurred = wavRows.map((row) => ({
    ...row,
    features: row.features.map((v, j) => (j === telling && row.item.kind === 'bonafide' ? v + 1.2 : v)),
  }));
  const shifted = arrivalOf(blurred, 'blurred');
  assert.deepEqual(shifted.wav, same.wav, 'the WAV figures do not depend on the other arrival');
  const rejected = (counts: unknown): number =>
    typeof counts === 'object' && counts !== null && 'rejected' in counts && typeof counts.rejected === 'number'
      ? counts.rejected
      : Number.NaN;
  assert.ok(rejected(shifted.other) > rejected(shifted.wav), JSON.stringify(shifted));
  assert.throws(() => arrivalOf(copies.slice(1), 'short'));
});
