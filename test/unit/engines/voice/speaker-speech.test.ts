import assert from 'node:assert/strict';
import { test } from 'node:test';
import { speakerSpeech } from '../../../../src/engines/voice/speaker-speech.js';
import type { SpeechActivity } from '../../../../src/engines/voice/voice-activity.js';

function activity(flags: number[]): SpeechActivity {
  const speech = Uint8Array.from(flags);
  return {
    frameSamples: 512,
    frameSeconds: 0.032,
    speech,
    probability: new Float32Array(flags.length),
    speechSeconds: (flags.filter((f) => f === 1).length * 512) / 16_000,
    activations: new Float32Array(flags.length * 64),
    firstLayer: new Float32Array(flags.length * 64),
  };
}

test('speaker speech keeps the speech frames and a margin on each side, nothing else', () => {
  // Frame f holds the value f, so the kept frames can be read back.
  const samples = Float32Array.from({ length: 12 * 512 }, (_, i) => Math.floor(i / 512));
  const kept = speakerSpeech(samples, activity([0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1]), 2);
  const frames = [...new Set(kept)];
  assert.deepEqual(frames, [3, 4, 5, 6, 7, 9, 10, 11]);
  assert.equal(kept.length, 8 * 512);
  assert.equal(speakerSpeech(samples, activity(new Array<number>(12).fill(0))).length, 0);
});
