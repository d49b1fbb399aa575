import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { encryptEnvelope } from '../../src/client/envelope.js';
import { DEFAULT_PROFILE_XML } from '../../src/services/face-analysis/default-profiles.js';
import { testApp, testEnvelopeKeys } from '../helpers/app.js';
import { assertCodedError, httpPost } from '../helpers/http.js';
import {
  closeTestFaceEngine,
  groupPhoto,
  noFacePhoto,
  portrait,
  selfieFrame,
  testFaceEngine,
} from '../helpers/faces.js';

const CONFIRM = 424242;
let app: FastifyInstance;
let shutdowns = 0;
const images: Record<string, string> = {};

before(async () => {
  app = await testApp(
    { VERIPORT_ADMIN_CONFIRM: String(CONFIRM) },
    { faceEngine: testFaceEngine(), onShutdownRequested: () => (shutdowns += 1) },
  );
  const b64 = (b: Buffer) => b.toString('base64');
  // A 480×640 selfie whose eyes are ~65 px apart: compliant with the selfie profile.
  const good = await selfieFrame('anna', {}, { width: 400 });
  images.good = b64(good);
  images.rolled = b64(await selfieFrame('anna', { degrees: 25 }, { width: 340 }));
  images.blurred = b64(await sharp(good).blur(6).jpeg().toBuffer());
  images.dark = b64(await sharp(good).linear(0.12, 0).jpeg().toBuffer());
  images.group = b64(await groupPhoto());
  images.none = b64(
    await sharp(await noFacePhoto())
      .resize(480, 640)
      .jpeg()
      .toBuffer(),
  );
  images.far = b64(await selfieFrame('anna', {}, { width: 110 }));
  images.left = b64(await selfieFrame('anna', { dx: -170 }, { width: 400 }));
  images.portrait = b64(await portrait('anna', { width: 480, margin: 0.6 }));
});
after(async () => {
  await app.close();
  await closeTestFaceEngine();
});

const post = (url: string, body?: object) => httpPost(app, `/face-analysis${url}`, body);

interface Metric {
  name: string;
  score: number;
  complianceStatus?: string;
  category: string;
}
interface Output {
  id: string;
  isCompliant?: boolean;
  imageData?: string;
  features: Array<{ name: string; x: number; y: number }>;
  metrics?: Metric[];
}

async function analyzeOne(
  image: string,
  output: Record<string, unknown>,
  input: Record<string, unknown> = {},
): Promise<Output[] | undefined> {
  const response = await post('/analyzeImage', {
    images: [{ id: 'img', input: { imageData: image, ...input }, output: [{ id: 'out', ...output }] }],
  });
  assert.equal(response.statusCode, 200, response.body);
  const faces = response.json<{ images: Array<{ id: string; faces?: Array<{ output: Output[] }> }> }>().images[0]!
    .faces;
  return faces?.map((f) => f.output[0]!);
}

const statusOf = (output: Output, name: string) => output.metrics?.find((m) => m.name === name)?.complianceStatus;

