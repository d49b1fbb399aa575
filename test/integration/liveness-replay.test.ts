/**
 * A still portrait replayed as a video through `/face-liveness/checkLiveness` (issue 16): what a virtual
 * camera, an emulator or a tampered app sends when it has one photo. The still alone is LIVE (hotel4):
 * the multi-frame signals, not PAD, must refuse it as a sequence.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { testApp } from '../helpers/app.js';
import { closeTestFaceEngine, selfieFrame, testFaceEngine } from '../helpers/faces.js';
import { httpPost } from '../helpers/http.js';

let app: FastifyInstance;
let still: Buffer;

before(async () => {
  app = await testApp({}, { faceEngine: testFaceEngine() });
  still = await selfieFrame('anna');
});
after(async () => {
  await app.close();
  await closeTestFaceEngine();
});

interface Signal {
  status: string;
  mode: string;
}
interface Result {
  decision: string;
  feedback: string[];
  decision_info: { IAD: { signals: Record<string, Signal> } };
}

async function check(workflow: string, frames: readonly Buffer[]): Promise<Result> {
  const body = {
    video: {
      workflow_data: {
        workflow,
        frames: frames.map((f, i) => ({ data: f.toString('base64'), timestamp: 1000 + i * 100 })),
      },
    },
  };
  const response = await httpPost(app, '/face-liveness/checkLiveness', body);
  assert.equal(response.statusCode, 200, response.body);
  return response.json<{ video: { liveness_result: Result } }>().video.liveness_result;
}

/** The still decoded and encoded again at `quality`, moved by (dx, dy) whole pixels (edge pixels repeated). */
async function reencoded(quality: number, dx = 0, dy = 0): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(still).metadata();
  const padded = await sharp(still).extend({ top: 4, bottom: 4, left: 4, right: 4, extendWith: 'copy' }).toBuffer();
  return sharp(padded)
    .extract({ left: 4 - dx, top: 4 - dy, width, height })
    .jpeg({ quality })
    .toBuffer();
}

describe('face liveness: a replayed still', () => {
  it('the still on its own is live', async () => {
    assert.equal((await check('hotel4', [still])).decision, 'LIVE');
  });

  it('refuses the still re-encoded at quality 90, 89 and 88 as a foxtrot sequence', async () => {
    const result = await check('foxtrot4', await Promise.all([90, 89, 88].map((q) => reencoded(q))));
    assert.equal(result.decision, 'SPOOF', JSON.stringify(result.decision_info.IAD.signals));
    assert.ok(result.feedback.includes('INJECTION_ATTACK_SUSPECTED'));
  });

  it('refuses the still re-encoded and shifted by 1-2 px', async () => {
    const frames = await Promise.all([reencoded(90), reencoded(89, 1, 0), reencoded(88, 2, -1)]);
    const result = await check('foxtrot4', frames);
    assert.equal(result.decision, 'SPOOF', JSON.stringify(result.decision_info.IAD.signals));
  });
});
