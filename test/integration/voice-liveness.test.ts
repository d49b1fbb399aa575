import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { testApp, testSeal } from '../helpers/app.js';
import { assertCodedError, httpGet, httpPost } from '../helpers/http.js';
import { padSilence, silence, soxEffects, synthesizeSpeech, wavFile, whiteNoise } from '../helpers/speech.js';

let app: FastifyInstance;
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const wav = {} as Record<'speech' | 'padded' | 'short' | 'silent' | 'clipped' | 'noise', string>;
let speechSeconds = 0;
const post = (url: string, body: unknown) => httpPost(app, `/voice-liveness${url}`, body as object);
const voice = (...data: string[]) => ({ voice: { voiceSamples: data.map((d) => ({ data: d })) } });

interface LivenessResult {
  decision: string;
  score: number;
  score_frr: number;
  feedback: string[];
}
const resultOf = (body: unknown) => (body as { voice: { livenessResult: LivenessResult } }).voice.livenessResult;

before(async () => {
  app = await testApp();
  const speech = await synthesizeSpeech({
    text: 'My voice is my password, please verify me and let me in.',
    voice: 'en-gb',
    variant: 'm3',
  });
  speechSeconds = speech.length / 16_000;
  wav.speech = b64(wavFile(speech));
  wav.padded = b64(wavFile(padSilence(speech, 2, 2)));
  wav.short = b64(wavFile(padSilence(await synthesizeSpeech({ text: 'no' }), 1, 1)));
  wav.silent = b64(wavFile(silence(3)));
  wav.noise = b64(wavFile(whiteNoise(3, -50)));
  // 24 dB of gain: the peaks are cut at full scale.
  wav.clipped = b64(wavFile(await soxEffects(speech, ['gain', '24'])));
});

after(async () => {
  await app.close();
});

describe('voice liveness', () => {
  it('answers its version and the public key of its encrypted calls', async () => {
    assert.match((await httpGet(app, '/voice-liveness/version')).body, /voice-liveness/);
    assert.match((await httpGet(app, '/voice-liveness/getPublicKey')).body, /BEGIN PUBLIC KEY/);
  });

  it('calculates the seconds of speech, not of recording, per sample', async () => {
    const response = await post('/calculateVoiceLength', voice(wav.speech, wav.padded, wav.silent));
    assert.equal(response.statusCode, 200, response.body);
    const lengths = response.json<{ voice: { voiceSamples: Array<{ voiceLengthSeconds: number }> } }>().voice
      .voiceSamples;
    assert.equal(lengths.length, 3);
    const [plain, padded, silent] = lengths.map((l) => l.voiceLengthSeconds);
    assert.ok(plain !== undefined && padded !== undefined && silent !== undefined);
    // espeak-ng's pauses between words are speech to a VAD's hangover, its leading and trailing ones not.
    assert.ok(Math.abs(plain - speechSeconds) < 0.6, `${plain} s of speech in ${speechSeconds} s`);
    assert.ok(Math.abs(padded - plain) < 0.3, `${padded} s padded vs ${plain} s`);
    assert.ok(padded < speechSeconds + 4 - 3, 'the 4 s of added silence are not speech');
    assert.equal(silent, 0);
  });

  it('decides on speech: a text-to-speech voice is a spoof at alfa4; every answer is a spec decision', async () => {
    const response = await post('/analyze', { voice: { voiceSamples: [{ data: wav.speech }], workflow: 'alfa4' } });
    assert.equal(response.statusCode, 200, response.body);
    const result = resultOf(response.json());
    assert.equal(result.decision, 'SPOOF', response.body);
    assert.equal(result.score, 0);
    assert.ok(Number.isFinite(result.score_frr));
    assert.deepEqual(result.feedback, []);
    // A stricter level never turns a spoof live.
    for (const workflow of ['alfa2', 'alfa4', 'alfa6']) {
      const answer = resultOf(
        (await post('/analyze', { voice: { voiceSamples: [{ data: wav.speech }], workflow } })).json(),
      );
      assert.ok(['LIVE', 'SPOOF'].includes(answer.decision));
      assert.equal(answer.score, answer.decision === 'LIVE' ? 100 : 0);
      if (workflow === 'alfa6') assert.equal(answer.decision, 'SPOOF');
    }
  });

  it('answers UNABLE_TO_CALCULATE_LIVENESS (-1) for no speech, too little, or a clipped recording', async () => {
    for (const [data, feedback] of [
      [wav.silent, 'NO_SPEECH'],
      [wav.noise, 'NO_SPEECH'],
      [wav.short, 'VOICE_TOO_SHORT'],
      [wav.clipped, 'VOICE_CLIPPED'],
    ] as const) {
      const response = await post('/analyze', voice(data));
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(resultOf(response.json()), {
        decision: 'UNABLE_TO_CALCULATE_LIVENESS',
        score: -1,
        score_frr: 0,
        feedback: [feedback],
      });
    }
  });

  it('opens encrypted packages sealed for voice liveness only', async () => {
    const plain = resultOf((await post('/analyze', voice(wav.speech))).json());
    const sealed = await post('/analyzeEncrypted', testSeal(JSON.stringify(voice(wav.speech)), 'voice-liveness'));
    assert.equal(sealed.statusCode, 200, sealed.body);
    assert.deepEqual(resultOf(sealed.json()), plain);
    const length = await post(
      '/calculateVoiceLengthEncrypted',
      testSeal(JSON.stringify(voice(wav.padded)), 'voice-liveness'),
    );
    assert.equal(length.statusCode, 200, length.body);
    assertCodedError(
      await post('/analyzeEncrypted', testSeal(JSON.stringify(voice(wav.speech)), 'face-liveness')),
      400,
      -6,
    );
    assertCodedError(await post('/calculateVoiceLengthEncrypted', testSeal('{"voice":{}}', 'voice-liveness')), 400, -8);
    assertCodedError(await post('/analyzeEncrypted', testSeal('not json', 'voice-liveness')), 400, -2);
  });

  it('answers bad input with the codes of Doc 2 D', async () => {
    for (const url of ['/analyze', '/calculateVoiceLength']) {
      assertCodedError(await post(url, { voice: {} }), 400, -8, /voiceSamples/);
      assertCodedError(await post(url, { voice: { voiceSamples: [] } }), 400, -8);
      assertCodedError(await post(url, voice('')), 400, -8, /voiceSamples\[0\]/);
      assertCodedError(
        await post(url, voice(wav.speech, b64(Buffer.from('RIFF, but not really a recording')))),
        400,
        -7,
        /voiceSamples\[1\]/,
      );
      assertCodedError(await post(url, voice('@@not base64@@')), 400, -5);
      assertCodedError(await post(url, {}), 400, -3, /voice/);
      assertCodedError(await post(url, { voice: { voiceSamples: 'x' } }), 400, -4);
      assertCodedError(await httpPost(app, `/voice-liveness${url}`, '{"voice":', 'application/json'), 400, -2);
    }
    for (const securityLevel of [0, 11, 2.5]) {
      const body = { voice: { voiceSamples: [{ data: wav.speech }], workflow: 'alfa4', securityLevel } };
      assertCodedError(await post('/analyze', body), 400, -6, /securityLevel/);
    }
    assertCodedError(
      await post('/analyze', { voice: { voiceSamples: [{ data: wav.speech }], workflow: 'charlie4' } }),
      400,
      -9,
      /alfa2, alfa4, alfa6/,
    );
  });
});
