import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { captureInRoom, soxRoomCapture } from '../../../eval/voice-room-capture.js';
import { wavBytes } from '../../../eval/voice-spoof-corpus.js';

const RATE = 16_000;
// One second of a voiced-like tone burst, then one second of silence.
const speech = Float32Array.from({ length: 2 * RATE }, (_, i) =>
  i < RATE ? 0.3 * Math.sin((2 * Math.PI * 180 * i) / RATE) * (0.6 + 0.4 * Math.sin((2 * Math.PI * 4 * i) / RATE)) : 0,
);

const rmsDb = (x: Float32Array, from: number, to: number): number => {
  let sum = 0;
  for (let i = from; i < to; i++) sum += (x[i] ?? 0) ** 2;
  return 10 * Math.log10(sum / (to - from) + 1e-20);
};

test('captureInRoom: deterministic by seed; a talker 0.2-1.5 m away, the pause under the speech by the background', () => {
  const a = captureInRoom(speech, 11);
  assert.deepEqual(a.samples, captureInRoom(speech, 11).samples);
  assert.notEqual(a.recipe, captureInRoom(speech, 12).recipe);
  assert.equal(a.samples.length, speech.length);
  for (let seed = 1; seed <= 6; seed++) {
    const { samples, recipe } = captureInRoom(speech, seed);
    const reach = Number(/microphone ([\d.]+) m/.exec(recipe)?.[1]);
    assert.ok(reach >= 0.2 && reach <= 1.5, recipe);
    // The last half second, after the reverberation tail: background and self-noise only, drawn 15-40 dB under
    // the speech (measured over the whole sample, so the pause sits a little further down).
    const pause = rmsDb(samples, 1.5 * RATE, 2 * RATE) - rmsDb(samples, 0, RATE);
    assert.ok(pause < -12 && pause > -50, `${recipe}: pause ${pause.toFixed(1)} dB`);
    assert.ok(samples.every((v) => Number.isFinite(v) && Math.abs(v) < 1));
  }
});

test('captureInRoom: the background is babble, brown noise or white hiss, and hiss fills the upper band', () => {
  const babble = [speech.map((v, i) => v * Math.sin(i / 50))];
  // The share of the pause's power in its first difference: about 2 for white noise, near 0 for brown noise.
  const roughness = (x: Float32Array): number => {
    let power = 0;
    let differences = 0;
    for (let i = 1.6 * RATE; i < 2 * RATE; i++) {
      power += (x[i] ?? 0) ** 2;
      differences += ((x[i] ?? 0) - (x[i - 1] ?? 0)) ** 2;
    }
    return differences / power;
  };
  const byBackground = new Map<string, number[]>();
  for (let seed = 1; seed <= 24; seed++) {
    const { samples, recipe } = captureInRoom(speech, seed, babble);
    const background = /(babble|brown noise|white noise)/.exec(recipe)?.[1] ?? 'none';
    byBackground.set(background, [...(byBackground.get(background) ?? []), roughness(samples)]);
  }
  assert.deepEqual([...byBackground.keys()].sort(), ['babble', 'brown noise', 'white noise']);
  const white = Math.min(...(byBackground.get('white noise') ?? []));
  const brown = Math.max(...(byBackground.get('brown noise') ?? []));
  assert.ok(white > 1 && brown < 0.5 && white > 3 * brown, `white ${white.toFixed(3)}, brown ${brown.toFixed(3)}`);
});

test('soxRoomCapture: repeatable by seed; reverberation fills the start of the pause above the noise', () => {
  const dir = mkdtempSync(join(tmpdir(), 'veriport-room-'));
  try {
    const path = join(dir, 'speech.wav');
    writeFileSync(path, wavBytes(speech, RATE));
    const a = soxRoomCapture(path, 3);
    assert.deepEqual(a.samples, soxRoomCapture(path, 3).samples);
    assert.match(a.recipe, /^sox reverb .*(pinknoise|brownnoise) at [\d.]+ dB under the speech$/);
    assert.ok(a.samples.length >= speech.length);
    for (let seed = 1; seed <= 4; seed++) {
      const { samples, recipe } = soxRoomCapture(path, seed);
      const tail = rmsDb(samples, RATE + 160, RATE + 1600); // 10-100 ms after the speech stops
      const late = rmsDb(samples, 1.7 * RATE, 1.95 * RATE);
      assert.ok(tail > late + 3, `${recipe}: tail ${tail.toFixed(1)} dB, late ${late.toFixed(1)} dB`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