describe('face analysis: analyzeImage', () => {
  it('finds a compliant selfie, with eye features, categories and every profile metric OK', async () => {
    const [face] = (await analyzeOne(images.good!, { profileXml: DEFAULT_PROFILE_XML.selfie }))!;
    assert.equal(face!.isCompliant, true, JSON.stringify(face!.metrics));
    assert.ok(face!.metrics!.every((m) => m.complianceStatus === 'OK'));
    assert.equal(face!.metrics!.find((m) => m.name === 'SINGLE_FACE_PRESENT')?.category, 'ANOMALIES');
    const left = face!.features.find((f) => f.name === 'LEFT_EYE')!;
    const right = face!.features.find((f) => f.name === 'RIGHT_EYE')!;
    // The person's left eye is on the image's right.
    assert.ok(left.x > right.x && Math.abs(left.y - right.y) < 10);
  });

  it('reports the failing rule for rotated, blurred, darkened and multi-face images', async () => {
    const check = async (image: string, metric: string, status: string) => {
      const faces = (await analyzeOne(image, { profileXml: DEFAULT_PROFILE_XML.selfie }))!;
      assert.equal(faces[0]!.isCompliant, false);
      assert.equal(statusOf(faces[0]!, metric), status, JSON.stringify(faces[0]!.metrics));
    };
    await check(images.rolled!, 'HEAD_POSE_ROLL', 'FAIL_HIGH');
    await check(images.blurred!, 'SHARPNESS', 'FAIL_LOW');
    await check(images.dark!, 'UNDER_EXPOSURE_PREVENTION', 'FAIL_LOW');
    await check(images.group!, 'SINGLE_FACE_PRESENT', 'FAIL_VALUE');
  });

  it('returns only the asked metrics without a profile, no faces member without a face, and honours the detection mode', async () => {
    const [face] = (await analyzeOne(images.good!, { metrics: ['IMAGE_WIDTH', 'IMAGE_HEIGHT', 'SHARPNESS'] }))!;
    assert.deepEqual(
      face!.metrics!.map((m) => m.name),
      ['IMAGE_WIDTH', 'IMAGE_HEIGHT', 'SHARPNESS'],
    );
    assert.deepEqual(
      face!.metrics!.slice(0, 2).map((m) => m.score),
      [480, 640],
    );
    assert.equal(face!.isCompliant, undefined);
    assert.equal(face!.metrics![0]!.complianceStatus, undefined);
    const bare = (await analyzeOne(images.good!, {}))!;
    assert.equal(bare[0]!.metrics, undefined);
    assert.equal(await analyzeOne(images.none!, { metrics: ['SHARPNESS'] }), undefined);
    const all = (await analyzeOne(images.group!, { metrics: ['INTER_EYE_DISTANCE'] }))!;
    const dominant = (await analyzeOne(
      images.group!,
      { metrics: ['INTER_EYE_DISTANCE'] },
      { faceDetectionMode: 'DOMINANT_FACE_BY_SIZE' },
    ))!;
    assert.ok(all.length >= 3);
    assert.equal(dominant.length, 1);
    // The dominant face is the first of the size ordering; the score ordering holds the same faces.
    const eyes = (faces: Output[]) => faces.map((f) => f.metrics![0]!.score);
    assert.equal(eyes(dominant)[0], eyes(all)[0]);
    const byScore = (await analyzeOne(
      images.group!,
      { metrics: ['INTER_EYE_DISTANCE'] },
      { faceDetectionMode: 'FACE_ORDERING_BY_SCORE' },
    ))!;
    assert.deepEqual([...eyes(byScore)].sort(), [...eyes(all)].sort());
  });

  it('constructs the token image with the eyes where the profile puts them, and reports the constructed face', async () => {
    const [face] = (await analyzeOne(images.portrait!, {
      profileXml: DEFAULT_PROFILE_XML.icao,
      performConstruction: true,
      metrics: ['IMAGE_WIDTH', 'IMAGE_HEIGHT'],
    }))!;
    const constructed = Buffer.from(face!.imageData!, 'base64');
    const meta = await sharp(constructed).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['jpeg', 480, 640]);
    // icao: eye line at 0.45·640 = 288, eyes 0.25·480 = 120 px apart around x = 240.
    const right = face!.features.find((f) => f.name === 'RIGHT_EYE')!;
    const left = face!.features.find((f) => f.name === 'LEFT_EYE')!;
    for (const [eye, x] of [
      [right, 180],
      [left, 300],
    ] as const) {
      assert.ok(Math.abs(eye.x - x) < 4 && Math.abs(eye.y - 288) < 4, JSON.stringify(face!.features));
    }
    assert.deepEqual(
      face!.metrics!.filter((m) => m.name.startsWith('IMAGE_')).map((m) => m.score),
      [480, 640],
    );
    assert.equal(typeof face!.isCompliant, 'boolean');
  });

  it('answers 400 with codes -2 to -6 for bad requests', async () => {
    const bad = await httpPost(app, '/face-analysis/analyzeImage', '{"images":', 'application/json');
    assertCodedError(bad, 400, -2);
    assertCodedError(await post('/analyzeImage', {}), 400, -3, /images/);
    assertCodedError(
      await post('/analyzeImage', { images: [{ id: 1, input: { imageData: images.good }, output: [] }] }),
      400,
      -4,
    );
    assertCodedError(
      await post('/analyzeImage', { images: [{ id: 'a', input: { imageData: '***' }, output: [] }] }),
      400,
      -5,
    );
    const one = (input: Record<string, unknown>, output: Record<string, unknown> = { id: 'o' }) =>
      post('/analyzeImage', { images: [{ id: 'a', input: { imageData: images.good, ...input }, output: [output] }] });
    assertCodedError(await one({ rotation: 45 }), 400, -6, /rotation/);
    assertCodedError(await one({ faceSensitivity: 2 }), 400, -6, /faceSensitivity/);
    assertCodedError(await one({ faceMinimumSize: 0.6, faceMaximumSize: 0.5 }), 400, -6, /faceMinimumSize/);
    assertCodedError(await one({ faceDetectionMode: 'BIGGEST' }), 400, -6, /faceDetectionMode/);
    assertCodedError(await one({}, { id: 'o', metrics: ['SHARPNESS', 'BEAUTY'] }), 400, -6, /BEAUTY/);
    assertCodedError(await one({}, { id: 'o', performConstruction: true }), 400, -6, /profileXml/);
    assertCodedError(await one({}, { id: 'o', profileXml: '<faceProfile' }), 400, -6, /not a valid face profile/);
    assertCodedError(await one({ imageData: Buffer.from('not an image').toString('base64') }), 400, -6, /imageData/);
  });
});

