import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { exportedTemplateSealer } from '../../../../src/crypto/exported-template-sealing.js';
import { VoiceSampleError } from '../../../../src/engines/voice/voice-sample-error.js';
import type { VoiceTemplateOutput } from '../../../../src/engines/voice/voice-templating.js';
import { ApiError } from '../../../../src/server/errors/api-error.js';
import {
  algorithmOf,
  sampleTypesOf,
  voiceVectors,
  type VoiceTemplater,
} from '../../../../src/services/voice-matching/voice-samples.js';

const measurement = (speechSeconds: number) => ({
  durationSeconds: speechSeconds + 1,
  speechSeconds,
  clippedShare: 0,
  format: 'wav' as const,
  sourceSampleRate: 16_000,
  sourceChannels: 1,
});

/** A fake engine: the first byte of a sample is its seconds of speech, its second the axis of its vector. */
const engine: VoiceTemplater = {
  template(sample, algorithms, minSpeechSeconds): Promise<VoiceTemplateOutput> {
    const [speech = 0, axis = 0] = sample;
    if (sample.length === 0) return Promise.reject(new VoiceSampleError('empty', 'voice sample has no bytes'));
    const floor = Math.max(minSpeechSeconds, 0.25);
    if (speech < floor) return Promise.resolve({ measurement: measurement(speech), minSpeechSeconds: floor });
    const vectors: Record<string, Float32Array> = {};
    for (const a of algorithms) {
      const v = new Float32Array(4);
      v[axis] = 1;
      vectors[a] = v;
    }
    return Promise.resolve({ measurement: measurement(speech), vectors, minSpeechSeconds: floor });
  },
};
const exports = exportedTemplateSealer(randomBytes(32));
const data = (speech: number, axis: number) => Buffer.from([speech, axis]).toString('base64');
const refused = (code: number, pattern: RegExp) => (error: unknown) =>
  error instanceof ApiError && error.statusCode === 400 && error.code === code && pattern.test(error.description);

describe('voice matching samples', () => {
  it('reads the algorithm and either spelling of the sample-type list', () => {
    assert.equal(algorithmOf(undefined), 'V600');
    assert.equal(algorithmOf({ comparator: { algorithm: 'V900' } }), 'V900');
    assert.throws(() => algorithmOf({ comparator: { algorithm: 'F500' } }), refused(-6, /V600, V900/));
    assert.deepEqual(sampleTypesOf({ comparator: { algorithm: 'V600', voiceSampleTypes: ['STATIC_PHRASE'] } }), [
      'STATIC_PHRASE',
    ]);
    assert.deepEqual(sampleTypesOf({ comparator: { algorithm: 'V600', voiceSampleType: ['TEXT_INDEPENDENT'] } }), [
      'TEXT_INDEPENDENT',
    ]);
    const both = ['STATIC_PHRASE', 'TEXT_INDEPENDENT'];
    assert.deepEqual(
      sampleTypesOf({
        comparator: { algorithm: 'V600', voiceSampleTypes: both, voiceSampleType: [...both].reverse() },
      }),
      both,
    );
    assert.throws(
      () =>
        sampleTypesOf({
          comparator: { algorithm: 'V600', voiceSampleTypes: both, voiceSampleType: ['STATIC_PHRASE'] },
        }),
      refused(-6, /differ/),
    );
    assert.throws(
      () => sampleTypesOf({ comparator: { algorithm: 'V600', voiceSampleType: [] } }),
      refused(-6, /at least one/),
    );
    assert.throws(
      () => algorithmOf({ comparator: { algorithm: 'V600', voiceSampleType: ['X'] } }),
      refused(-6, /got 'X'/),
    );
  });

  it('averages the unit vectors of several samples and refuses a sample below minVoiceLengthSeconds', async () => {
    const vectors = await voiceVectors(
      engine,
      exports,
      { voiceSamples: [{ data: data(3, 0) }, { data: data(3, 1) }] },
      'probe',
      ['V600'],
    );
    assert.deepEqual(
      [...(vectors.V600 ?? [])].map((x) => Math.round(x * 1000) / 1000),
      [0.707, 0.707, 0, 0],
    );
    await assert.rejects(
      voiceVectors(
        engine,
        exports,
        { voiceSamples: [{ data: data(3, 0) }, { data: data(1, 1) }], minVoiceLengthSeconds: 2 },
        'probe',
        ['V600'],
      ),
      refused(-6, /^probe\.voiceSamples\[1\]: 1\.00 s of speech, less than the 2 s required/),
    );
    await assert.rejects(
      voiceVectors(engine, exports, { voiceSamples: [{ data: '' }] }, 'gallery', ['V600']),
      refused(-6, /^gallery\.voiceSamples\[0\]\.data: voice sample has no bytes/),
    );
    await assert.rejects(voiceVectors(engine, exports, {}, 'probe', ['V600']), refused(-3, /probe\.voiceSamples/));
    await assert.rejects(
      voiceVectors(
        engine,
        exports,
        { voiceSamples: [{ data: data(3, 0), voiceSampleType: 'STATIC_PHRASE' }] },
        'probe',
        ['V600'],
        {
          comparator: { algorithm: 'V600', voiceSampleTypes: ['TEXT_INDEPENDENT'] },
        },
      ),
      refused(-6, /not among the workflow's TEXT_INDEPENDENT/),
    );
  });
});
