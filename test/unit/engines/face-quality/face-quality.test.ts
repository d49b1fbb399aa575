import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import type { AnalyzedFace } from '../../../../src/engines/face/face-analysis-types.js';
import { decodeImage } from '../../../../src/engines/face/image-decoding.js';
import { measureFaceQuality, type FaceQuality } from '../../../../src/engines/face-quality/face-quality.js';
import {
  FACE_OVAL,
  LEFT_EYE_CONTOUR,
  meshPoint,
  NOSE_TIP,
  RIGHT_EYE_CONTOUR,
  RIGHT_EYE_LANDMARKS,
  LEFT_EYE_LANDMARKS,
} from '../../../../src/engines/face-quality/mesh-regions.js';
import { METRIC_NAMES, METRICS, type MetricName } from '../../../../src/engines/face-quality/metric-catalog.js';
import { fillPolygon } from '../../../../src/engines/face-quality/polygon-mask.js';
import { unifiedQuality } from '../../../../src/engines/face-quality/unified-quality.js';
import { closeTestFaceEngine, groupPhoto, portrait, selfieFrame, testFaceEngine } from '../../../helpers/faces.js';

const NO_EMBEDDINGS = { views: [], description: false } as const;

interface Measured {
  readonly face: AnalyzedFace & { readonly quality: FaceQuality };
  readonly faceCount: number;
  readonly width: number;
  readonly height: number;
}

/** The largest face of an image, with its quality measured in the face worker. */
async function measure(bytes: Buffer): Promise<Measured> {
  const analysis = await testFaceEngine().analyze(bytes, NO_EMBEDDINGS, { quality: true });
  assert.ok(analysis.faces.length > 0, 'a face is found');
  const face = analysis.faces.reduce((a, b) => (b.box[2] > a.box[2] ? b : a));
  assert.ok(face.quality, 'quality is attached');
  return {
    face: face as Measured['face'],
    faceCount: analysis.faces.length,
    width: analysis.width,
    height: analysis.height,
  };
}

async function metric(bytes: Buffer, name: MetricName): Promise<number> {
  const value = (await measure(bytes)).face.quality.metrics[name];
  assert.ok(value !== undefined, `${name} is measured`);
  return value;
}

/** The image with polygons (image pixels) painted in a colour. */
async function painted(
  bytes: Buffer,
  polygons: (readonly (readonly [number, number])[])[],
  colour: string,
): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(bytes).metadata();
  const shapes = polygons
    .map((p) => `<polygon points="${p.map(([x, y]) => `${x},${y}`).join(' ')}" fill="${colour}"/>`)
    .join('');
  return sharp(bytes)
    .composite([{ input: Buffer.from(`<svg width="${width}" height="${height}">${shapes}</svg>`) }])
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** A polygon grown about its centroid. */
function grown(points: readonly (readonly [number, number])[], sx: number, sy: number): [number, number][] {
  const cx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const cy = points.reduce((s, p) => s + p[1], 0) / points.length;
  return points.map(([x, y]) => [cx + (x - cx) * sx, cy + (y - cy) * sy]);
}

