import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  appendDeltas,
  energeticFrames,
  normaliseMeanVariance,
  selectFrames,
} from '../../../../../src/engines/voice/features/feature-matrix.js';
import { lfcc, linearFilterbank } from '../../../../../src/engines/voice/features/lfcc.js';
import { hzToMel, melFilterbank, melToHz } from '../../../../../src/engines/voice/features/mel-filterbank.js';
import { mfcc } from '../../../../../src/engines/voice/features/mfcc.js';
import { powerSpectrogram } from '../../../../../src/engines/voice/features/power-spectrum.js';

const RATE = 16_000;

function tone(hz: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(RATE * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * hz * i) / RATE);
  return out;
}

test('mel scale: 1000 Hz is about 1000 mel and the inverse round-trips', () => {
  assert.ok(Math.abs(hzToMel(1000) - 1000) < 1);
  assert.ok(Math.abs(melToHz(hzToMel(3210)) - 3210) < 1e-6);
});

test('mel filters are triangles that rise and fall inside the band and cover it in order', () => {
  const bank = melFilterbank({ sampleRate: RATE, fftLength: 512, filters: 40, lowHz: 20, highHz: 7600 });
  assert.equal(bank.length, 40);
  let previousStart = -1;
  for (const { firstBin, weights } of bank) {
    assert.ok(firstBin > previousStart, 'filters start in increasing order');
    previousStart = firstBin;
    assert.ok(firstBin + weights.length - 1 <= 7600 / (RATE / 512) + 1);
    assert.ok(Math.max(...weights) <= 1 && Math.min(...weights) >= 0);
  }
  assert.throws(
    () => melFilterbank({ sampleRate: RATE, fftLength: 512, filters: 10, lowHz: 20, highHz: 9000 }),
    RangeError,
  );
});

test('MFCC: 20 coefficients per 10 ms frame, finite on silence, and a pitch change changes the cepstrum', () => {
  const low = mfcc(tone(300, 0.5));
  const high = mfcc(tone(2500, 0.5));
  assert.equal(low.dims, 20);
  assert.equal(low.frames, 1 + Math.floor((8000 - 400) / 160));
  assert.equal(low.logEnergy.length, low.frames);
  const silent = mfcc(new Float32Array(RATE / 4));
  assert.ok(silent.values.every(Number.isFinite));
  let distance = 0;
  for (let c = 1; c < 20; c++) distance += ((low.values[c] ?? 0) - (high.values[c] ?? 0)) ** 2;
  assert.ok(distance > 1, `cepstra of 300 Hz and 2.5 kHz tones differ (distance² ${distance})`);
});

test('deltas of a linear ramp are its slope; CMVN gives zero mean and unit variance', () => {
  const frames = 20;
  const ramp = { frames, dims: 1, values: Float32Array.from({ length: frames }, (_, i) => 3 * i) };
  const withDeltas = appendDeltas(ramp);
  assert.equal(withDeltas.dims, 2);
  for (let f = 2; f < frames - 2; f++) assert.ok(Math.abs((withDeltas.values[f * 2 + 1] ?? 0) - 3) < 1e-5);
  const normalised = normaliseMeanVariance({ frames, dims: 1, values: Float32Array.from(ramp.values) });
  const mean = normalised.values.reduce((s, v) => s + v, 0) / frames;
  const variance = normalised.values.reduce((s, v) => s + (v - mean) ** 2, 0) / frames;
  assert.ok(Math.abs(mean) < 1e-5);
  assert.ok(Math.abs(variance - 1) < 1e-4);
});

test('energetic frames drop the quiet ones; selectFrames keeps the flagged rows in order', () => {
  const logEnergy = Float32Array.of(0, 0, 0, -20, 0, -1);
  const keep = energeticFrames(logEnergy, 30); // 30 dB = 6.9 natural-log units
  assert.deepEqual([...keep], [1, 1, 1, 0, 1, 1]);
  const matrix = { frames: 6, dims: 1, values: Float32Array.of(1, 2, 3, 4, 5, 6) };
  assert.deepEqual([...selectFrames(matrix, keep).values], [1, 2, 3, 5, 6]);
  assert.throws(() => selectFrames(matrix, new Uint8Array(2)), RangeError);
});

test('mfcc and lfcc are the plain filterbank, log and DCT, one cepstrum at a time, to the bit', () => {
  const signal = tone(220, 0.5);
  for (let i = 0; i < signal.length; i++) signal[i] = (signal[i] ?? 0) + 0.3 * Math.sin(i * i * 1e-5);
  const spectrum = powerSpectrogram(signal, { sampleRate: RATE });
  const { frames, bins, power } = spectrum;
  // What mfcc and lfcc compute, written the plain way (mfcc keeps its log energies and DCT in float32).
  const plain = (
    bank: readonly { firstBin: number; weights: Float32Array }[],
    count: number,
    floor: (e: number) => number,
    store: (values: number[]) => ArrayLike<number>,
  ): number[] => {
    const out: number[] = [];
    const dct = store(
      Array.from({ length: count * bank.length }, (_, i) => {
        const [c, m] = [Math.floor(i / bank.length), i % bank.length];
        return Math.sqrt((c === 0 ? 1 : 2) / bank.length) * Math.cos((Math.PI * c * (m + 0.5)) / bank.length);
      }),
    );
    for (let f = 0; f < frames; f++) {
      const logs = store(
        bank.map(({ firstBin, weights }) => {
          let e = 0;
          weights.forEach((w, j) => (e += w * (power[f * bins + firstBin + j] ?? 0)));
          return floor(e);
        }),
      );
      for (let c = 0; c < count; c++) {
        let sum = 0;
        for (let m = 0; m < bank.length; m++) sum += (dct[c * bank.length + m] ?? 0) * (logs[m] ?? 0);
        out.push(sum);
      }
    }
    return out;
  };
  for (const count of [20, 13]) {
    const bank = melFilterbank({ sampleRate: RATE, fftLength: 512, filters: 40, lowHz: 20, highHz: 7600 });
    const expected = plain(
      bank,
      count,
      (e) => Math.log(e + 1e-10),
      (values) => Float32Array.from(values),
    );
    assert.deepEqual(Array.from(mfcc(signal, { coefficients: count }).values), Array.from(Float32Array.from(expected)));
  }
  for (const count of [30, 17]) {
    const bank = linearFilterbank({ sampleRate: RATE, fftLength: 512, filters: 35, lowHz: 0, highHz: 7000 });
    const expected = plain(
      bank,
      count,
      (e) => Math.log(Math.max(e, 1e-10)),
      (values) => values,
    );
    const actual = lfcc(spectrum, { filters: 35, coefficients: count, highHz: 7000 });
    assert.deepEqual(Array.from(actual.values), Array.from(Float32Array.from(expected)));
  }
});