describe('face analysis: profiles, ROI, autocapture, shutdown', () => {
  it('validates profiles with precise errors', async () => {
    const valid = await post('/validateProfile', { profile: { xml: DEFAULT_PROFILE_XML.icao } });
    assert.deepEqual(valid.json(), { profileErrors: [] });
    const xml =
      '<faceProfile name="x"><construction width="480" height="640" eyeLineY="0.45" interEyeDistance="0.25"/><metric name="BEAUTY" min="1"/><metric name="SHARPNESS" min="80" max="20"/></faceProfile>';
    const errors = (await post('/validateProfile', { profile: { xml } })).json<{ profileErrors: string[] }>();
    assert.equal(errors.profileErrors.length, 2, JSON.stringify(errors));
    assert.match(errors.profileErrors.join('\n'), /BEAUTY/);
    assert.match(errors.profileErrors.join('\n'), /min.*max|greater/i);
    assert.equal(
      (await post('/validateProfile', { profile: { xml: '<faceProfile>' } })).json<{ profileErrors: string[] }>()
        .profileErrors.length,
      1,
    );
    assertCodedError(await post('/validateProfile', { profile: {} }), 400, -3);
  });

  it('calculates the ROI from the profile geometry, scaled with the resolution', async () => {
    const small = (
      await post('/calculateROI', {
        profile: { xml: DEFAULT_PROFILE_XML.icao },
        resolution: { width: 720, height: 1280 },
      })
    ).json<Record<string, number>>();
    const large = (
      await post('/calculateROI', {
        profile: { xml: DEFAULT_PROFILE_XML.icao },
        resolution: { width: 1440, height: 2560 },
      })
    ).json<Record<string, number>>();
    assert.deepEqual(small, { x: 0, y: 160, width: 720, height: 960 });
    assert.deepEqual(large, { x: 0, y: 320, width: 1440, height: 1920 });
    assertCodedError(
      await post('/calculateROI', { profile: { xml: '<nope/>' }, resolution: { width: 720, height: 1280 } }),
      400,
      -6,
    );
  });

  const autocapture = (data: string[], extra: Record<string, unknown> = {}) => ({
    frames: data.map((d, i) => ({ data: d, timestamp: i * 0.1 })),
    resolutionPreview: { width: 480, height: 640 },
    resolutionCapture: { width: 480, height: 640 },
    profile: { xml: DEFAULT_PROFILE_XML.selfie, name: 'selfie' },
    ...extra,
  });

  it('captures at the end of the first run of N compliant frames, with feedback for the others', async () => {
    const sequence = [
      images.none!,
      images.blurred!,
      images.good!,
      images.rolled!,
      images.far!,
      images.left!,
      images.good!,
      images.good!,
    ];
    const response = await post('/autocaptureVideo', autocapture(sequence, { autocaptureMinimumFrameCount: 2 }));
    assert.equal(response.statusCode, 200, response.body);
    const { frameResults, results } = response.json<{
      frameResults: Array<{ compliant: boolean; feedback: string[] }>;
      results: { captured: boolean; capturedFrameIndex: number };
    }>();
    assert.deepEqual(
      frameResults.map((f) => f.compliant),
      [false, false, true, false, false, false, true, true],
    );
    assert.deepEqual(frameResults[0]!.feedback, ['NO_FACE_DETECTED']);
    assert.ok(frameResults[1]!.feedback.includes('TOO_MUCH_BLUR'), frameResults[1]!.feedback.join());
    assert.ok(frameResults[3]!.feedback.includes('INVALID_POSE'), frameResults[3]!.feedback.join());
    assert.ok(frameResults[4]!.feedback.includes('FACE_TOO_FAR'), frameResults[4]!.feedback.join());
    assert.ok(frameResults[5]!.feedback.includes('FACE_ON_LEFT'), frameResults[5]!.feedback.join());
    assert.deepEqual(frameResults[2]!.feedback, []);
    assert.deepEqual(results, { captured: true, capturedFrameIndex: 7 });

    const once = (
      await post('/autocaptureVideo', autocapture(sequence.slice(0, 4), { autocaptureMinimumFrameCount: 2 }))
    ).json<{ results: unknown }>();
    assert.deepEqual(once.results, { captured: false, capturedFrameIndex: -1 });
  });

  it('judges the frame at the capture resolution and takes an encrypted request', async () => {
    // A face too small in a 480×640 preview is big enough in the 960×1280 capture.
    const plain = (await post('/autocaptureVideo', autocapture([images.far!]))).json<{
      frameResults: Array<{ feedback: string[] }>;
    }>();
    const bigger = (
      await post('/autocaptureVideo', autocapture([images.far!], { resolutionCapture: { width: 1920, height: 2560 } }))
    ).json<{ frameResults: Array<{ feedback: string[] }> }>();
    assert.ok(plain.frameResults[0]!.feedback.includes('FACE_TOO_FAR'));
    assert.ok(!bigger.frameResults[0]!.feedback.includes('FACE_TOO_FAR'), bigger.frameResults[0]!.feedback.join());
    const sealed = encryptEnvelope(
      JSON.stringify(autocapture([images.good!])),
      testEnvelopeKeys().key('face-analysis').publicKeyPem,
      'face-analysis',
    );
    const encrypted = await post('/autocaptureVideoEncrypted', sealed);
    assert.equal(encrypted.statusCode, 200, encrypted.body);
    assert.deepEqual(encrypted.json<{ results: unknown }>().results, { captured: true, capturedFrameIndex: 0 });
  });

  it('refuses bad autocapture requests with -6', async () => {
    assertCodedError(
      await post(
        '/autocaptureVideo',
        autocapture([images.good!, images.good!], {
          frames: [
            { data: images.good, timestamp: 1 },
            { data: images.good, timestamp: 1 },
          ],
        }),
      ),
      400,
      -6,
      /timestamp/,
    );
    assertCodedError(
      await post('/autocaptureVideo', autocapture([images.good!], { resolutionPreview: { width: 640, height: 480 } })),
      400,
      -6,
      /aspect ratio/,
    );
    assertCodedError(
      await post(
        '/autocaptureVideo',
        autocapture([images.good!], {
          resolutionPreview: { width: 240, height: 320 },
          resolutionCapture: { width: 240, height: 320 },
        }),
      ),
      400,
      -6,
      /resolutionPreview/,
    );
    assertCodedError(
      await post('/autocaptureVideo', autocapture([images.good!], { profile: { xml: '<x/>' } })),
      400,
      -6,
      /profile/,
    );
  });

  it("shuts down only with the operator's code in the x-veriport-confirm header", async () => {
    const missing = await post('/shutdown');
    assertCodedError(missing, 400, -6, /x-veriport-confirm/);
    const wrong = await app.inject({
      method: 'POST',
      url: '/face-analysis/shutdown',
      headers: { 'x-veriport-confirm': '1' },
    });
    assertCodedError(wrong, 400, -6);
    assert.equal(shutdowns, 0);
    const right = await app.inject({
      method: 'POST',
      url: '/face-analysis/shutdown',
      headers: { 'x-veriport-confirm': String(CONFIRM) },
    });
    assert.equal(right.statusCode, 200, right.body);
    assert.equal(shutdowns, 1);
    const disabled = await testApp();
    try {
      const refused = await disabled.inject({ method: 'POST', url: '/face-analysis/shutdown' });
      assert.equal(refused.statusCode, 403, refused.body);
    } finally {
      await disabled.close();
    }
  });
});
