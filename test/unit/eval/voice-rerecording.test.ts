import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  ACROSS_ROOM,
  convolve,
  HELD_CLOSE,
  imageSourceImpulseResponse,
  rerecord,
  SPEED_OF_SOUND,
  type Room,
} from '../../../eval/voice-rerecording.js';

const RATE = 16_000;
// Direct path 2.236 m; the floor image (z → −1.2 m, one reflection) 3.280 m; every other image ≥ 4.1 m.
const ROOM: Room = { size: [5, 4, 3], source: [1, 1.5, 1.2], microphone: [3, 2.5, 1.2], absorption: 0.5, length: 0.4 };

const sum = (values: Float64Array, from: number, to: number): number => {
  let total = 0;
  for (let i = from; i <= to; i++) total += values[i] ?? 0;
  return total;
};
const energy = (values: Float64Array, from: number, to: number): number => {
  let total = 0;
  for (let i = from; i < to; i++) total += (values[i] ?? 0) ** 2;
  return total;
};

test('imageSourceImpulseResponse: direct path at distance / c with 1/(4πd), the floor reflection β/(4πd) after it', () => {
  const rir = imageSourceImpulseResponse(ROOM, RATE);
  assert.equal(rir.length, 0.4 * RATE);
  const direct = Math.hypot(2, 1, 0);
  const directDelay = (direct / SPEED_OF_SOUND) * RATE; // 104.3 samples
  // Nothing arrives before the direct sound (beyond the interpolation kernel's 8 samples).
  assert.equal(energy(rir, 0, Math.floor(directDelay) - 8), 0);
  let peak = 0;
  for (let i = 0; i < 140; i++) if (Math.abs(rir[i] ?? 0) > Math.abs(rir[peak] ?? 0)) peak = i;
  assert.equal(peak, Math.round(directDelay));
  // The windowed sinc keeps the image's whole gain (its taps sum to ~1).
  assert.ok(Math.abs(sum(rir, peak - 8, peak + 8) * 4 * Math.PI * direct - 1) < 0.03);
  const floor = Math.hypot(2, 1, 2.4);
  const floorDelay = Math.round((floor / SPEED_OF_SOUND) * RATE); // 153 samples
  const floorGain = sum(rir, floorDelay - 8, floorDelay + 8) * 4 * Math.PI * floor;
  assert.ok(Math.abs(floorGain - Math.sqrt(1 - ROOM.absorption)) < 0.03, `floor gain ${floorGain}`);
  // Quiet between the floor reflection and the next image (≥ 4.1 m, ≥ 191 samples).
  assert.ok(energy(rir, floorDelay + 9, 185) < 1e-8);
});

test('imageSourceImpulseResponse: energy decays, faster with more absorption; deterministic', () => {
  const tenths = (rir: Float64Array): number[] =>
    [0, 1, 2, 3].map((k) => energy(rir, (k * RATE) / 10, ((k + 1) * RATE) / 10));
  const live = tenths(imageSourceImpulseResponse({ ...ROOM, absorption: 0.2 }, RATE));
  const dead = tenths(imageSourceImpulseResponse({ ...ROOM, absorption: 0.7 }, RATE));
  for (let k = 1; k < 4; k++) {
    assert.ok((live[k] ?? 0) < (live[k - 1] ?? 0), `live ${live.join(', ')}`);
    assert.ok((dead[k] ?? 0) < (dead[k - 1] ?? 0), `dead ${dead.join(', ')}`);
  }
  // Late-to-early energy ratio: a damped room loses its tail faster.
  assert.ok((dead[3] ?? 0) / (dead[0] ?? 1) < (live[3] ?? 0) / (live[0] ?? 1) / 10);
  assert.deepEqual(imageSourceImpulseResponse(ROOM, RATE), imageSourceImpulseResponse(ROOM, RATE));
});

test('convolve: the FFT convolution equals the direct sum', () => {
  const signal = Float64Array.from({ length: 50 }, (_, i) => Math.sin(i * 1.7) + (i % 7) / 7);
  const kernel = Float64Array.of(0.5, -0.25, 0, 0.125, 1);
  const fast = convolve(signal, kernel);
  assert.equal(fast.length, signal.length);
  for (let n = 0; n < signal.length; n++) {
    let direct = 0;
    for (let k = 0; k < kernel.length; k++) direct += (kernel[k] ?? 0) * (signal[n - k] ?? 0);
    assert.ok(Math.abs((fast[n] ?? 0) - direct) < 1e-9);
  }
});

test('rerecord: deterministic by seed, a different seed a different chain; same length, within full scale', () => {
  const speech = Float32Array.from(
    { length: RATE },
    (_, i) => 0.3 * Math.sin((2 * Math.PI * 180 * i) / RATE) * Math.sin((2 * Math.PI * 3 * i) / RATE),
  );
  const babble = [Float32Array.from({ length: 4000 }, (_, i) => 0.1 * Math.sin(i * 0.05))];
  const a = rerecord(speech, 7, babble);
  const b = rerecord(speech, 7, babble);
  const c = rerecord(speech, 8, babble);
  assert.deepEqual(a.samples, b.samples);
  assert.equal(a.recipe, b.recipe);
  assert.notEqual(a.recipe, c.recipe);
  assert.equal(a.samples.length, speech.length);
  const peak = a.samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  assert.ok(peak <= 10 ** (-1 / 20) + 1e-6 && peak >= 10 ** (-6 / 20) - 1e-6, `peak ${peak}`);
  assert.ok(a.samples.every((v) => Number.isFinite(v)));
});

test('rerecord: the microphone is drawn across the room by default and 5-35 cm away when held close', () => {
  const speech = Float32Array.from({ length: RATE / 2 }, (_, i) => 0.3 * Math.sin((2 * Math.PI * 150 * i) / RATE));
  const distanceOf = (recipe: string): number => Number(/distance ([\d.]+) m/.exec(recipe)?.[1]);
  for (let seed = 1; seed <= 8; seed++) {
    assert.equal(rerecord(speech, seed).recipe, rerecord(speech, seed, [], ACROSS_ROOM).recipe);
    const close = distanceOf(rerecord(speech, seed, [], HELD_CLOSE).recipe);
    // The recipe rounds to centimetres.
    assert.ok(close >= HELD_CLOSE[0] - 0.005 && close <= HELD_CLOSE[1] + 0.005, `seed ${seed}: ${close} m`);
  }
  const across = [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => distanceOf(rerecord(speech, seed).recipe));
  assert.ok(Math.max(...across) > HELD_CLOSE[1], `across the room: ${across.join(', ')} m`);
});
