import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import sharp from 'sharp';
import { InvalidBase64Error } from '../../../../src/crypto/base64.js';
import { LivenessCode, LivenessInputError } from '../../../../src/engines/liveness/liveness-input-error.js';
import {
  parseLivenessRequest,
  type LivenessFrameInput,
  type LivenessInput,
} from '../../../../src/engines/liveness/liveness-request.js';

/** Base64 images made once: JPEG and PNG frames in a few sizes, and formats the service refuses. */
const images: Record<string, string> = {};
const solid = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 120, g: 110, b: 100 } } });
const b64 = (bytes: Buffer) => bytes.toString('base64');

before(async () => {
  images.jpeg = b64(await solid(480, 640).jpeg().toBuffer());
  images.png = b64(await solid(480, 640).png().toBuffer());
  images.landscape = b64(await solid(640, 480).jpeg().toBuffer());
  // Stored 640×480 with EXIF orientation 6 (rotate 90° to display): a 480×640 picture.
  images.exifRotated = b64(await solid(640, 480).jpeg().withMetadata({ orientation: 6 }).toBuffer());
  images.small = b64(await solid(119, 640).jpeg().toBuffer());
  images.minimum = b64(await solid(120, 120).png().toBuffer());
  images.huge = b64(await solid(4097, 200).png().toBuffer());
  images.gif = b64(await solid(480, 640).gif().toBuffer());
  images.webp = b64(await solid(480, 640).webp().toBuffer());
  images.tiff = b64(await solid(480, 640).tiff().toBuffer());
  const png = await solid(480, 640).png().toBuffer();
  // A PNG signature followed by garbage: sniffed as PNG, unreadable.
  images.brokenPng = b64(Buffer.concat([png.subarray(0, 8), Buffer.alloc(64, 7)]));
  images.text = Buffer.from('not an image at all').toString('base64');
});

const frames = (count: number, data = images.jpeg!): LivenessFrameInput[] =>
  Array.from({ length: count }, (_, i) => ({ data, timestamp: 1000 + 100 * i }));

const input = (workflow: string, overrides: Partial<LivenessInput> = {}): LivenessInput => ({
  workflow,
  frames: frames(workflow.startsWith('hotel') ? 1 : 3),
  ...overrides,
});

/** Expects the request refused with this code, its message matching `message`. */
async function assertRefused(
  request: LivenessInput,
  code: number,
  message: RegExp,
  meta?: Record<string, unknown>,
): Promise<void> {
  await assert.rejects(parseLivenessRequest(request, meta), (error) => {
    assert.ok(error instanceof LivenessInputError, String(error));
    assert.equal(error.code, code, error.message);
    assert.match(error.message, message);
    return true;
  });
}

