import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { closeBatteryReplays, readCorpusWav, wavBytes, type CorpusItem } from '../../../eval/voice-spoof-corpus.js';

const RATE = 16_000;
const speech = Float32Array.from({ length: 2 * RATE }, (_, i) =>
  i < 1.5 * RATE
    ? 0.3 * Math.sin((2 * Math.PI * 180 * i) / RATE) * (0.6 + 0.4 * Math.sin((2 * Math.PI * 4 * i) / RATE))
    : 0,
);

/** The power at `frequency` (Goertzel) over the mean power 20-40 Hz either side of it, in dB. */
function lineOverNeighbours(x: Float32Array, frequency: number): number {
  const power = (f: number): number => {
    const c = 2 * Math.cos((2 * Math.PI * f) / RATE);
    let s1 = 0;
    let s2 = 0;
    for (const v of x) {
      const s0 = v + c * s1 - s2;
      s2 = s1;
      s1 = s0;
    }
    return s1 * s1 + s2 * s2 - c * s1 * s2;
  };
  const neighbours = [-40, -30, -20, 20, 30, 40].map((d) => power(frequency + d));
  return 10 * Math.log10(power(frequency) / (neighbours.reduce((a, b) => a + b, 0) / neighbours.length));
}

test('closeBatteryReplays: the replays again without mains hum and with the direct sound over the room', () => {
  const dir = mkdtempSync(join(tmpdir(), 'veriport-close-'));
  try {
    const path = join(dir, 'speech.wav');
    writeFileSync(path, wavBytes(speech, RATE));
    const bonafide: CorpusItem[] = [0, 1, 2].map((k) => ({
      kind: 'bonafide',
      source: `ls-${k}`,
      fold: k,
      path,
      recipe: 'test',
    }));
    const replays: CorpusItem[] = bonafide.map((item, k) => ({ ...item, kind: 'replay', path: `replay-${k}.wav` }));
    const close = closeBatteryReplays([...bonafide, ...replays], dir);
    assert.equal(close.length, 3);
    for (const [k, item] of close.entries()) {
      assert.equal(item.kind, 'replay');
      assert.equal(item.source, `ls-${k}`);
      assert.equal(item.fold, k);
      assert.match(item.recipe, /reverb( -?[\d.]+){6} channels 1; no hum; pink noise/);
      const wet = Number(/reverb(?: -?[\d.]+){5} (-?[\d.]+)/.exec(item.recipe)?.[1]);
      assert.ok(wet >= -10 && wet <= -4, item.recipe);
      const samples = readCorpusWav(item.path);
      // No line at 50 or 60 Hz over the noise beside it (the mains chain's hum stands far above it).
      const hum = Math.max(lineOverNeighbours(samples, 50), lineOverNeighbours(samples, 60));
      assert.ok(hum < 6, `${item.recipe}: ${hum.toFixed(1)} dB`);
    }
    // Cached: the same paths read back without being made again.
    assert.deepEqual(
      closeBatteryReplays([...bonafide, ...replays], dir).map((item) => item.recipe),
      ['cached', 'cached', 'cached'],
    );
    assert.throws(() => closeBatteryReplays([...bonafide, ...replays.reverse()], dir), /one per bona fide item/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
