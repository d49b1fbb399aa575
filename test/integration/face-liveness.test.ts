import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { encryptEnvelope } from '../../src/client/envelope.js';
import { testApp, testEnvelopeKeys } from '../helpers/app.js';
import { assertCodedError, httpPost } from '../helpers/http.js';
import { simulatedCapture } from '../helpers/camera-simulation.js';
import {
  closeTestFaceEngine,
  noFacePhoto,
  onPhoneScreen,
  photoFrame,
  selfieFrame,
  testFaceEngine,
  turnedPicture,
} from '../helpers/faces.js';

let app: FastifyInstance;
const frames: Record<string, string[]> = {};

before(async () => {
  app = await testApp({}, { faceEngine: testFaceEngine() });
  const b64 = (b: Buffer) => b.toString('base64');
  frames.live = await Promise.all(
    [{}, { dx: 6, dy: -3, degrees: 1.5 }, { dx: -4, dy: 5, degrees: -1 }].map(async (m) =>
      b64(await selfieFrame('anna', m)),
    ),
  );
  // A camera's sequence carries fresh sensor noise in every frame; a still moved around (frames.live) does not.
  const scene = await photoFrame('anna');
  frames.camera = (await simulatedCapture(testFaceEngine(), scene, { seed: 1 })).map(b64);
  const still = b64(await selfieFrame('anna'));
  frames.repeated = [still, still, still];
  frames.swapped = [frames.live[0]!, b64(await selfieFrame('bella', { dx: 4 })), frames.live[2]!];
  frames.blurred = [
    b64(
      await sharp(await selfieFrame('anna'))
        .blur(5)
        .jpeg()
        .toBuffer(),
    ),
  ];
  frames.dark = [
    b64(
      await sharp(await selfieFrame('anna'))
        .linear(0.2, 0)
        .jpeg()
        .toBuffer(),
    ),
  ];
  frames.none = [
    b64(
      await sharp(await noFacePhoto())
        .resize(480, 640)
        .jpeg()
        .toBuffer(),
    ),
  ];
  frames.small = [
    b64(
      await sharp(await selfieFrame('anna'))
        .resize(240, 320)
        .jpeg()
        .toBuffer(),
    ),
  ];
  frames.png = [
    b64(
      await sharp(await selfieFrame('anna'))
        .png()
        .toBuffer(),
    ),
  ];
  frames.gif = [
    b64(
      await sharp(await selfieFrame('anna'))
        .gif()
        .toBuffer(),
    ),
  ];
  // Mirroring a face turns it the other way: anna looks ~10° to her right, her mirror ~10° to her left.
  frames.turnLeft = [
    b64(await selfieFrame('anna', { dx: 3 })),
    b64(
      await sharp(await selfieFrame('anna', { dx: -3 }))
        .flop()
        .jpeg()
        .toBuffer(),
    ),
  ];
  frames.turnRight = [...frames.turnLeft].reverse();
  // A printed or displayed photo turned 35° in front of the camera: perspective without depth.
  frames.pictureTurned = [
    frames.turnLeft[0]!,
    b64(await turnedPicture(Buffer.from(frames.turnLeft[0]!, 'base64'), -35)),
  ];
  // Light trace: the screen's colour lights the face of a simulated capture (camera-simulation.ts).
  const colours = [
    { r: 255, g: 0, b: 0 },
    { r: 0, g: 255, b: 0 },
    { r: 0, g: 0, b: 255 },
  ];
  // Captures whose face the screen lights: in the order the tags name, and in another order.
  const lit = (order: (i: number) => number) =>
    simulatedCapture(testFaceEngine(), scene, {
      seed: 2,
      screen: [0, 1, 2].map((i) => {
        const { r, g, b } = colours[order(i)]!;
        return [r, g, b] as const;
      }),
    });
  frames.charlieFollowing = (await lit((i) => i)).map(b64);
  frames.charlieOtherOrder = (await lit((i) => (i + 1) % 3)).map(b64);
  // A photo shown on a phone held up to the camera: the frame at 70% inside a black bezel.
  frames.onScreen = [b64(await onPhoneScreen(Buffer.from(frames.live[0]!, 'base64')))];
  // A stream upscaled from a smaller video: 320×427 brought back to 480×640.
  frames.upscaled = [
    b64(
      await sharp(await sharp(Buffer.from(frames.live[0]!, 'base64')).resize(320, 427).toBuffer())
        .resize(480, 640, { fit: 'fill' })
        .jpeg({ quality: 90 })
        .toBuffer(),
    ),
  ];
  frames.far = [b64(await selfieFrame('anna', {}, { width: 110 }))];
  frames.left = [b64(await selfieFrame('anna', { dx: -150 }))];
  frames.landscape = [
    b64(
      await sharp(await selfieFrame('anna'))
        .resize(640, 480, { fit: 'fill' })
        .jpeg()
        .toBuffer(),
    ),
  ];
});
after(async () => {
  await app.close();
  await closeTestFaceEngine();
});

