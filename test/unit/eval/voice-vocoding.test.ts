import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vocode } from '../../../eval/voice-vocoding.js';
import { harmonicity } from '../../../src/engines/voice/spoof-cues/harmonicity.js';

const RATE = 16_000;

/**
 * A voiced vowel: one pulse per glottal cycle at a smoothly moving F0 (120 Hz, ±0.2 octave at 1.5 Hz: a
 * contour curved at the scale of intonation), through two resonances (formants at 700 and 1200 Hz).
 */
function vowel(seconds: number): Float32Array {
  const out = new Float32Array(seconds * RATE);
  let phase = 0;
  for (let i = 0; i < out.length; i++) {
    const before = phase;
    phase += (120 * 2 ** (0.2 * Math.sin((2 * Math.PI * 1.5 * i) / RATE))) / RATE;
    out[i] = Math.floor(phase) > Math.floor(before) ? 1 : 0;
  }
  for (const [hz, bandwidth] of [
    [700, 80],
    [1200, 90],
  ] as const) {
    const r = Math.exp((-Math.PI * bandwidth) / RATE);
    const a1 = 2 * r * Math.cos((2 * Math.PI * hz) / RATE);
    const a2 = -r * r;
    let y1 = 0;
    let y2 = 0;
    for (let i = 0; i < out.length; i++) {
      const y = (out[i] ?? 0) + a1 * y1 + a2 * y2;
      y2 = y1;
      y1 = y;
      out[i] = y;
    }
  }
  let peak = 0;
  for (const v of out) peak = Math.max(peak, Math.abs(v));
  return out.map((v) => (0.5 * v) / peak);
}

test('vocode td-psola: the same cycles on straight lines between F0 targets, so the contour loses its curvature', () => {
  const input = vowel(3);
  const cues = harmonicity(input);
  assert.ok(cues.curvatureScale > 1.4, `input curved at the intonation scale ${cues.curvatureScale}`);
  const medianF0 = (periods: Float64Array): number => {
    const voiced = [...periods].filter((p) => p > 0).sort((a, b) => a - b);
    return RATE / (voiced[Math.floor(voiced.length / 2)] ?? 1);
  };
  const scales: number[] = [];
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    const output = vocode(input, 'td-psola', seed);
    assert.equal(output.length, input.length);
    assert.deepEqual(vocode(input, 'td-psola', seed), output, 'deterministic for a seed');
    const resynthesised = harmonicity(output);
    scales.push(resynthesised.curvatureScale);
    // The targets are the input's own F0, moved by at most ±8% and the item's factor (0.9-1.1).
    const ratio = medianF0(resynthesised.periods) / medianF0(cues.periods);
    assert.ok(ratio > 0.8 && ratio < 1.25, `seed ${seed}: median F0 ratio ${ratio}`);
  }
  // Targets 80-280 ms apart: the denser ones keep some curvature at 40 ms, the sparser ones next to none.
  const mean = scales.reduce((sum, v) => sum + v, 0) / scales.length;
  assert.ok(
    mean < 0.8 && Math.max(...scales) < cues.curvatureScale - 0.2,
    `lines between targets ${scales.join(', ')}`,
  );
});
