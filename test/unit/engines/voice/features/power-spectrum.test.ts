import assert from 'node:assert/strict';
import { test } from 'node:test';
import { powerSpectrogram } from '../../../../../src/engines/voice/features/power-spectrum.js';

test('a 1 kHz tone peaks in the 1 kHz bin of every frame', () => {
  const rate = 16_000;
  const samples = new Float32Array(rate / 2);
  for (let i = 0; i < samples.length; i++) samples[i] = Math.sin((2 * Math.PI * 1000 * i) / rate);
  const spectrum = powerSpectrogram(samples, { sampleRate: rate, preEmphasis: 0 });
  assert.equal(spectrum.bins, 257);
  assert.equal(spectrum.frames, 1 + Math.floor((samples.length - 400) / 160));
  for (let f = 0; f < spectrum.frames; f++) {
    const row = spectrum.power.subarray(f * spectrum.bins, (f + 1) * spectrum.bins);
    const peak = row.indexOf(Math.max(...row));
    assert.equal(peak, 32); // 1000 Hz / (16000 Hz / 512)
  }
});

test('a signal shorter than one frame has no frames', () => {
  assert.equal(powerSpectrogram(new Float32Array(100), { sampleRate: 16_000 }).frames, 0);
});