interface Result {
  decision: string;
  score: number;
  score_frr: number;
  feedback: string[];
  decision_info: {
    IAD: { signals: Record<string, { status: string; mode: string }> };
    PAD: { status: string; spoof_type_probability: Record<string, number> };
  };
}

function request(
  workflow: string,
  data: string[],
  extra: Record<string, unknown> = {},
  meta: Record<string, string> = {},
) {
  return {
    video: {
      meta_data: meta,
      workflow_data: { workflow, frames: data.map((d, i) => ({ data: d, timestamp: 1000 + i * 100 })), ...extra },
    },
  };
}

const post = (url: string, body: object) => httpPost(app, `/face-liveness${url}`, body);
/** What capture software seals face-liveness packages with (`GET /face-liveness/getPublicKey`). */
const livenessKey = testEnvelopeKeys().key('face-liveness').publicKeyPem;

async function check(body: object): Promise<Result> {
  const response = await post('/checkLiveness', body);
  assert.equal(response.statusCode, 200, response.body);
  const json = response.json<{ video: { liveness_result: Result; version: string; timestamp: number } }>();
  assert.match(json.video.version, /^Veriport face-liveness /);
  return json.video.liveness_result;
}

describe('face liveness: decisions', () => {
  it('passes a live sequence with small natural motion', async () => {
    const result = await check(request('foxtrot4', frames.camera!));
    assert.equal(result.decision, 'LIVE', JSON.stringify(result));
    assert.equal(result.score, 100);
    assert.equal(result.decision_info.PAD.status, 'PASS');
    assert.equal(result.decision_info.IAD.signals.image_similarity_detection!.status, 'PASS');
    assert.equal(result.decision_info.IAD.signals.face_swap_detection!.status, 'PASS');
    assert.equal(result.decision_info.IAD.signals.temporal_noise_analysis!.status, 'PASS');
    assert.ok(result.score_frr >= 0);
    assert.deepEqual(Object.keys(result.decision_info.PAD.spoof_type_probability).sort(), [
      '2D_MASK',
      '3D_MASK',
      'OTHER',
      'PHOTO',
      'SCREEN',
    ]);
  });

  it('fails one still frame repeated as a sequence on image similarity', async () => {
    const result = await check(request('hotel4', frames.repeated!));
    assert.equal(result.decision_info.IAD.signals.image_similarity_detection!.status, 'FAIL');
    assert.equal(result.decision, 'SPOOF');
    assert.equal(result.score, 0);
    assert.ok(result.feedback.includes('INJECTION_ATTACK_SUSPECTED'));
  });

  it('fails a sequence whose face changes identity', async () => {
    const result = await check(request('foxtrot4', frames.swapped!));
    assert.equal(result.decision_info.IAD.signals.face_swap_detection!.status, 'FAIL');
    assert.equal(result.decision, 'SPOOF');
  });

  it('reports a face framed by a phone bezel as a suspicious border', async () => {
    const framed = await check(request('hotel4', frames.onScreen!));
    assert.deepEqual(framed.decision_info.IAD.signals.suspicious_border_detection, {
      status: 'FAIL',
      mode: 'REPORT_ONLY',
    });
    const plain = await check(request('hotel4', frames.live!.slice(0, 1)));
    assert.equal(plain.decision_info.IAD.signals.suspicious_border_detection!.status, 'PASS');
  });

  it('reports frames upscaled from a smaller picture in spectral analysis', async () => {
    const upscaled = await check(request('hotel4', frames.upscaled!));
    assert.deepEqual(upscaled.decision_info.IAD.signals.spectral_analysis, { status: 'FAIL', mode: 'REPORT_ONLY' });
    assert.equal(
      (await check(request('hotel4', frames.live!.slice(0, 1)))).decision_info.IAD.signals.spectral_analysis!.status,
      'PASS',
    );
  });

  it('fails a known virtual camera and emulator from the device fields', async () => {
    const result = await check(
      request('hotel2', frames.live!.slice(0, 1), {}, { client_device_model: 'OBS Virtual Camera' }),
    );
    assert.equal(result.decision_info.IAD.signals.virtual_camera_detection!.status, 'FAIL');
    assert.equal(result.decision, 'SPOOF');
    const emulator = await check(
      request(
        'hotel2',
        frames.live!.slice(0, 1),
        {},
        { client_device_brand: 'google', client_device_model: 'sdk_gphone64_x86_64' },
      ),
    );
    assert.equal(emulator.decision_info.IAD.signals.emulator_detection!.status, 'FAIL');
  });

  it('applies the quality gates and the package timestamp window', async () => {
    assert.equal((await check(request('hotel4', frames.blurred!))).decision, 'TOO_BLURRY');
    assert.equal((await check(request('hotel4', frames.dark!))).decision, 'TOO_LOW_FACIAL_DYNAMIC_RANGE');
    const none = await check(request('hotel4', frames.none!));
    assert.deepEqual([none.decision, none.score], ['UNABLE_TO_CALCULATE_LIVENESS', -1]);
    assert.ok(none.feedback.includes('NO_FACE_DETECTED'));
    assert.equal((await check(request('hotel4', frames.small!))).decision, 'FACE_TOO_LOW_RESOLUTION');
    assert.equal(
      (await check(request('hotel4', frames.live!.slice(0, 1), { timestamp: Date.now() - 3_600_000 }))).decision,
      'TIMESTAMP_TOO_OLD',
    );
    assert.equal(
      (await check(request('hotel4', frames.live!.slice(0, 1), { timestamp: Date.now() + 3_600_000 }))).decision,
      'TIMESTAMP_IN_FUTURE',
    );
    assert.equal(
      (await check(request('hotel4', frames.png!))).decision_info.PAD.status === 'ERROR',
      false,
      'PNG frames are analysed',
    );
    // Detection parameters: a face outside the size bounds is ignored.
    const tooBig = await check(request('hotel4', frames.live!.slice(0, 1), { face_detection_max_size: 0.1 }));
    assert.deepEqual([tooBig.decision, tooBig.feedback], ['UNABLE_TO_CALCULATE_LIVENESS', ['NO_FACE_DETECTED']]);
    assert.equal(
      (
        await check(
          request('hotel4', frames.live!.slice(0, 1), { face_detection_min_size: 0.1, face_detection_sensitivity: 0 }),
        )
      ).decision,
      'LIVE',
    );
  });

  it('opens the encrypted variant and decides the same', async () => {
    const plain = request('foxtrot4', frames.camera!);
    const sealed = encryptEnvelope(JSON.stringify(plain), livenessKey, 'face-liveness');
    const response = await post('/checkLivenessEncrypted', {
      ...sealed,
      workflow_data: { intelligentLiveness: { lightTraceMode: 'STRICT' } },
    });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<{ video: { liveness_result: Result } }>().video.liveness_result.decision, 'LIVE');
    const bad = encryptEnvelope(
      JSON.stringify({ video: { workflow_data: { workflow: 'hotel4' } } }),
      livenessKey,
      'face-liveness',
    );
    assertCodedError(await post('/checkLivenessEncrypted', bad), 400, -3, /frames/);
    assertCodedError(
      await post('/checkLivenessEncrypted', { ...sealed, p: sealed.p.slice(0, 20) }),
      400,
      -6,
      /encrypted package rejected/,
    );
  });
});

