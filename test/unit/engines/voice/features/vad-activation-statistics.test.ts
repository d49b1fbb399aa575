import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  VAD_ACTIVATION_STATISTIC_NAMES,
  VAD_STATISTICS_PER_REPRESENTATION,
  vadActivationStatistics,
} from '../../../../../src/engines/voice/features/vad-activation-statistics.js';
import { detectSpeech, VAD_ACTIVATIONS, type SpeechActivity } from '../../../../../src/engines/voice/voice-activity.js';
import { padSilence, synthesizeSpeech } from '../../../../helpers/speech.js';

/**
 * An activity of `flags` frames whose activation k in frame f is `value(f, k)` and whose first-layer output
 * is `first(f, k)` (the negated activation unless given).
 */
function activity(
  flags: number[],
  value: (f: number, k: number) => number,
  first: (f: number, k: number) => number = (f, k) => -value(f, k),
): SpeechActivity {
  const activations = new Float32Array(flags.length * VAD_ACTIVATIONS);
  const firstLayer = new Float32Array(flags.length * VAD_ACTIVATIONS);
  flags.forEach((_, f) => {
    for (let k = 0; k < VAD_ACTIVATIONS; k++) {
      activations[f * VAD_ACTIVATIONS + k] = value(f, k);
      firstLayer[f * VAD_ACTIVATIONS + k] = first(f, k);
    }
  });
  return {
    frameSamples: 512,
    frameSeconds: 0.032,
    speech: Uint8Array.from(flags),
    probability: new Float32Array(flags.length),
    speechSeconds: 0,
    activations,
    firstLayer,
  };
}

test('the mean and deviation of each unit over the speech frames only, means first, activations then first layer', () => {
  // Speech frames 1 and 3 hold k and 3k (first layer: 5 and 5 + 2k); the silent frames hold 100, which must
  // not count.
  const stats = vadActivationStatistics(
    activity(
      [0, 1, 0, 1],
      (f, k) => (f === 1 ? k : f === 3 ? 3 * k : 100),
      (f, k) => (f === 1 ? 5 : f === 3 ? 5 + 2 * k : 100),
    ),
  );
  assert.equal(stats.length, VAD_ACTIVATION_STATISTIC_NAMES.length);
  assert.equal(stats.length, 2 * VAD_STATISTICS_PER_REPRESENTATION);
  assert.equal(VAD_STATISTICS_PER_REPRESENTATION, 2 * VAD_ACTIVATIONS);
  const second = VAD_STATISTICS_PER_REPRESENTATION;
  for (const k of [0, 1, 7, 63]) {
    assert.ok(Math.abs((stats[k] ?? NaN) - 2 * k) < 1e-9, `mean ${k}`);
    assert.ok(Math.abs((stats[VAD_ACTIVATIONS + k] ?? NaN) - k) < 1e-6, `deviation ${k}`);
    assert.ok(Math.abs((stats[second + k] ?? NaN) - (5 + k)) < 1e-9, `first-layer mean ${k}`);
    assert.ok(Math.abs((stats[second + VAD_ACTIVATIONS + k] ?? NaN) - k) < 1e-6, `first-layer deviation ${k}`);
  }
  assert.equal(VAD_ACTIVATION_STATISTIC_NAMES[0], 'vadActivation.mean.0');
  assert.equal(VAD_ACTIVATION_STATISTIC_NAMES[VAD_ACTIVATIONS], 'vadActivation.std.0');
  assert.equal(VAD_ACTIVATION_STATISTIC_NAMES[second], 'vadFirstLayer.mean.0');
  assert.equal(VAD_ACTIVATION_STATISTIC_NAMES[second + VAD_ACTIVATIONS], 'vadFirstLayer.std.0');
});

test('with no speech frame every frame counts; with no frame at all the statistics are zero', () => {
  const stats = vadActivationStatistics(activity([0, 0], (f) => f));
  assert.equal(stats[0], 0.5);
  assert.equal(stats[VAD_ACTIVATIONS], 0.5);
  assert.equal(stats[VAD_STATISTICS_PER_REPRESENTATION], -0.5);
  assert.ok(vadActivationStatistics(activity([], () => 1)).every((v) => v === 0));
});

test('the voice activity pass gives 64 activations per frame, and speech drives them unlike silence', async () => {
  const samples = padSilence(await synthesizeSpeech({ text: 'please verify my identity today' }), 1, 1);
  const detected = await detectSpeech(samples);
  assert.equal(detected.activations.length, detected.speech.length * VAD_ACTIVATIONS);
  assert.ok(
    detected.activations.every((v) => Number.isFinite(v) && v >= 0),
    'ReLU outputs',
  );
  const meanOf = (frame: number): number => {
    let sum = 0;
    for (let k = 0; k < VAD_ACTIVATIONS; k++) sum += detected.activations[frame * VAD_ACTIVATIONS + k] ?? 0;
    return sum / VAD_ACTIVATIONS;
  };
  const speechFrame = detected.speech.indexOf(1) + 5;
  // The first frames are silence: the activations there differ from those inside the phrase.
  let distance = 0;
  for (let k = 0; k < VAD_ACTIVATIONS; k++)
    distance += Math.abs(
      (detected.activations[speechFrame * VAD_ACTIVATIONS + k] ?? 0) -
        (detected.activations[5 * VAD_ACTIVATIONS + k] ?? 0),
    );
  assert.ok(distance > 0.1 * VAD_ACTIVATIONS * Math.max(meanOf(speechFrame), meanOf(5), 1e-3), `${distance}`);
});

test('the voice activity pass gives the first LSTM layer’s 64 outputs per frame, bounded by its tanh', async () => {
  const samples = padSilence(await synthesizeSpeech({ text: 'please verify my identity today' }), 1, 1);
  const detected = await detectSpeech(samples);
  const { firstLayer } = detected;
  assert.equal(firstLayer.length, detected.speech.length * VAD_ACTIVATIONS);
  assert.ok(
    firstLayer.every((v) => Number.isFinite(v) && Math.abs(v) < 1),
    'LSTM outputs lie in (-1, 1)',
  );
  assert.ok(
    firstLayer.some((v) => v < -0.05),
    'not a ReLU output: some are negative',
  );
  const speechFrame = detected.speech.indexOf(1) + 5;
  let distance = 0;
  for (let k = 0; k < VAD_ACTIVATIONS; k++)
    distance += Math.abs(
      (firstLayer[speechFrame * VAD_ACTIVATIONS + k] ?? 0) - (firstLayer[5 * VAD_ACTIVATIONS + k] ?? 0),
    );
  assert.ok(distance > 0.05 * VAD_ACTIVATIONS, `speech and silence alike: ${distance}`);
});
