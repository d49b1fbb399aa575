import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { decodeTemplate, encodeTemplate } from '../../../../src/engines/templates/template-codec.js';
import { parseSpeakerModel } from '../../../../src/engines/voice/speaker-model.js';
import { speakerVector, speakerVectorLength, speakerVectors } from '../../../../src/engines/voice/speaker-template.js';
import { VOICE_ALGORITHM_NAMES } from '../../../../src/engines/voice/voice-algorithms.js';
import { VoiceSampleError } from '../../../../src/engines/voice/voice-sample-error.js';
import { isRecord } from '../../../../src/lib/json-guards.js';
import { dot } from '../../../../src/lib/vectors.js';
import { synthesizeSpeech } from '../../../helpers/speech.js';

const SENTENCES = [
  'The quick brown fox jumps over the lazy dog near the river bank.',
  'Please confirm my identity with this short recording of my voice today.',
];
/** espeak-ng voices and variants as three "speakers". */
const SPEAKERS = [
  { voice: 'en-us', variant: 'm3' },
  { voice: 'en-gb', variant: 'f2' },
  { voice: 'en-us', variant: 'm7' },
] as const;

test('the same espeak voice scores higher than other voices, for both algorithms', async () => {
  const samples = await Promise.all(
    SPEAKERS.map(async (speaker) => Promise.all(SENTENCES.map((text) => synthesizeSpeech({ text, ...speaker })))),
  );
  const vectors = samples.map((sentences) => sentences.map((s) => speakerVectors(s, VOICE_ALGORITHM_NAMES)));
  for (const algorithm of VOICE_ALGORITHM_NAMES) {
    const of = (speaker: number, sentence: number): Float32Array => {
      const v = vectors[speaker]?.[sentence]?.[algorithm];
      assert.ok(v !== undefined);
      return v;
    };
    for (let a = 0; a < SPEAKERS.length; a++) {
      const same = dot(of(a, 0), of(a, 1));
      for (let b = 0; b < SPEAKERS.length; b++) {
        if (b === a) continue;
        const other = dot(of(a, 0), of(b, 1));
        assert.ok(
          same > other,
          `${algorithm}: speaker ${a} same-voice ${same.toFixed(3)} > other-voice ${other.toFixed(3)}`,
        );
      }
    }
  }
});

test('a speaker vector is a unit vector of the algorithm length, and travels in a voice template', async () => {
  const speech = await synthesizeSpeech({ text: 'one two three four five', voice: 'en-us' });
  for (const algorithm of VOICE_ALGORITHM_NAMES) {
    const v = speakerVector(speech, algorithm);
    assert.equal(v.length, speakerVectorLength(algorithm));
    assert.ok(Math.abs(Math.sqrt(dot(v, v)) - 1) < 1e-5);
    const short = speakerVector(speech.subarray(0, 8000), algorithm);
    assert.equal(short.length, v.length, 'the length does not depend on the sample length');
    const decoded = decodeTemplate(encodeTemplate({ modality: 'voice', algorithm, vector: v }));
    assert.equal(decoded.algorithm, algorithm);
    assert.equal(decoded.modality, 'voice');
    assert.ok(dot(decoded.vector, v) > 0.99999);
  }
});

test('speech shorter than one frame is an empty sample', () => {
  assert.throws(
    () => speakerVector(new Float32Array(100), 'V600'),
    (error) => error instanceof VoiceSampleError && error.reason === 'empty',
  );
});

test('the model file is validated: a malformed or inconsistent file is refused, naming what is wrong', () => {
  const path = 'src/engines/voice/speaker-model.json';
  const good: unknown = JSON.parse(readFileSync(path, 'utf8'));
  assert.doesNotThrow(() => parseSpeakerModel(good, path));
  const broken = (mutate: (json: Record<string, unknown>) => void): unknown => {
    const copy: unknown = JSON.parse(readFileSync(path, 'utf8'));
    assert.ok(isRecord(copy));
    mutate(copy);
    return copy;
  };
  const field = (json: unknown, ...keys: string[]): Record<string, unknown> => {
    let at = json;
    for (const key of keys) {
      assert.ok(isRecord(at));
      at = at[key];
    }
    assert.ok(isRecord(at));
    return at;
  };
  const list = (value: unknown): unknown[] => {
    assert.ok(Array.isArray(value));
    return value;
  };
  assert.throws(() => parseSpeakerModel(null, path), /not a JSON object/);
  assert.throws(
    () =>
      parseSpeakerModel(
        broken((j) => (j.format = 'other/1')),
        path,
      ),
    /format/,
  );
  assert.throws(
    () =>
      parseSpeakerModel(
        broken((j) => list(field(j, 'V600', 'projection').matrix).pop()),
        path,
      ),
    /V600\.projection\.matrix/,
  );
  assert.throws(
    () =>
      parseSpeakerModel(
        broken((j) => (list(field(j, 'V900', 'ubm').variances)[0] = -1)),
        path,
      ),
    /not positive/,
  );
  assert.throws(
    () =>
      parseSpeakerModel(
        broken((j) => (list(field(j, 'V900', 'ubm').means)[3] = 'x')),
        path,
      ),
    /V900\.ubm\.means/,
  );
  assert.throws(
    () =>
      parseSpeakerModel(
        broken((j) => delete field(j, 'provenance').attribution),
        path,
      ),
    /provenance/,
  );
  assert.throws(
    () =>
      parseSpeakerModel(
        broken((j) => (field(j, 'features').coefficients = 13)),
        path,
      ),
    /V900\.ubm\.dims|inDims/,
  );
  assert.throws(
    () =>
      parseSpeakerModel(
        broken((j) => (field(j, 'features').highHz = 12_000)),
        path,
      ),
    /mel band/,
  );
});
