/**
 * Replay attacks on the multi-frame liveness signals, built from one still frame: what a virtual
 * camera, an emulator or a tampered app sends when all it has is a photo (issue 16). Each returns the
 * frames as JPEG, each encoded once; with `screen` colours (charlie) each frame is first tinted by its
 * colour, as an attacker who knows the sequence would render it. The suite
 * (`npm run eval -- liveness-attacks`) and the tests send them as sequences.
 */
import sharp from 'sharp';
import { seededRandom } from '../../src/lib/seeded-random.js';
import { gaussian } from './camera-simulation.js';

export type Rgb = readonly [number, number, number];

export interface RawImage {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
}

/**
 * The still decoded to RGB bytes.
 *
 * @example
 * const { data, width, height } = await rawOf(jpeg);
 */
export async function rawOf(jpeg: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(jpeg).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Encodes a frame, tinted first by `colour` (12% of it) when one is given. */
function jpegOf(image: RawImage, quality = 90, colour?: Rgb): Promise<Buffer> {
  const data = colour
    ? Buffer.from(image.data.map((v, i) => clampByte(0.88 * v + 0.12 * (colour[i % 3] ?? 0))))
    : image.data;
  return sharp(data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality })
    .toBuffer();
}

/**
 * The same bytes `count` times; with screen colours (charlie), the still tinted by each and encoded once.
 *
 * @example
 * await identical(still); // [still, still, still]
 */
export async function identical(still: Buffer, count = 3, screen?: readonly Rgb[]): Promise<Buffer[]> {
  if (screen === undefined) return Array.from({ length: count }, () => still);
  const image = await rawOf(still);
  return Promise.all(Array.from({ length: count }, (_, i) => jpegOf(image, 90, screen[i])));
}

/**
 * The still decoded and encoded again at each quality.
 *
 * @example
 * await reencoded(still, [90, 89, 88]);
 */
export async function reencoded(
  still: Buffer,
  qualities: readonly number[] = [90, 89, 88],
  screen?: readonly Rgb[],
): Promise<Buffer[]> {
  const image = await rawOf(still);
  return Promise.all(qualities.map((q, i) => jpegOf(image, q, screen?.[i])));
}

/** A small similarity transform of a frame (px, ratio, degrees) and the quality it is encoded at. */
export interface Move {
  readonly dx?: number;
  readonly dy?: number;
  readonly scale?: number;
  readonly degrees?: number;
  readonly quality?: number;
  /** Encoded at this quality first and decoded: a still that went through a coarser encoder before. */
  readonly firstQuality?: number;
}

/**
 * The still under a small similarity transform per frame — shift (px), scale, rotation (degrees) about
 * the centre — resampled with the given kernel (edges repeated), then encoded at the quality.
 *
 * @example
 * await transformed(still, [{}, { dx: 1, quality: 89 }, { scale: 1.02, degrees: 0.7 }]);
 */
export async function transformed(
  still: Buffer,
  moves: readonly Move[],
  kernel: 'bilinear' | 'bicubic' = 'bicubic',
  screen?: readonly Rgb[],
): Promise<Buffer[]> {
  const image = await rawOf(still);
  return Promise.all(
    moves.map(async (m, i) => {
      let frame = warp(image, m.dx ?? 0, m.dy ?? 0, m.scale ?? 1, m.degrees ?? 0, kernel);
      if (m.firstQuality !== undefined) frame = await rawOf(await jpegOf(frame, m.firstQuality));
      return jpegOf(frame, m.quality ?? 90, screen?.[i]);
    }),
  );
}

/**
 * The still with its brightness scaled by each gain (and an offset of 2 levels a frame), re-encoded.
 *
 * @example
 * await brightnessRamp(still, [1, 1.04, 1.08]);
 */
export async function brightnessRamp(
  still: Buffer,
  gains: readonly number[] = [1, 1.04, 1.08],
  screen?: readonly Rgb[],
): Promise<Buffer[]> {
  const image = await rawOf(still);
  return Promise.all(
    gains.map((g, i) =>
      jpegOf({ ...image, data: Buffer.from(image.data.map((v) => clampByte(v * g + 2 * i))) }, 90, screen?.[i]),
    ),
  );
}

/**
 * The still with independent Gaussian noise of standard deviation `sigma` per frame and channel.
 *
 * @example
 * await withNoise(still, 2); // three frames, each with its own noise
 */