describe('face liveness: analyze (autocapture)', () => {
  interface Analyzed {
    video: {
      autocapture_result: { captured_frame: string; captured_frame_is_constructed: boolean; feedback: string[] };
      liveness_result: Result;
    };
  }
  const analyze = async (body: object) => {
    const response = await post('/analyze', body);
    assert.equal(response.statusCode, 200, response.body);
    return response.json<Analyzed>().video;
  };

  it('captures the best frame of a good sequence with no feedback', async () => {
    const video = await analyze(request('foxtrot4', frames.camera!));
    assert.deepEqual(video.autocapture_result.feedback, []);
    assert.ok(frames.camera!.includes(video.autocapture_result.captured_frame));
    assert.equal(video.autocapture_result.captured_frame_is_constructed, false);
    assert.equal(video.liveness_result.decision, 'LIVE');
  });

  it('builds a levelled portrait with perform_construction', async () => {
    const video = await analyze(request('hotel4', frames.live!.slice(1, 2), { perform_construction: true }));
    assert.equal(video.autocapture_result.captured_frame_is_constructed, true);
    const meta = await sharp(Buffer.from(video.autocapture_result.captured_frame, 'base64')).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 480, 480]);
  });

  it('tells the user what to fix', async () => {
    const none = await analyze(request('hotel4', frames.none!));
    assert.deepEqual(
      [none.autocapture_result.captured_frame, none.autocapture_result.feedback],
      ['', ['NO_FACE_DETECTED']],
    );
    assert.ok((await analyze(request('hotel4', frames.far!))).autocapture_result.feedback.includes('FACE_TOO_FAR'));
    assert.ok((await analyze(request('hotel4', frames.left!))).autocapture_result.feedback.includes('FACE_ON_LEFT'));
    assert.ok(
      (await analyze(request('hotel4', frames.dark!))).autocapture_result.feedback.includes('INSUFFICIENT_LIGHTING'),
    );
    assert.ok(
      (await analyze(request('hotel4', frames.blurred!))).autocapture_result.feedback.includes('TOO_MUCH_BLUR'),
    );
  });

  it('serves the encrypted variant', async () => {
    const sealed = encryptEnvelope(
      JSON.stringify(request('hotel4', frames.live!.slice(0, 1))),
      livenessKey,
      'face-liveness',
    );
    const response = await post('/analyzeEncrypted', sealed);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<Analyzed>().video.autocapture_result.captured_frame, frames.live![0]);
  });
});

