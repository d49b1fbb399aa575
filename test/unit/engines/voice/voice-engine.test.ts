import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { VoiceEngine } from '../../../../src/engines/voice/voice-engine.js';
import { VoiceSampleError } from '../../../../src/engines/voice/voice-sample-error.js';
import { oggOpusFile, padSilence, synthesizeSpeech, wavFile } from '../../../helpers/speech.js';

describe('VoiceEngine', () => {
  let engine: VoiceEngine;
  let speech: Float32Array;

  before(async () => {
    engine = VoiceEngine.start({ workers: 1 });
    [speech] = await Promise.all([synthesizeSpeech({ text: 'one two three four five' }), engine.warm()]);
  });

  after(async () => {
    await engine.close();
  });

  it('measures a WAV and an Ogg/Opus sample in a worker: duration, speech, format', async () => {
    const padded = padSilence(speech, 1, 1);
    const wav = await engine.measure(wavFile(padded, 16_000, 16));
    assert.equal(wav.format, 'wav');
    assert.ok(Math.abs(wav.durationSeconds - padded.length / 16_000) < 1e-9);
    assert.ok(wav.speechSeconds > speech.length / 16_000 - 0.5 && wav.speechSeconds < speech.length / 16_000 + 0.2);
    assert.equal(wav.clippedShare, 0);
    const ogg = await engine.measure(await oggOpusFile(padded));
    assert.equal(ogg.format, 'ogg-opus');
    assert.ok(Math.abs(ogg.speechSeconds - wav.speechSeconds) < 0.15);
  });

  it('rejects unusable samples with the VoiceSampleError reason from the worker', async () => {
    for (const [bytes, reason] of [
      [new TextEncoder().encode('not audio at all'), 'undecodable'],
      [new Uint8Array(), 'empty'],
    ] as const) {
      await assert.rejects(engine.measure(bytes), (error: unknown) => {
        assert.ok(error instanceof VoiceSampleError);
        assert.equal(error.reason, reason);
        return true;
      });
    }
  });

  it('answers queued samples first come, first served', async () => {
    const settled: number[] = [];
    const bytes = wavFile(speech, 16_000, 16);
    await Promise.all(Array.from({ length: 6 }, (_, i) => engine.measure(bytes).then(() => settled.push(i))));
    assert.deepEqual(settled, [0, 1, 2, 3, 4, 5]);
    assert.equal(engine.workers, 1);
  });

  it('lets a task in flight finish when it is closed, instead of terminating its worker mid-inference', async () => {
    // A request over several samples answers as soon as one is refused while another still runs; a server
    // stopped then used to terminate that worker inside an onnxruntime call, which aborts the process.
    const closing = VoiceEngine.start({ workers: 1 });
    await closing.warm();
    const running = closing.measure(wavFile(padSilence(speech, 2, 2), 16_000, 16));
    await closing.close();
    const measured = await running;
    assert.ok(measured.speechSeconds > 0);
  });
});
