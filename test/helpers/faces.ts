import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { FaceEngine } from '../../src/engines/face/face-engine.js';

const require = createRequire(import.meta.url);
const DEMO = join(dirname(require.resolve('@vladmandic/face-api')), '..', 'demo');

/** Face boxes [x, y, size] in face-api's demo photos (group photos of different people). */
const PEOPLE = {
  /** sample3.jpg, left. */
  anna: { file: 'sample3.jpg', x: 515, y: 295, size: 361 },
  /** sample3.jpg, middle. */
  bella: { file: 'sample3.jpg', x: 997, y: 189, size: 367 },
  /** sample6.jpg, second from right. */
  carla: { file: 'sample6.jpg', x: 1081, y: 280, size: 368 },
} as const;

export type Person = keyof typeof PEOPLE;

export interface CropOptions {
  /** Border around the face box, as a share of its size. */
  readonly margin?: number;
  /** Output width in pixels. */
  readonly width?: number;
  readonly brightness?: number;
  readonly rotateDegrees?: number;
  readonly quality?: number;
}

/**
 * A JPEG portrait of one person, cut from a photo that ships with `@vladmandic/face-api`; the
 * options make other captures of the same face (framing, size, light, tilt, compression).
 */
export async function portrait(person: Person, options: CropOptions = {}): Promise<Buffer> {
  const { file, x, y, size } = PEOPLE[person];
  const margin = options.margin ?? 0.3;
  const source = sharp(join(DEMO, file));
  const meta = await source.metadata();
  const left = Math.max(0, Math.round(x - margin * size));
  const top = Math.max(0, Math.round(y - margin * size));
  const width = Math.min((meta.width ?? 0) - left, Math.round(size * (1 + 2 * margin)));
  const height = Math.min((meta.height ?? 0) - top, Math.round(size * (1 + 2 * margin)));
  let image = source.extract({ left, top, width, height }).resize({ width: options.width ?? 480 });
  if (options.brightness !== undefined) image = image.modulate({ brightness: options.brightness });
  if (options.rotateDegrees !== undefined) image = image.rotate(options.rotateDegrees, { background: '#808080' });
  return image.jpeg({ quality: options.quality ?? 90 }).toBuffer();
}

/**
 * A 480×640 frame cut from the whole demo photo around the person: a 3:4 window `scale` face boxes wide, the
 * face in its own surroundings as a camera frames it, with no pasted edge. The ONNX PAD model reads 2.7 face
 * boxes around the face, so it sees a portrait pasted on a flat canvas (`selfieFrame`) as the photo it is.
 */
export async function photoFrame(person: Person, scale = 2): Promise<Buffer> {
  const { file, x, y, size } = PEOPLE[person];
  const source = sharp(join(DEMO, file));
  const meta = await source.metadata();
  const width = Math.round(size * scale);
  const height = Math.round((width * 4) / 3);
  const left = Math.max(0, Math.min((meta.width ?? 0) - width, Math.round(x + size / 2 - width / 2)));
  const top = Math.max(0, Math.min((meta.height ?? 0) - height, Math.round(y + size / 2 - 0.45 * height)));
  return source.extract({ left, top, width, height }).resize(480, 640).jpeg({ quality: 90 }).toBuffer();
}

/** A whole demo photo (several people). */
export async function groupPhoto(): Promise<Buffer> {
  return sharp(join(DEMO, 'sample3.jpg')).resize({ width: 960 }).jpeg().toBuffer();
}

/** A photo without a face: a smooth gradient. */
export async function noFacePhoto(): Promise<Buffer> {
  const width = 320;
  const height = 240;
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < width * height; i++) pixels.fill(Math.round((i % width) / (width / 255)), i * 3, i * 3 + 3);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg()
    .toBuffer();
}

let engine: FaceEngine | undefined;

/**
 * One face-engine pool (one worker) per test process: model loading is the slow part. It runs the ONNX PAD model
 * and computes the hand-made PAD features, so that apps deciding with either model can share it (testApp decides
 * with the hand-made one).
 */
export function testFaceEngine(): FaceEngine {
  engine ??= FaceEngine.start({ workers: 1, handmadePadFeatures: true });
  return engine;
}

export async function closeTestFaceEngine(): Promise<void> {
  await engine?.close();
  engine = undefined;
}

/**
 * An image placed on a grey canvas (JPEG, quality 90): centred, then moved by (dx, dy), or at `top`
 * when given.
 */
export async function onCanvas(
  image: Buffer,
  canvas: { width: number; height: number; grey: number },
  place: { dx?: number; dy?: number; top?: number } = {},
): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const w = meta.width ?? 0;
  const h = meta.height ?? 0;
  const grey = canvas.grey;
  return sharp({
    create: { width: canvas.width, height: canvas.height, channels: 3, background: { r: grey, g: grey, b: grey } },
  })
    .composite([
      {
        input: image,
        left: Math.round((canvas.width - w) / 2 + (place.dx ?? 0)),
        top: place.top ?? Math.round((canvas.height - h) / 2 + (place.dy ?? 0)),
      },
    ])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/**
 * A frame as a phone held up to the camera would show it: the frame at 70% inside a black bezel,
 * on a 480×640 grey frame.
 */
export async function onPhoneScreen(frame: Buffer): Promise<Buffer> {
  const inner = await sharp(frame)
    .resize(336, 448)
    .extend({ top: 16, bottom: 16, left: 16, right: 16, background: '#0a0a0a' })
    .toBuffer();
  return onCanvas(inner, { width: 480, height: 640, grey: 150 });
}

/**
 * A 480×640 selfie-style frame: the person's portrait (300 px) on a grey background, shifted by
 * (dx, dy) pixels and tilted `degrees`, so a sequence of them has the small motion of a hand-held
 * phone.
 */
export async function selfieFrame(
  person: Person,
  motion: { dx?: number; dy?: number; degrees?: number } = {},
  options: CropOptions = {},
): Promise<Buffer> {
  const face = await portrait(person, { width: 300, rotateDegrees: motion.degrees ?? 0, ...options });
  return onCanvas(face, { width: 480, height: 640, grey: 128 }, motion);
}

/**
 * The frame as a flat picture turned by `degrees` about its vertical axis in front of a camera (focal
 * length 600 px): the perspective a print or phone shows when rotated, with no depth of its own.
 */
export async function turnedPicture(frame: Buffer, degrees: number): Promise<Buffer> {
  const { data, info } = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  const out = Buffer.alloc(width * height * 3, 128);
  const t = (degrees * Math.PI) / 180;
  const f = 600;
  for (let v = 0; v < height; v++) {
    for (let u = 0; u < width; u++) {
      const cu = u - width / 2;
      const cv = v - height / 2;
      const x = (cu * f) / (f * Math.cos(t) - cu * Math.sin(t));
      const y = (cv * (f + x * Math.sin(t))) / f;
      const sx = Math.round(x + width / 2);
      const sy = Math.round(y + height / 2);
      if (sx >= 0 && sy >= 0 && sx < width && sy < height)
        data.copy(out, (v * width + u) * 3, (sy * width + sx) * 3, (sy * width + sx) * 3 + 3);
    }
  }
  return sharp(out, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}