export async function withNoise(
  still: Buffer,
  sigma: number,
  options: { count?: number; seed?: number; screen?: readonly Rgb[] } = {},
): Promise<Buffer[]> {
  const image = await rawOf(still);
  const normal = gaussian(seededRandom(options.seed ?? 1));
  return Promise.all(
    Array.from({ length: options.count ?? 3 }, (_, i) =>
      jpegOf(
        { ...image, data: Buffer.from(image.data.map((v) => clampByte(v + sigma * normal()))) },
        90,
        options.screen?.[i],
      ),
    ),
  );
}

/**
 * A face cut from the still (a soft ellipse around `face`: x, y, width, height of its box) pasted,
 * unmoving, over frames of another capture (a live background with its own noise and motion).
 *
 * @example
 * await composited(still, face.box, await simulateCapture(scene, motions, INDOOR_SENSOR, 2));
 */
export async function composited(
  still: Buffer,
  face: readonly [number, number, number, number],
  backgrounds: readonly Buffer[],
  screen?: readonly Rgb[],
): Promise<Buffer[]> {
  const front = await rawOf(still);
  const [bx, by, bw, bh] = face;
  const cx = bx + bw / 2;
  const cy = by + bh / 2 - 0.1 * bh;
  const rx = 0.75 * bw;
  const ry = 0.85 * bh;
  return Promise.all(
    backgrounds.map(async (frame, index) => {
      const back = await rawOf(frame);
      if (back.width !== front.width || back.height !== front.height) throw new RangeError('frame sizes differ');
      const out = Buffer.from(back.data);
      for (let y = 0; y < back.height; y++) {
        for (let x = 0; x < back.width; x++) {
          const r = Math.hypot((x - cx) / rx, (y - cy) / ry);
          const alpha = r <= 0.9 ? 1 : r >= 1 ? 0 : (1 - r) / 0.1;
          if (alpha === 0) continue;
          for (let c = 0; c < 3; c++) {
            const i = (y * back.width + x) * 3 + c;
            out[i] = Math.round(alpha * (front.data[i] ?? 0) + (1 - alpha) * (back.data[i] ?? 0));
          }
        }
      }
      return jpegOf({ ...back, data: out }, 90, screen?.[index]);
    }),
  );
}

/**
 * The frame tinted by a screen colour (12% of it mixed in) and encoded again: what an attacker who
 * knows the colour sequence does to an existing frame to pass the light trace.
 *
 * @example
 * await tinted(frame, [255, 0, 0]);
 */
export async function tinted(frame: Buffer, colour: Rgb): Promise<Buffer> {
  return jpegOf(await rawOf(frame), 90, colour);
}

/** Resamples an image under a similarity about its centre (output pixel -> source), edges repeated. */
function warp(
  image: RawImage,
  dx: number,
  dy: number,
  scale: number,
  degrees: number,
  kernel: 'bilinear' | 'bicubic',
): RawImage {
  const { width, height, data } = image;
  const out = Buffer.alloc(data.length);
  const t = (-degrees * Math.PI) / 180;
  const cos = Math.cos(t) / scale;
  const sin = Math.sin(t) / scale;
  const cx = (width - 1) / 2;
  const cy = (height - 1) / 2;
  const at = (x: number, y: number, c: number) =>
    data[(Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))) * 3 + c] ?? 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x - cx - dx;
      const v = y - cy - dy;
      const sx = cx + cos * u - sin * v;
      const sy = cy + sin * u + cos * v;
      const x0 = Math.floor(sx);
      const y0 = Math.floor(sy);
      const fx = sx - x0;
      const fy = sy - y0;
      for (let c = 0; c < 3; c++) {
        let value = 0;
        if (kernel === 'bilinear') {
          value =
            (at(x0, y0, c) * (1 - fx) + at(x0 + 1, y0, c) * fx) * (1 - fy) +
            (at(x0, y0 + 1, c) * (1 - fx) + at(x0 + 1, y0 + 1, c) * fx) * fy;
        } else {
          const wx = keys(fx);
          const wy = keys(fy);
          for (let j = 0; j < 4; j++) {
            let line = 0;
            for (let i = 0; i < 4; i++) line += at(x0 - 1 + i, y0 - 1 + j, c) * (wx[i] ?? 0);
            value += line * (wy[j] ?? 0);
          }
        }
        out[(y * width + x) * 3 + c] = clampByte(value);
      }
    }
  }
  return { data: out, width, height };
}

function keys(t: number): [number, number, number, number] {
  const t2 = t * t;
  const t3 = t2 * t;
  return [-0.5 * t3 + t2 - 0.5 * t, 1.5 * t3 - 2.5 * t2 + 1, -1.5 * t3 + 2 * t2 + 0.5 * t, 0.5 * t3 - 0.5 * t2];
}

function clampByte(v: number): number {
  return Math.min(255, Math.max(0, Math.round(v)));
}