describe('face liveness: charlie light trace', () => {
  const tags = ['SCREEN_RED', 'SCREEN_GREEN', 'SCREEN_COLOR_0000FF'];
  const charlie = (data: string[], mode?: string) => {
    const body = request('charlie4', data, mode ? { intelligentLiveness: { lightTraceMode: mode } } : {}) as {
      video: { workflow_data: { frames: Array<{ tags?: string[] }> } };
    };
    body.video.workflow_data.frames.forEach((f, i) => (f.tags = [tags[i]!]));
    return body;
  };

  it('passes a face whose colour follows the screen, and fails one that shows another sequence', async () => {
    const following = await check(charlie(frames.charlieFollowing!));
    assert.equal(following.decision_info.IAD.signals.optical_analysis!.status, 'PASS', JSON.stringify(following));
    assert.equal(following.decision, 'LIVE');
    const other = await check(charlie(frames.charlieOtherOrder!));
    assert.equal(other.decision_info.IAD.signals.optical_analysis!.status, 'FAIL');
    assert.equal(other.decision, 'SPOOF');
  });

  it('leaves a face that does not respond undecided in NORMAL mode and fails it in STRICT', async () => {
    const normal = await check(charlie(frames.camera!));
    assert.equal(normal.decision_info.IAD.signals.optical_analysis!.status, 'ERROR');
    assert.equal(normal.decision, 'LIVE');
    const strict = await check(charlie(frames.camera!, 'STRICT'));
    assert.equal(strict.decision_info.IAD.signals.optical_analysis!.status, 'FAIL');
    assert.equal(strict.decision, 'SPOOF');
  });

  it('needs frames tagged with the screen colour', async () => {
    assertCodedError(
      await post('/checkLiveness', request('charlie4', frames.live!)),
      400,
      -6,
      /tagged with the screen colour/,
    );
  });
});

