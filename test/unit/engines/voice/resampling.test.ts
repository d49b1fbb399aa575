import assert from 'node:assert/strict';
import { test } from 'node:test';
import { resample } from '../../../../src/engines/voice/resampling.js';
import { seededRandom } from '../../../../src/lib/seeded-random.js';
import { resampleWithSox, soxEffects, synthesizeSpeech } from '../../../helpers/speech.js';

function tone(frequency: number, rate: number, seconds: number, amplitude = 0.5): Float32Array {
  const out = new Float32Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++) out[i] = amplitude * Math.sin((2 * Math.PI * frequency * i) / rate);
  return out;
}

/** Largest difference over the middle of two signals (the ends see a truncated kernel). */
function interiorError(a: Float32Array, b: Float32Array, margin: number): number {
  let worst = 0;
  for (let i = margin; i < Math.min(a.length, b.length) - margin; i++) {
    worst = Math.max(worst, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  }
  return worst;
}

function rms(samples: Float32Array, margin: number): number {
  let sum = 0;
  for (let i = margin; i < samples.length - margin; i++) sum += (samples[i] ?? 0) ** 2;
  return Math.sqrt(sum / (samples.length - 2 * margin));
}

for (const rate of [8000, 11_025, 22_050, 44_100, 48_000, 44_101]) {
  test(`a 1 kHz tone at ${rate} Hz comes out as the same tone at 16 kHz`, () => {
    const input = tone(1000, rate, 0.5);
    const out = resample(input, rate, 16_000);
    assert.equal(out.length, Math.round((input.length * 16_000) / rate));
    assert.ok(interiorError(out, tone(1000, 16_000, 0.5), 400) < 2e-3);
  });
}

test('a tone above the output Nyquist frequency is removed, not folded into the speech band', () => {
  // 12 kHz at 48 kHz would alias to 4 kHz at full amplitude without the low-pass.
  const out = resample(tone(12_000, 48_000, 0.5), 48_000, 16_000);
  assert.ok(rms(out, 400) < 0.5 * 1e-4, `alias at ${rms(out, 400)}`); // -80 dB (measured -101 dB)
  const odd = resample(tone(9000, 44_100, 0.5), 44_100, 16_000);
  assert.ok(rms(odd, 400) < 0.5 * 1e-4, `alias at ${rms(odd, 400)}`);
});

test('speech resampled up by sox and back down by the resampler matches the original (> 40 dB SNR)', async () => {
  // Band-limited to 6 kHz first: the resampler's passband is flat to ~6.7 kHz and rolls off to 8 kHz.
  const speech = await soxEffects(await synthesizeSpeech({ text: 'seven three nine one' }), ['sinc', '-6000']);
  const up = await resampleWithSox(speech, 16_000, 44_100);
  const back = resample(up, 44_100, 16_000);
  let signal = 0;
  let noise = 0;
  for (let i = 400; i < speech.length - 400; i++) {
    signal += (speech[i] ?? 0) ** 2;
    noise += ((speech[i] ?? 0) - (back[i] ?? 0)) ** 2;
  }
  assert.ok(10 * Math.log10(signal / noise) > 40, `SNR ${10 * Math.log10(signal / noise)} dB`);
});

test('equal rates still low-pass: speech band kept, the top of the band removed, a new array; invalid rates throw', () => {
  // A 16 kHz upload must reach the analysis with the band a 48 kHz recording has after the way down.
  const speechBand = tone(1000, 16_000, 0.5);
  const kept = resample(speechBand, 16_000, 16_000);
  assert.equal(kept.length, speechBand.length);
  assert.notEqual(kept, speechBand);
  assert.ok(interiorError(kept, speechBand, 400) < 2e-3);
  const top = resample(tone(7800, 16_000, 0.5), 16_000, 16_000);
  const fromBrowser = resample(resample(tone(7800, 16_000, 0.5), 16_000, 48_000), 48_000, 16_000);
  assert.ok(rms(top, 400) < 0.5 * 0.01, `7.8 kHz at ${rms(top, 400)}`);
  assert.ok(rms(fromBrowser, 400) < 0.5 * 0.01, `7.8 kHz via 48 kHz at ${rms(fromBrowser, 400)}`);
  assert.throws(() => resample(speechBand, 0, 16_000), RangeError);
});

test('an output is the same to the bit whether computed in the interior (eight at a time) or near the end (alone)', () => {
  // Cutting the input after an output's last tap moves that output from the grouped interior loop into the
  // one-at-a-time loop at the end; both must sum the same products in the same order. The kernel reaches at
  // most 105 input samples either side at these rates, so outputs 128 inputs before the cut are whole.
  const random = seededRandom(5);
  for (const rate of [8000, 22_050, 44_100, 48_000]) {
    const input = Float32Array.from({ length: Math.round(rate * 0.4) }, () => random() - 0.5);
    const whole = resample(input, rate, 16_000);
    for (const cut of [0.9, 0.75, 0.6].map((share) => Math.round(input.length * share))) {
      const part = resample(input.subarray(0, cut), rate, 16_000);
      const complete = Math.floor(((cut - 128) * 16_000) / rate);
      let differing = 0;
      for (let n = 0; n < complete; n++) if (!Object.is(part[n], whole[n])) differing++;
      assert.equal(differing, 0, `${rate} Hz cut at ${cut}: ${differing} of ${complete} outputs differ`);
    }
  }
});