describe('parseLivenessRequest: valid requests', () => {
  it('reads a hotel request with the defaults', async () => {
    const request = await parseLivenessRequest(input('hotel4', { timestamp: 1234 }), undefined);
    assert.deepEqual(request.workflow, {
      name: 'hotel4',
      method: 'hotel',
      securityLevel: 4,
      move: undefined,
      minFrames: 1,
    });
    assert.equal(request.frames.length, 1);
    const [first] = request.frames;
    assert.deepEqual(first!.bytes, Buffer.from(images.jpeg!, 'base64'));
    assert.equal(first!.timestamp, 1000);
    assert.deepEqual(first!.tags, []);
    assert.equal(first!.screenColour, undefined);
    assert.equal(request.width, 480);
    assert.equal(request.height, 640);
    assert.equal(request.rotation, 0);
    assert.equal(request.packageTimestamp, 1234);
    assert.equal(request.lightTraceMode, 'NORMAL');
    assert.equal(request.faceMinSize, 0);
    assert.equal(request.faceMaxSize, 1);
    assert.equal(request.faceMinScore, 0.3);
    assert.deepEqual(request.deviceNames, []);
  });

  it('takes the detection settings, the security level override and the light-trace mode', async () => {
    const request = await parseLivenessRequest(
      input('foxtrot2', {
        security_level: 7,
        face_detection_min_size: 0.2,
        face_detection_max_size: 0.8,
        face_detection_sensitivity: 0.5,
        face_detection_granularity: 1,
        face_detection_mode: 'DOMINANT_FACE_BY_SIZE',
        intelligentLiveness: { lightTraceMode: 'STRICT' },
      }),
      undefined,
    );
    assert.equal(request.workflow.securityLevel, 7);
    assert.equal(request.workflow.minFrames, 3);
    assert.equal(request.faceMinSize, 0.2);
    assert.equal(request.faceMaxSize, 0.8);
    assert.equal(request.faceMinScore, 0.6);
    assert.equal(request.lightTraceMode, 'STRICT');
    // Equal bounds are allowed.
    const equal = await parseLivenessRequest(
      input('hotel4', { face_detection_min_size: 0.5, face_detection_max_size: 0.5 }),
      undefined,
    );
    assert.equal(equal.faceMinSize, 0.5);
  });

  it('reads the active workflows with their head move', async () => {
    const request = await parseLivenessRequest(input('active_left', { frames: frames(2) }), undefined);
    assert.deepEqual(request.workflow, {
      name: 'active_left',
      method: 'active',
      securityLevel: 4,
      move: 'left',
      minFrames: 2,
    });
  });

  it('accepts PNG, the smallest and EXIF-rotated frames, and swaps the sides for a rotation of 90 or 270', async () => {
    const png = await parseLivenessRequest(input('hotel4', { frames: frames(1, images.png) }), undefined);
    assert.deepEqual([png.width, png.height], [480, 640]);
    const minimum = await parseLivenessRequest(input('hotel4', { frames: frames(1, images.minimum) }), undefined);
    assert.deepEqual([minimum.width, minimum.height], [120, 120]);
    const exif = await parseLivenessRequest(input('hotel4', { frames: frames(1, images.exifRotated) }), undefined);
    assert.deepEqual([exif.width, exif.height], [480, 640]);
    for (const rotation of [90, 270]) {
      const turned = await parseLivenessRequest(input('hotel4', { rotation }), undefined);
      assert.deepEqual([turned.width, turned.height, turned.rotation], [640, 480, rotation]);
    }
    const upsideDown = await parseLivenessRequest(input('hotel4', { rotation: 180 }), undefined);
    assert.deepEqual([upsideDown.width, upsideDown.height], [480, 640]);
  });

  it('reads the screen colour of each charlie frame from its tags', async () => {
    const tagged = frames(3).map((f, i) => ({
      ...f,
      tags: [['SCREEN_RED'], ['OTHER', 'SCREEN_COLOR_00FF80'], ['SCREEN_BLUE']][i],
    }));
    const request = await parseLivenessRequest(input('charlie4', { frames: tagged }), undefined);
    assert.deepEqual(
      request.frames.map((f) => f.screenColour),
      [
        [255, 0, 0],
        [0, 255, 128],
        [0, 0, 255],
      ],
    );
    assert.deepEqual(request.frames[1]!.tags, ['OTHER', 'SCREEN_COLOR_00FF80']);
  });

  it('keeps a frame without a tag list (tags given as a number) untagged', async () => {
    const request = await parseLivenessRequest(input('hotel4', { frames: [{ ...frames(1)[0]!, tags: 3 }] }), undefined);
    assert.deepEqual(request.frames[0]!.tags, []);
  });

  it('collects the device names the injection signals read from the meta data, non-empty strings only', async () => {
    const all = {
      client_version: '2.1',
      client_device_brand: 'Acme',
      client_device_model: 'Phone 9',
      client_os_version: 'Android 14',
      other: 'ignored',
    };
    const named = await parseLivenessRequest(input('hotel4'), all);
    assert.deepEqual(named.deviceNames, ['Acme', 'Phone 9', 'Android 14', '2.1']);
    const some = { client_version: '2.1', client_device_brand: 'Acme', client_device_model: '', client_os_version: 14 };
    const request = await parseLivenessRequest(input('hotel4'), some);
    assert.deepEqual(request.deviceNames, ['Acme', '2.1']);
  });

  it("hands each frame's data to the frame reader with its field name", async () => {
    const fields: string[] = [];
    const jpeg = Buffer.from(images.jpeg!, 'base64');
    const request = await parseLivenessRequest(
      input('foxtrot4', { frames: frames(3, 'envelope') }),
      undefined,
      (data, field) => {
        assert.equal(data, 'envelope');
        fields.push(field);
        return jpeg;
      },
    );
    assert.deepEqual(fields, ['frames[0].data', 'frames[1].data', 'frames[2].data']);
    assert.equal(request.frames.length, 3);
  });
});

