/**
 * A still portrait replayed as a video through `/face-liveness/checkLiveness` (issue 16): what a virtual
 * camera, an emulator or a tampered app sends when it has one photo. The still alone is LIVE (hotel4):
 * the multi-frame signals, not PAD, must refuse it as a sequence, while a camera's sequence (simulated:
 * camera-simulation.ts) passes. The full suite is `npm run eval -- liveness-attacks`.
 *
 * The app decides PAD with the default model (the ONNX one, VERIPORT_PAD_MODEL unset in production): the frames
 * here are cut from a whole photo, the face in its own surroundings, which that model reads as the camera frames
 * they stand for (a portrait pasted on a flat canvas, faces.ts's selfieFrame, it would refuse as a photo).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { DEFAULT_PAD_MODEL } from '../../src/engines/liveness/pad-model-kind.js';
import { testApp } from '../helpers/app.js';
import { simulatedCapture } from '../helpers/camera-simulation.js';
import { closeTestFaceEngine, photoFrame, testFaceEngine } from '../helpers/faces.js';
import { httpPost } from '../helpers/http.js';
import {
  brightnessRamp,
  identical,
  reencoded as reencodedFrames,
  transformed,
  type Rgb,
} from '../helpers/replay-attacks.js';

let app: FastifyInstance;
let still: Buffer;
/** A simulated camera capture of anna, and the same lit by the screen colours of a charlie request. */
let capture: Buffer[];
let litCapture: Buffer[];
const COLOURS = [
  [255, 0, 0],
  [0, 255, 0],
  [0, 0, 255],
] as const;

before(async () => {
  app = await testApp({ VERIPORT_PAD_MODEL: DEFAULT_PAD_MODEL }, { faceEngine: testFaceEngine() });
  const scene = await photoFrame('anna');
  still = scene;
  capture = await simulatedCapture(testFaceEngine(), scene, { seed: 3 });
  litCapture = await simulatedCapture(testFaceEngine(), scene, { seed: 4, screen: COLOURS });
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
  decision_info: { IAD: { signals: Record<string, Signal> }; PAD: { status: string } };
}

async function check(workflow: string, frames: readonly Buffer[]): Promise<Result> {
  const tag = (i: number) =>
    `SCREEN_COLOR_${(COLOURS[i] ?? [0, 0, 0]).map((v) => v.toString(16).padStart(2, '0')).join('')}`;
  const body = {
    video: {
      workflow_data: {
        workflow,
        frames: frames.map((f, i) => ({
          data: f.toString('base64'),
          timestamp: 1000 + i * 100,
          ...(workflow.startsWith('charlie') ? { tags: [tag(i)] } : {}),
        })),
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
  it('the still on its own is live to the default PAD model', async () => {
    assert.equal(DEFAULT_PAD_MODEL, 'onnx');
    const result = await check('hotel4', [still]);
    assert.deepEqual([result.decision, result.decision_info.PAD.status], ['LIVE', 'PASS'], JSON.stringify(result));
  });

  it('refuses the still re-encoded at quality 90, 89 and 88 as a foxtrot sequence', async () => {
    const result = await check('foxtrot4', await Promise.all([90, 89, 88].map((q) => reencoded(q))));
    assert.equal(result.decision, 'SPOOF', JSON.stringify(result.decision_info.IAD.signals));
    assert.ok(result.feedback.includes('INJECTION_ATTACK_SUSPECTED'));
    // PAD passes each frame: the sequence, not the picture, gives the replay away.
    assert.equal(result.decision_info.PAD.status, 'PASS');
  });

  it('refuses the still re-encoded and shifted by 1-2 px', async () => {
    const frames = await Promise.all([reencoded(90), reencoded(89, 1, 0), reencoded(88, 2, -1)]);
    const result = await check('foxtrot4', frames);
    assert.equal(result.decision, 'SPOOF', JSON.stringify(result.decision_info.IAD.signals));
  });
});

describe('face liveness: a camera against replays of one of its frames', () => {
  it('passes the camera sequence in foxtrot and, lit by the screen, in charlie', async () => {
    const foxtrot = await check('foxtrot4', capture);
    assert.equal(foxtrot.decision, 'LIVE', JSON.stringify(foxtrot));
    assert.equal(foxtrot.decision_info.PAD.status, 'PASS');
    assert.equal(foxtrot.decision_info.IAD.signals.temporal_noise_analysis?.status, 'PASS');
    const charlie = await check('charlie4', litCapture);
    assert.equal(charlie.decision, 'LIVE', JSON.stringify(charlie));
    assert.equal(charlie.decision_info.IAD.signals.optical_analysis?.status, 'PASS');
  });

  // Each replay as foxtrot sends it, and as charlie: every frame tinted by its screen colour before its one
  // encoding, as an attacker who knows the colours would render it (the light trace then passes).
  const replays: Array<[string, (frame: Buffer, screen?: readonly Rgb[]) => Promise<Buffer[]>]> = [
    ['identical', (f, screen) => identical(f, 3, screen)],
    ['re-encoded', (f, screen) => reencodedFrames(f, [90, 89, 88], screen)],
    [
      'shifted 1-2 px',
      (f, screen) => transformed(f, [{}, { dx: 1, quality: 89 }, { dx: 2, dy: -1, quality: 88 }], 'bicubic', screen),
    ],
    ['scaled 1-2%', (f, screen) => transformed(f, [{}, { scale: 1.01 }, { scale: 1.02 }], 'bicubic', screen)],
    ['brightness ramp', (f, screen) => brightnessRamp(f, [1, 1.04, 1.08], screen)],
  ];
  for (const [name, replay] of replays) {
    it(`refuses its first frame ${name} in foxtrot and, following the screen colours, in charlie`, async () => {
      const foxtrot = await check('foxtrot4', await replay(capture[0]!));
      assert.equal(foxtrot.decision, 'SPOOF', JSON.stringify(foxtrot.decision_info.IAD.signals));
      assert.ok(foxtrot.feedback.includes('INJECTION_ATTACK_SUSPECTED'));
      const charlie = await check('charlie4', await replay(capture[0]!, COLOURS));
      assert.equal(charlie.decision_info.IAD.signals.optical_analysis?.status, 'PASS');
      assert.equal(charlie.decision, 'SPOOF', JSON.stringify(charlie.decision_info.IAD.signals));
    });
  }
});