describe('face liveness: active', () => {
  interface Active {
    video: {
      liveness_result: {
        decision: string;
        score: number;
        feedback: string[];
        details: { passive_liveness: Result; active_liveness: Result };
      };
    };
  }
  const activeBody = (left: string[], right: string[]) => [
    request('hotel4', frames.live!.slice(0, 1)),
    request('active_left', left),
    request('active_right', right),
  ];

  it('passes when both asked head turns are made by the same live person', async () => {
    const response = await post('/checkActiveLiveness', activeBody(frames.turnLeft!, frames.turnRight!));
    assert.equal(response.statusCode, 200, response.body);
    const result = response.json<Active>().video.liveness_result;
    assert.equal(result.details.passive_liveness.decision, 'LIVE');
    assert.equal(result.details.active_liveness.decision, 'LIVE', JSON.stringify(result.details.active_liveness));
    assert.deepEqual([result.decision, result.score], ['LIVE', 100]);
  });

  it('fails a head turned the wrong way', async () => {
    const response = await post('/checkActiveLiveness', activeBody(frames.turnRight!, frames.turnRight!));
    const result = response.json<Active>().video.liveness_result;
    assert.equal(result.details.active_liveness.decision, 'SPOOF');
    assert.ok(result.feedback.includes('WRONG_HEAD_MOVEMENT'));
    assert.deepEqual([result.decision, result.score], ['SPOOF', 0]);
  });

  it('fails a picture turned in front of the camera', async () => {
    const result = (
      await post('/checkActiveLiveness', activeBody(frames.pictureTurned!, frames.turnRight!))
    ).json<Active>().video.liveness_result;
    assert.equal(result.details.active_liveness.decision, 'SPOOF');
    assert.ok(
      result.feedback.some((f) => f === 'HEAD_MOVEMENT_NOT_DETECTED' || f === 'FLAT_HEAD_MOVEMENT'),
      JSON.stringify(result.feedback),
    );
  });

  it('fails when the head does not move', async () => {
    const still = [frames.live![0]!, frames.live![1]!];
    const result = (await post('/checkActiveLiveness', activeBody(still, frames.turnRight!))).json<Active>().video
      .liveness_result;
    assert.ok(result.feedback.includes('HEAD_MOVEMENT_NOT_DETECTED'));
    assert.equal(result.decision, 'SPOOF');
  });

  it('takes exactly 1 passive and 2 active requests, also encrypted', async () => {
    assertCodedError(
      await post('/checkActiveLiveness', activeBody(frames.turnLeft!, frames.turnRight!).slice(0, 2)),
      400,
      -6,
      /exactly 3 requests/,
    );
    const twoPassive = [
      request('hotel4', frames.live!.slice(0, 1)),
      request('hotel4', frames.live!.slice(0, 1)),
      request('active_up', frames.turnLeft!),
    ];
    assertCodedError(await post('/checkActiveLiveness', twoPassive), 400, -6, /1 passive and 2 active/);
    assertCodedError(
      await post('/checkLiveness', request('active_up', frames.turnLeft!)),
      400,
      -6,
      /checkActiveLiveness/,
    );
    const sealed = encryptEnvelope(
      JSON.stringify(activeBody(frames.turnLeft!, frames.turnRight!)),
      livenessKey,
      'face-liveness',
    );
    const response = await post('/checkActiveLivenessEncrypted', sealed);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.json<Active>().video.liveness_result.decision, 'LIVE');
  });
});