describe('parseLivenessRequest: refusals', () => {
  it('-6 for an unknown workflow or a security level outside 1..10', async () => {
    await assertRefused(input('hotel3'), LivenessCode.invalidValue, /workflow must be one of .*\(got 'hotel3'\)/);
    await assertRefused(input('active_sideways'), LivenessCode.invalidValue, /workflow must be one of/);
    await assertRefused(
      input('hotel4', { security_level: 0 }),
      LivenessCode.invalidValue,
      /security_level must be from 1 to 10 \(got 0\)/,
    );
    await assertRefused(input('hotel4', { security_level: 11 }), LivenessCode.invalidValue, /security_level/);
  });

  it('118-122 for detection settings outside 0..1, and 120 for a minimum above the maximum', async () => {
    await assertRefused(
      input('hotel4', { face_detection_min_size: 1.5 }),
      118,
      /face_detection_min_size must be from 0 to 1 \(got 1.5\)/,
    );
    await assertRefused(input('hotel4', { face_detection_min_size: Number.NaN }), 118, /face_detection_min_size/);
    await assertRefused(input('hotel4', { face_detection_max_size: -0.1 }), 119, /face_detection_max_size/);
    await assertRefused(
      input('hotel4', { face_detection_min_size: 0.6, face_detection_max_size: 0.5 }),
      120,
      /face_detection_min_size \(0.6\) must not exceed face_detection_max_size \(0.5\)/,
    );
    await assertRefused(input('hotel4', { face_detection_sensitivity: 2 }), 121, /face_detection_sensitivity/);
    await assertRefused(input('hotel4', { face_detection_granularity: -1 }), 122, /face_detection_granularity/);
  });

  it('155 for an unknown face detection mode, 312 for a rotation off the right angles', async () => {
    await assertRefused(
      input('hotel4', { face_detection_mode: 'BIGGEST' }),
      155,
      /face_detection_mode must be one of .*\(got 'BIGGEST'\)/,
    );
    await assertRefused(input('hotel4', { rotation: 45 }), 312, /rotation must be 0, 90, 180 or 270 \(got 45\)/);
    await assertRefused(input('hotel4', { rotation: -90 }), 312, /rotation/);
  });

  it('-6 for an unknown light-trace mode', async () => {
    await assertRefused(
      input('hotel4', { intelligentLiveness: { lightTraceMode: 'LOOSE' } }),
      LivenessCode.invalidValue,
      /lightTraceMode must be NORMAL or STRICT \(got 'LOOSE'\)/,
    );
  });

  it('-6 for too few or too many frames for the workflow', async () => {
    await assertRefused(
      input('foxtrot4', { frames: frames(2) }),
      -6,
      /workflow foxtrot4 takes 3 to 10 frames \(got 2\)/,
    );
    await assertRefused(input('hotel4', { frames: [] }), -6, /takes 1 to 10 frames \(got 0\)/);
    await assertRefused(input('active_up', { frames: frames(1) }), -6, /takes 2 to 10 frames/);
    await assertRefused(input('hotel4', { frames: frames(11) }), -6, /\(got 11\)/);
  });

  it('141 for a negative, non-finite or decreasing timestamp; 125 for two frames at one time', async () => {
    const at = (...timestamps: number[]) => timestamps.map((timestamp) => ({ data: images.jpeg!, timestamp }));
    await assertRefused(input('hotel4', { frames: at(-1) }), 141, /frames\[0\]\.timestamp must be at least 0/);
    await assertRefused(input('hotel4', { frames: at(Number.POSITIVE_INFINITY) }), 141, /frames\[0\]\.timestamp/);
    await assertRefused(
      input('foxtrot4', { frames: at(100, 300, 200) }),
      141,
      /frames\[2\]\.timestamp .*\(got 200 after 300\)/,
    );
    await assertRefused(input('foxtrot4', { frames: at(100, 200, 200) }), 125, /frames\[2\]: the time between frames/);
    const zero = await parseLivenessRequest(input('hotel4', { frames: at(0) }), undefined);
    assert.equal(zero.frames[0]!.timestamp, 0);
  });

  it('-7 for data that is no image, 152 for formats other than JPEG and PNG, 139 for unreadable image data', async () => {
    await assertRefused(input('hotel4', { frames: frames(1, images.text) }), -7, /frames\[0\]\.data is not image data/);
    await assertRefused(
      input('hotel4', { frames: frames(1, images.gif) }),
      152,
      /frames\[0\] is GIF; frames must be JPEG or PNG/,
    );
    await assertRefused(input('hotel4', { frames: frames(1, images.webp) }), 152, /is WEBP/);
    await assertRefused(input('hotel4', { frames: frames(1, images.tiff) }), 152, /is TIFF/);
    await assertRefused(
      input('hotel4', { frames: frames(1, images.brokenPng) }),
      139,
      /frames\[0\]: the PNG data could not be parsed/,
    );
  });

  it('-8 for a frame under 120 or over 4096 pixels a side', async () => {
    await assertRefused(
      input('hotel4', { frames: frames(1, images.small) }),
      -8,
      /frames\[0\] is 119×640; frames must be 120 to 4096 pixels a side/,
    );
    await assertRefused(input('hotel4', { frames: frames(1, images.huge) }), -8, /is 4097×200/);
  });

  it('153 for frames of different sizes, after rotation', async () => {
    const mixed = [images.jpeg!, images.jpeg!, images.landscape!].map((data, i) => ({ data, timestamp: i }));
    await assertRefused(
      input('foxtrot4', { frames: mixed }),
      153,
      /frames\[2\] is 640×480; every frame must match the first \(480×640\)/,
    );
    const rotated = [images.jpeg!, images.png!, images.landscape!].map((data, i) => ({ data, timestamp: i }));
    await assertRefused(
      input('foxtrot4', { frames: rotated, rotation: 90 }),
      153,
      /frames\[2\] is 480×640; .*\(640×480\)/,
    );
  });

  it('-6 for a charlie request without 3 frames tagged with the screen colour in at least 2 colours', async () => {
    const tagged = (...tags: string[][]) => frames(tags.length).map((f, i) => ({ ...f, tags: tags[i] }));
    await assertRefused(
      input('charlie4', { frames: tagged(['SCREEN_RED'], ['SCREEN_BLUE'], []) }),
      -6,
      /needs at least 3 frames tagged/,
    );
    await assertRefused(
      input('charlie4', { frames: tagged(['SCREEN_RED'], ['SCREEN_RED'], ['SCREEN_COLOR_FF0000']) }),
      -6,
      /in at least 2 colours/,
    );
  });

  it('refuses base64 that is not canonical, naming the frame field', async () => {
    const request = input('hotel4', { frames: [{ data: 'not base64!', timestamp: 1 }] });
    await assert.rejects(parseLivenessRequest(request, undefined), (error) => {
      assert.ok(error instanceof InvalidBase64Error);
      assert.equal(error.field, 'frames[0].data');
      return true;
    });
  });
});