describe('face quality metrics', () => {
  let anna: Buffer;
  let annaMeasured: Measured;

  before(async () => {
    anna = await portrait('anna');
    annaMeasured = await measure(anna);
  });
  after(closeTestFaceEngine);

  it('measures every catalog metric of a portrait, each inside its catalog range, and the eye centres', async () => {
    for (const bytes of [anna, await portrait('bella'), await selfieFrame('carla')]) {
      const { face, width, height, faceCount } = bytes === anna ? annaMeasured : await measure(bytes);
      const { metrics, features } = face.quality;
      for (const name of METRIC_NAMES) {
        const value = metrics[name];
        assert.ok(value !== undefined && Number.isFinite(value), `${name} measured`);
        assert.ok(
          value >= METRICS[name].min && value <= METRICS[name].max,
          `${name} = ${value} in [${METRICS[name].min}, ${METRICS[name].max}]`,
        );
      }
      assert.equal(metrics.IMAGE_WIDTH, width);
      assert.equal(metrics.IMAGE_HEIGHT, height);
      assert.equal(metrics.SINGLE_FACE_PRESENT, faceCount);
      const left = features.find((f) => f.name === 'LEFT_EYE')!;
      const right = features.find((f) => f.name === 'RIGHT_EYE')!;
      assert.ok(left.x > right.x, "the person's left eye is on the image's right");
      assert.ok(Math.abs(Math.hypot(left.x - right.x, left.y - right.y) - metrics.INTER_EYE_DISTANCE!) < 1e-6);
    }
  });

  it('leaves the quality out unless asked, and counts the faces', async () => {
    const plain = await testFaceEngine().analyze(anna, NO_EMBEDDINGS);
    assert.equal(plain.faces[0]!.quality, undefined);
    assert.equal(plain.qualityMs, undefined);
    const group = await testFaceEngine().analyze(await groupPhoto(), NO_EMBEDDINGS, { quality: true });
    assert.ok(group.faces.length >= 2);
    for (const face of group.faces) assert.equal(face.quality?.metrics.SINGLE_FACE_PRESENT, group.faces.length);
  });

  it('sharpness falls as blur grows', async () => {
    const scores = [annaMeasured.face.quality.metrics.SHARPNESS!];
    for (const sigma of [1, 2, 4])
      scores.push(await metric(await sharp(anna).blur(sigma).jpeg({ quality: 95 }).toBuffer(), 'SHARPNESS'));
    for (let i = 1; i < scores.length; i++) assert.ok(scores[i]! < scores[i - 1]!, `sharpness ${scores.join(' > ')}`);
    assert.ok(scores[3]! < 50 && scores[0]! > 80, `sharp ${scores[0]}, blur 4: ${scores[3]}`);
  });

  it('exposure metrics follow the brightness', async () => {
    const dark = (await measure(await portrait('anna', { brightness: 0.25 }))).face.quality.metrics;
    const dim = (await measure(await portrait('anna', { brightness: 0.6 }))).face.quality.metrics;
    const normal = annaMeasured.face.quality.metrics;
    const bright = (await measure(await portrait('anna', { brightness: 1.8 }))).face.quality.metrics;
    assert.ok(
      dark.LUMINANCE_MEAN! < dim.LUMINANCE_MEAN! &&
        dim.LUMINANCE_MEAN! < normal.LUMINANCE_MEAN! &&
        normal.LUMINANCE_MEAN! < bright.LUMINANCE_MEAN!,
    );
    assert.ok(
      dark.UNDER_EXPOSURE_PREVENTION! < normal.UNDER_EXPOSURE_PREVENTION! - 10,
      `under-exposure ${dark.UNDER_EXPOSURE_PREVENTION} vs ${normal.UNDER_EXPOSURE_PREVENTION}`,
    );
    assert.ok(
      bright.OVER_EXPOSURE_PREVENTION! < normal.OVER_EXPOSURE_PREVENTION! - 10,
      `over-exposure ${bright.OVER_EXPOSURE_PREVENTION} vs ${normal.OVER_EXPOSURE_PREVENTION}`,
    );
    assert.ok(
      dark.DYNAMIC_RANGE! < normal.DYNAMIC_RANGE! && bright.DYNAMIC_RANGE! < normal.DYNAMIC_RANGE!,
      'squeezed or clipped luma uses fewer levels',
    );
    assert.ok(dark.LUMINANCE_VARIANCE! < normal.LUMINANCE_VARIANCE!);
  });

  it('illumination uniformity falls when one side of the face is in shade', async () => {
    const { width = 0, height = 0 } = await sharp(anna).metadata();
    const ramp = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++)
        ramp.fill(Math.round(255 * (0.3 + (0.7 * x) / width)), (y * width + x) * 3, (y * width + x) * 3 + 3);
    const shadeMask = await sharp(ramp, { raw: { width, height, channels: 3 } })
      .png()
      .toBuffer();
    const shaded = await sharp(anna)
      .composite([{ input: shadeMask, blend: 'multiply' }])
      .jpeg({ quality: 95 })
      .toBuffer();
    assert.ok(
      (await metric(shaded, 'ILLUMINATION_UNIFORMITY')) <
        annaMeasured.face.quality.metrics.ILLUMINATION_UNIFORMITY! - 10,
    );
  });

  it('roll follows an in-plane rotation in sign and size', async () => {
    const level = annaMeasured.face.quality.metrics.HEAD_POSE_ROLL!;
    for (const degrees of [10, -10]) {
      // sharp turns positive angles clockwise; the catalog's roll is positive clockwise in the image.
      const roll = await metric(await portrait('anna', { rotateDegrees: degrees }), 'HEAD_POSE_ROLL');
      assert.ok(Math.abs(roll - level - degrees) < 4, `rotated ${degrees}°: roll ${roll} from ${level}`);
    }
  });

  it('yaw is positive when the person turns to their left, and flips with a mirror image', async () => {
    const { face } = annaMeasured;
    // The nose tip on the image's right of the cheeks' middle: the person faces their left.
    const nose = meshPoint(face.mesh, NOSE_TIP)[0];
    const cheeks = (meshPoint(face.mesh, 234)[0] + meshPoint(face.mesh, 454)[0]) / 2;
    const yaw = face.quality.metrics.HEAD_POSE_YAW!;
    assert.ok(
      Math.abs(nose - cheeks) > 5 && Math.sign(nose - cheeks) === Math.sign(yaw),
      `nose offset ${nose - cheeks}, yaw ${yaw}`,
    );
    const mirrored = await metric(await sharp(anna).flop().jpeg({ quality: 95 }).toBuffer(), 'HEAD_POSE_YAW');
    assert.ok(
      Math.sign(mirrored) === -Math.sign(yaw) && Math.abs(Math.abs(mirrored) - Math.abs(yaw)) < 5,
      `yaw ${yaw}, mirrored ${mirrored}`,
    );
  });

  it('crop margins follow the face across the frame, in inter-eye distances', async () => {
    const at = async (dx: number, dy: number) =>
      (await measure(await selfieFrame('anna', { dx, dy }))).face.quality.metrics;
    const left = await at(-60, 0);
    const right = await at(60, 0);
    const down = await at(0, 60);
    const centre = await at(0, 0);
    assert.ok(right.LEFTWARD_CROP_OF_THE_FACE_IMAGE! > left.LEFTWARD_CROP_OF_THE_FACE_IMAGE!);
    assert.ok(right.RIGHTWARD_CROP_OF_THE_FACE_IMAGE! < left.RIGHTWARD_CROP_OF_THE_FACE_IMAGE!);
    assert.ok(down.UPWARD_CROP_OF_THE_FACE_IMAGE! > centre.UPWARD_CROP_OF_THE_FACE_IMAGE!);
    assert.ok(down.DOWNWARD_CROP_OF_THE_FACE_IMAGE! < centre.DOWNWARD_CROP_OF_THE_FACE_IMAGE!);
    // 120 px of shift is 120 / (inter-eye distance) in the crop unit.
    const expected = 120 / centre.INTER_EYE_DISTANCE!;
    const moved = right.LEFTWARD_CROP_OF_THE_FACE_IMAGE! - left.LEFTWARD_CROP_OF_THE_FACE_IMAGE!;
    assert.ok(Math.abs(moved - expected) < 0.15 * expected, `moved ${moved}, expected ${expected}`);
    const { width, height } = { width: centre.IMAGE_WIDTH!, height: centre.IMAGE_HEIGHT! };
    assert.ok(
      Math.abs(
        (centre.LEFTWARD_CROP_OF_THE_FACE_IMAGE! + centre.RIGHTWARD_CROP_OF_THE_FACE_IMAGE!) *
          centre.INTER_EYE_DISTANCE! -
          width,
      ) < 1e-6,
    );
    assert.ok(
      Math.abs(
        (centre.UPWARD_CROP_OF_THE_FACE_IMAGE! + centre.DOWNWARD_CROP_OF_THE_FACE_IMAGE!) * centre.INTER_EYE_DISTANCE! -
          height,
      ) < 1e-6,
    );
  });

  it('eye distance doubles with a 2× upscale, while relative geometry stays', async () => {
    const small = annaMeasured.face.quality.metrics;
    const large = (await measure(await portrait('anna', { width: 960 }))).face.quality.metrics;
    const ratio = large.INTER_EYE_DISTANCE! / small.INTER_EYE_DISTANCE!;
    assert.ok(Math.abs(ratio - 2) < 0.1, `ratio ${ratio}`);
    assert.ok(Math.abs(large.HEAD_SIZE! - small.HEAD_SIZE!) < 0.05 * small.HEAD_SIZE!);
    assert.ok(Math.abs(large.LEFTWARD_CROP_OF_THE_FACE_IMAGE! - small.LEFTWARD_CROP_OF_THE_FACE_IMAGE!) < 0.1);
  });

  it('compression quality falls at JPEG quality 10', async () => {
    const high = await metric(await portrait('anna', { quality: 95 }), 'COMPRESSION_ARTIFACTS');
    const low = await metric(await portrait('anna', { quality: 10 }), 'COMPRESSION_ARTIFACTS');
    assert.ok(high > 80 && low < 40, `quality 95: ${high}, quality 10: ${low}`);
  });

  it('natural colour falls for a greyscale face or one with red and blue swapped', async () => {
    const natural = annaMeasured.face.quality.metrics.NATURAL_COLOUR!;
    const grey = await metric(
      await sharp(anna).greyscale().toColourspace('srgb').jpeg({ quality: 95 }).toBuffer(),
      'NATURAL_COLOUR',
    );
    const swapped = await sharp(anna)
      .recomb([
        [0, 0, 1],
        [0, 1, 0],
        [1, 0, 0],
      ])
      .jpeg({ quality: 95 })
      .toBuffer();
    const blue = await metric(swapped, 'NATURAL_COLOUR');
    assert.ok(
      natural > 90 && grey < natural - 40 && blue < natural - 40,
      `natural ${natural}, grey ${grey}, swapped ${blue}`,
    );
  });

  it('background uniformity is higher on a plain backdrop than in a busy room', async () => {
    const plain = await metric(await selfieFrame('anna', {}, { margin: 0.05 }), 'BACKGROUND_UNIFORMITY');
    const busy = await metric(await portrait('anna', { margin: 0.8 }), 'BACKGROUND_UNIFORMITY');
    assert.ok(plain > busy + 20, `plain ${plain}, busy ${busy}`);
  });

  it('dark glasses lower eye visibility; a mask over the lower face lowers occlusion prevention', async () => {
    const { face } = annaMeasured;
    const eyes = [RIGHT_EYE_CONTOUR, LEFT_EYE_CONTOUR].map((contour) =>
      grown(
        contour.map((i) => meshPoint(face.mesh, i)),
        2.2,
        3,
      ),
    );
    const glasses = (await measure(await painted(anna, eyes, '#151515'))).face.quality.metrics;
    const bridge = meshPoint(face.mesh, 6);
    const lower = FACE_OVAL.map((i) => meshPoint(face.mesh, i)).filter(([, y]) => y > bridge[1]);
    lower.sort(
      (a, b) => Math.atan2(a[1] - bridge[1], a[0] - bridge[0]) - Math.atan2(b[1] - bridge[1], b[0] - bridge[0]),
    );
    const masked = (await measure(await painted(anna, [[...lower, bridge]], '#7fb0d8'))).face.quality.metrics;
    const clean = face.quality.metrics;
    assert.ok(
      glasses.EYES_VISIBLE! < clean.EYES_VISIBLE! - 50,
      `eyes visible ${clean.EYES_VISIBLE} → ${glasses.EYES_VISIBLE}`,
    );
    assert.ok(
      masked.FACE_OCCLUSION_PREVENTION! < clean.FACE_OCCLUSION_PREVENTION! - 30,
      `occlusion ${clean.FACE_OCCLUSION_PREVENTION} → ${masked.FACE_OCCLUSION_PREVENTION}`,
    );
    assert.ok(masked.UNIFIED_QUALITY! < clean.UNIFIED_QUALITY! && glasses.UNIFIED_QUALITY! < clean.UNIFIED_QUALITY!);
  });

  it('closing the eyes or opening the mouth in the mesh lowers eyes open, mouth closed and neutrality', async () => {
    const image = await decodeImage(anna);
    const { face, faceCount } = annaMeasured;
    const context = { faceCount };
    const base = measureFaceQuality(image, face, context).metrics;
    // Upper lids moved onto the lower lids.
    const closed = face.mesh.map((p) => [...p]);
    for (const eye of [RIGHT_EYE_LANDMARKS, LEFT_EYE_LANDMARKS])
      for (const [upper, lower] of eye.lids) closed[upper] = [...closed[lower]!];
    const shut = measureFaceQuality(image, { ...face, mesh: closed }, context).metrics;
    assert.ok(base.EYES_OPEN! > 80 && shut.EYES_OPEN! === 0, `eyes open ${base.EYES_OPEN} → ${shut.EYES_OPEN}`);
    // The lower lip (inner and outer middle) dropped by 40% of the inter-eye distance.
    const drop = 0.4 * base.INTER_EYE_DISTANCE!;
    const open = face.mesh.map((p) => [...p]);
    for (const i of [14, 17]) open[i] = [open[i]![0]!, open[i]![1]! + drop, open[i]![2]!];
    const gaping = measureFaceQuality(image, { ...face, mesh: open }, context).metrics;
    assert.ok(gaping.MOUTH_CLOSED! < base.MOUTH_CLOSED! && gaping.MOUTH_CLOSED! === 0);
    assert.ok(gaping.EXPRESSION_NEUTRALITY! < base.EXPRESSION_NEUTRALITY!);
    // Mouth corners raised by 15% of the inter-eye distance: a smile.
    const smile = face.mesh.map((p) => [...p]);
    for (const i of [61, 291])
      smile[i] = [smile[i]![0]!, smile[i]![1]! - 0.15 * base.INTER_EYE_DISTANCE!, smile[i]![2]!];
    assert.ok(
      measureFaceQuality(image, { ...face, mesh: smile }, context).metrics.EXPRESSION_NEUTRALITY! <
        base.EXPRESSION_NEUTRALITY!,
    );
  });
});

