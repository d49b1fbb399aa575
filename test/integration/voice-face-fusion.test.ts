import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore, type Store } from '../../src/store/database.js';
import { testApp } from '../helpers/app.js';
import { closeTestFaceEngine, portrait, testFaceEngine } from '../helpers/faces.js';
import { httpPost } from '../helpers/http.js';
import { synthesizeSpeech, wavFile } from '../helpers/speech.js';

let store: Store;
let app: FastifyInstance;

before(async () => {
  store = await openStore({ kind: 'pglite', dataDir: 'memory://' });
  app = await testApp({}, { store, faceEngine: testFaceEngine() });
});

after(async () => {
  await app.close();
  await store.close();
  await closeTestFaceEngine();
});

interface Score {
  score: number;
  scoreFmr: number;
  scorePercent: number;
}

it('fuses a face and a voice verification of one person from their scoreFmr values, in either service', async () => {
  const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
  const speaker = { voice: 'en-us', variant: 'f2' };
  const enrolVoice = b64(
    wavFile(await synthesizeSpeech({ text: 'The quick brown fox jumps over the lazy dog, twice over.', ...speaker })),
  );
  const probeVoice = b64(
    wavFile(await synthesizeSpeech({ text: 'Seven silver spoons sat on the kitchen table.', ...speaker })),
  );
  const face = b64(await portrait('anna'));
  const face2 = b64(await portrait('anna', { margin: 0.4, width: 320, brightness: 0.9 }));

  const faceAdded = await httpPost(app, '/face-matching/add/people', {
    encounter: { id: 'anna', VISIBLE_FRONTAL: face },
  });
  assert.equal(faceAdded.statusCode, 200, faceAdded.body);
  const voiceAdded = await httpPost(app, '/voice-matching/add/people', {
    encounter: { id: 'anna', voiceSamples: [{ data: enrolVoice, voiceSampleType: 'TEXT_INDEPENDENT' }] },
  });
  assert.equal(voiceAdded.statusCode, 200, voiceAdded.body);

  const faceScore = (
    await httpPost(app, '/face-matching/verify/people', { id: 'anna', probe: { VISIBLE_FRONTAL: face2 } })
  ).json<Score>();
  const voiceScore = (
    await httpPost(app, '/voice-matching/verify/people', {
      id: 'anna',
      probe: { voiceSamples: [{ data: probeVoice }] },
    })
  ).json<Score>();
  assert.ok(faceScore.scoreFmr > 0 && voiceScore.scoreFmr >= 0, JSON.stringify({ faceScore, voiceScore }));

  const scores = [faceScore.scoreFmr, voiceScore.scoreFmr];
  const viaVoice = await httpPost(app, '/voice-matching/fuseScores', { scores });
  const viaFace = await httpPost(app, '/face-matching/fuseScores', { scores });
  assert.equal(viaVoice.statusCode, 200, viaVoice.body);
  const fused = viaVoice.json<{ scoreFused: number }>().scoreFused;
  assert.deepEqual(viaFace.json(), { scoreFused: fused });
  // Independent modalities: the false-match rates multiply, so the FMR scores add.
  assert.ok(Math.abs(fused - (faceScore.scoreFmr + voiceScore.scoreFmr)) < 1e-9);
  assert.ok(fused >= faceScore.scoreFmr && fused >= voiceScore.scoreFmr);

  // Voice matching offers neither fuseScoresForIdentification nor exportAlgorithmTemplate (Doc 3 B).
  const absent = await httpPost(app, '/voice-matching/fuseScoresForIdentification', {
    scores: [[{ scoreFmr: 1, encounterCount: 1 }]],
  });
  assert.equal(absent.statusCode, 404);
  assert.equal((await httpPost(app, '/voice-matching/exportAlgorithmTemplate', {})).statusCode, 404);
});