describe('parseLivenessRequest: the order of the checks', () => {
  it('reports the workflow first, then the detection settings in order, then frames, then their images', async () => {
    const everythingWrong: LivenessInput = {
      workflow: 'hotel9',
      frames: [{ data: images.text!, timestamp: -1 }],
      face_detection_min_size: 2,
      face_detection_max_size: 2,
      face_detection_sensitivity: 2,
      face_detection_granularity: 2,
      face_detection_mode: 'X',
      rotation: 1,
      intelligentLiveness: { lightTraceMode: 'X' },
    };
    const steps: Array<[Partial<LivenessInput>, number]> = [
      [{}, -6],
      [{ workflow: 'hotel4' }, 118],
      [{ face_detection_min_size: 0.1 }, 119],
      [{ face_detection_max_size: 0.05 }, 120],
      [{ face_detection_max_size: 0.9 }, 121],
      [{ face_detection_sensitivity: 0.5 }, 122],
      [{ face_detection_granularity: 0.5 }, 155],
      [{ face_detection_mode: 'FACE_ORDERING_BY_SCORE' }, 312],
      [{ rotation: 0 }, -6],
      [{ intelligentLiveness: { lightTraceMode: 'NORMAL' } }, 141],
      [{ frames: [{ data: images.text!, timestamp: 1 }] }, -7],
    ];
    let request = everythingWrong;
    for (const [fix, code] of steps) {
      request = { ...request, ...fix };
      await assertRefused(request, code, /./);
    }
  });

  it('checks the frame count before the timestamps, and every timestamp before any image', async () => {
    await assertRefused(input('foxtrot4', { frames: [{ data: images.jpeg!, timestamp: -1 }] }), -6, /frames/);
    const badImageThenBadTime = [
      { data: images.text!, timestamp: 1 },
      { data: images.jpeg!, timestamp: 2 },
      { data: images.jpeg!, timestamp: 2 },
    ];
    await assertRefused(input('foxtrot4', { frames: badImageThenBadTime }), 125, /frames\[2\]/);
  });
});
