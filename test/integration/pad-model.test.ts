/**
 * The PAD model through `/face-liveness/checkLiveness`: the ONNX model (the default, `VERIPORT_PAD_MODEL=onnx`)
 * passes a face framed by a camera and refuses the same frame shown on a phone; `VERIPORT_PAD_MODEL=handmade`
 * switches the decision to the hand-made classifier (docs/liveness.md#pad-presentation-attacks).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { testApp } from '../helpers/app.js';
import { closeTestFaceEngine, onPhoneScreen, photoFrame, selfieFrame, testFaceEngine } from '../helpers/faces.js';
import { httpPost } from '../helpers/http.js';

interface Result {
  decision: string;
  score_frr: number;
  decision_info: { PAD: { status: string } };
}

let onnx: FastifyInstance;
let handmade: FastifyInstance;

before(async () => {
  onnx = await testApp({ VERIPORT_PAD_MODEL: 'onnx' }, { faceEngine: testFaceEngine() });
  handmade = await testApp({ VERIPORT_PAD_MODEL: 'handmade' }, { faceEngine: testFaceEngine() });
});
after(async () => {
  await onnx.close();
  await handmade.close();
  await closeTestFaceEngine();
});

async function check(app: FastifyInstance, frame: Buffer): Promise<Result> {
  const body = {
    video: { workflow_data: { workflow: 'hotel4', frames: [{ data: frame.toString('base64'), timestamp: 1 }] } },
  };
  const response = await httpPost(app, '/face-liveness/checkLiveness', body);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ video: { liveness_result: Result } }>().video.liveness_result;
}

describe('PAD with the ONNX model (the default)', () => {
  it('passes a face in its own surroundings and refuses the same frame shown on a phone', async () => {
    const frame = await photoFrame('bella');
    const live = await check(onnx, frame);
    assert.deepEqual([live.decision, live.decision_info.PAD.status], ['LIVE', 'PASS'], JSON.stringify(live));
    assert.ok(live.score_frr > 0);
    // Measured P(live) 0.18 on the phone, against the level-4 threshold 0.44.
    const screen = await check(onnx, await onPhoneScreen(frame));
    assert.deepEqual([screen.decision, screen.decision_info.PAD.status], ['SPOOF', 'FAIL'], JSON.stringify(screen));
  });
});

describe('VERIPORT_PAD_MODEL', () => {
  it('switches the PAD decision between the ONNX model and the hand-made classifier', async () => {
    // A portrait pasted on a flat grey canvas: a photo held up to the ONNX model (P(live) 0.09), live to the
    // hand-made classifier, which reads the face's texture only.
    const pasted = await selfieFrame('anna');
    assert.equal((await check(onnx, pasted)).decision_info.PAD.status, 'FAIL');
    assert.equal((await check(handmade, pasted)).decision_info.PAD.status, 'PASS');
  });
});