describe('face liveness: request errors', () => {
  const one = () => frames.live!.slice(0, 1);
  const cases: Array<[string, () => object, number, RegExp]> = [
    ['missing frames', () => ({ video: { workflow_data: { workflow: 'hotel4' } } }), -3, /frames/],
    ['wrong type', () => request('hotel4', one(), { security_level: 'high' }), -4, /security_level/],
    ['invalid base64', () => request('hotel4', ['***']), -5, /base64/],
    ['unknown workflow', () => request('tango4', one()), -6, /workflow must be one of/],
    ['too few frames for foxtrot', () => request('foxtrot4', one()), -6, /3 to 10 frames/],
    ['not image data', () => request('hotel4', [Buffer.from('hello world').toString('base64')]), -7, /not image data/],
    ['min size', () => request('hotel4', one(), { face_detection_min_size: 1.5 }), 118, /face_detection_min_size/],
    ['max size', () => request('hotel4', one(), { face_detection_max_size: -0.1 }), 119, /face_detection_max_size/],
    [
      'min above max',
      () => request('hotel4', one(), { face_detection_min_size: 0.6, face_detection_max_size: 0.4 }),
      120,
      /must not exceed/,
    ],
    ['sensitivity', () => request('hotel4', one(), { face_detection_sensitivity: 2 }), 121, /sensitivity/],
    ['granularity', () => request('hotel4', one(), { face_detection_granularity: -1 }), 122, /granularity/],
    ['gif', () => request('hotel4', frames.gif!), 152, /JPEG or PNG/],
    [
      'truncated jpeg',
      () =>
        request('hotel4', [Buffer.from(Buffer.from(frames.live![0]!, 'base64').subarray(0, 300)).toString('base64')]),
      139,
      /could not be parsed/,
    ],
    ['detection mode', () => request('hotel4', one(), { face_detection_mode: 'BIGGEST' }), 155, /face_detection_mode/],
    ['rotation', () => request('hotel4', one(), { rotation: 45 }), 312, /0, 90, 180 or 270/],
    ['sizes differ', () => request('hotel4', [frames.live![0]!, frames.landscape![0]!]), 153, /must match the first/],
  ];
  for (const [name, body, code, description] of cases) {
    it(`answers ${code} for ${name}`, async () =>
      assertCodedError(await post('/checkLiveness', body()), 400, code, description));
  }

  it('answers -2 for a body that is not JSON, on every analysis endpoint', async () => {
    for (const url of [
      '/checkLiveness',
      '/analyze',
      '/checkActiveLiveness',
      '/checkLivenessEncrypted',
      '/analyzeEncrypted',
      '/checkActiveLivenessEncrypted',
      '/decrypt',
    ]) {
      const response = await httpPost(app, `/face-liveness${url}`, '{"video": ', 'application/json');
      assertCodedError(response, 400, -2, /not valid JSON/);
    }
  });

  it('answers 141 and 125 for timestamps that go back or stand still', async () => {
    const body = request('foxtrot4', frames.live!) as {
      video: { workflow_data: { frames: Array<{ timestamp: number }> } };
    };
    body.video.workflow_data.frames[1]!.timestamp = 500;
    assertCodedError(await post('/checkLiveness', body), 400, 141, /exceed the previous/);
    body.video.workflow_data.frames[1]!.timestamp = 1000;
    assertCodedError(await post('/checkLiveness', body), 400, 125, /greater than 0/);
  });

  it('answers -8 for frames too small to hold a usable face', async () => {
    const tiny = (await sharp(Buffer.from(frames.live![0]!, 'base64')).resize(60, 80).jpeg().toBuffer()).toString(
      'base64',
    );
    assertCodedError(await post('/checkLiveness', request('hotel4', [tiny])), 400, -8, /pixels a side/);
  });
});