describe('unified quality and polygon masks', () => {
  it('combines components as a geometric mean that one poor component pulls down', () => {
    const good = {
      SHARPNESS: 90,
      EYES_OPEN: 100,
      COMPRESSION_ARTIFACTS: 95,
      HEAD_POSE_YAW: 0,
      HEAD_POSE_PITCH: 0,
      INTER_EYE_DISTANCE: 80,
    };
    const all = unifiedQuality(good)!;
    assert.ok(
      Math.abs(all - Math.exp((Math.log(90) + Math.log(100) + Math.log(95) + Math.log(100) + Math.log(100)) / 5)) <
        1e-9,
    );
    assert.ok(unifiedQuality({ ...good, EYES_OPEN: 0 })! < 40);
    assert.ok(unifiedQuality({ ...good, HEAD_POSE_YAW: 30 })! < all);
    assert.ok(unifiedQuality({ ...good, INTER_EYE_DISTANCE: 20 })! < all);
    assert.equal(unifiedQuality({}), undefined);
  });

  it('fills a polygon by pixel positions, scaled about its centroid', () => {
    const mask = new Uint8Array(10 * 10);
    fillPolygon(
      mask,
      10,
      10,
      [
        [2, 2],
        [7, 2],
        [7, 7],
        [2, 7],
      ],
      1,
    );
    // Rows 2..6 (a vertex row counts once: half-open), columns 2..7.
    assert.equal(
      mask.reduce((n, v) => n + v, 0),
      30,
    );
    fillPolygon(
      mask,
      10,
      10,
      [
        [2, 2],
        [7, 2],
        [7, 7],
        [2, 7],
      ],
      0,
      0.5,
    );
    assert.equal(
      mask.reduce((n, v) => n + v, 0),
      30 - 4,
    );
  });
});
