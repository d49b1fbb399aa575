/**
 * A simulated phone camera filming a person, built from one photo: what the live side of the replay
 * attack suite is made of, since no recorded live video is at hand (docs/liveness.md states the limit).
 *
 * Each frame is rendered at twice the output resolution (the sensor), in linear light:
 * - the camera moves a little between frames (hand shake: shift, roll, scale) and the head moves on
 *   its own against the background (parallax: the face layer, cut out by a soft ellipse around the face
 *   mesh, takes an extra shift, roll and scale);
 * - the eyelids and the jaw move: upper-lid mesh points are pulled towards the lower lid (a blink) and
 *   the lower lip and chin pulled down (the mouth opening), by smooth warps anchored at mesh points;
 * - independent Poisson–Gaussian sensor noise is added per frame and per colour channel (shot noise of
 *   `fullWell`·L electrons, read noise `readNoise` electrons), with a small exposure drift;
 * - the sensor image is averaged 2×2 down to the output size, gamma-encoded (sRGB), quantised and
 *   encoded as JPEG.
 * What it leaves out: demosaicing, the ISP's denoising and sharpening, rolling shutter, motion blur,
 * real 3-D head rotation (the face layer moves as a picture).
 */
import sharp from 'sharp';
import type { FaceEngine } from '../../src/engines/face/face-engine.js';
import { seededRandom } from '../../src/lib/seeded-random.js';

export type MeshPoint = readonly [number, number, ...number[]];

/** A scene at sensor resolution (sRGB levels 0..255, interleaved RGB) with the face's mesh in its coordinates. */
export interface CameraScene {
  readonly rgb: Float32Array;
  readonly width: number;
  readonly height: number;
  readonly mesh: readonly MeshPoint[];
  /** Output frame size: half the sensor's, less the motion margin. */
  readonly output: { readonly width: number; readonly height: number };
  /** Sensor pixels of margin on each side, for the camera's motion. */
  readonly margin: number;
}

/** One frame's motion and expression, in output pixels and degrees. */
export interface FrameMotion {
  /** Camera shake: the whole picture moves. */
  readonly camera: Move;
  /** The head's own motion on top of the camera's (parallax against the background). */
  readonly head: Move;
  /** Eyelid closure, 0 (open) to 1 (closed). */
  readonly blink: number;
  /** Jaw drop, 0 (closed) to 1 (about a quarter of the mouth width). */
  readonly mouth: number;
  /** Exposure multiplier (auto-exposure drift), ~1. */
  readonly exposure: number;
  /**
   * The colour the phone's screen shows (charlie's light trace), 0..255 per channel: the face, close to
   * the screen, takes a share of it (its light adds to the room's).
   */
  readonly screen?: readonly [number, number, number];
}

export interface Move {
  readonly dx: number;
  readonly dy: number;
  readonly degrees: number;
  readonly scale: number;
}

export interface SensorSettings {
  /** Electrons at full white per sensor pixel: lower is noisier (less light, higher ISO). */
  readonly fullWell: number;
  /** Read noise, electrons. */
  readonly readNoise: number;
  readonly quality: number;
}

/** The colour of the inside of an open mouth (sRGB). */
const MOUTH_INTERIOR = [70, 25, 30] as const;
/** How strongly the screen lights the face (charlie): ±15% of its light per channel. */
const SCREEN_LIGHT = 0.3;

export const STILL: Move = { dx: 0, dy: 0, degrees: 0, scale: 1 };

/** A typical indoor phone front camera: ~1.6 levels of luma noise in mid-grey 8-bit output. */
export const INDOOR_SENSOR: SensorSettings = { fullWell: 1800, readNoise: 3, quality: 90 };

// FaceMesh indices.
const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148, 176, 149, 150, 136,
  172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
];
const EYES = [
  { upper: [246, 161, 160, 159, 158, 157, 173], lower: [7, 163, 144, 145, 153, 154, 155, 33, 133] },
  { upper: [466, 388, 387, 386, 385, 384, 398], lower: [249, 390, 373, 374, 380, 381, 382, 263, 362] },
];
const LOWER_LIP_AND_CHIN = [
  95, 88, 178, 87, 14, 317, 402, 318, 324, 146, 91, 181, 84, 17, 314, 405, 321, 375, 152, 148, 176, 149, 150, 377, 400,
  378, 379,
];
const UPPER_LIP_AND_NOSE = [191, 80, 81, 82, 13, 312, 311, 310, 415, 61, 291, 1, 2, 98, 327];

/**
 * The scene a photo makes: resized (Lanczos) to cover twice the output size plus a motion margin, with
 * the face mesh (found on the photo, in its pixels) carried over.
 *
 * @example
 * const scene = await cameraScene(photo, faces[0].mesh, { width: 480, height: 640 });
 */
export async function cameraScene(
  photo: Buffer,
  mesh: readonly MeshPoint[],
  output: { width: number; height: number },
): Promise<CameraScene> {
  const margin = Math.round(0.05 * 2 * output.width);
  const width = 2 * output.width + 2 * margin;
  const height = 2 * output.height + 2 * margin;
  const meta = await sharp(photo).metadata();
  const sw = meta.width ?? 0;
  const sh = meta.height ?? 0;
  const scale = Math.max(width / sw, height / sh);
  const rw = Math.max(width, Math.round(sw * scale));
  const rh = Math.max(height, Math.round(sh * scale));
  const left = Math.floor((rw - width) / 2);
  const top = Math.floor((rh - height) / 2);
  const { data } = await sharp(photo)
    .removeAlpha()
    .resize(rw, rh, { fit: 'fill' })
    .extract({ left, top, width, height })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const sx = rw / sw;
  const sy = rh / sh;
  return {
    rgb: Float32Array.from(data),
    width,
    height,
    mesh: mesh.map((p) => [(p[0] + 0.5) * sx - 0.5 - left, (p[1] + 0.5) * sy - 0.5 - top] as const),
    output,
    margin,
  };
}

/**
 * Renders the frames of one capture (see the file comment), as JPEG.
 *
 * @example
 * const frames = await simulateCapture(scene, handHeldMotions(3, seededRandom(1)), INDOOR_SENSOR, 7);
 */
export async function simulateCapture(
  scene: CameraScene,
  motions: readonly FrameMotion[],
  sensor: SensorSettings,
  seed: number,
): Promise<Buffer[]> {
  const random = seededRandom(seed);
  const normal = gaussian(random);
  const frames: Buffer[] = [];
  for (const motion of motions) {
    const pixels = renderFrame(scene, motion, sensor, normal);
    frames.push(
      await sharp(pixels, { raw: { width: scene.output.width, height: scene.output.height, channels: 3 } })
        .jpeg({ quality: sensor.quality })
        .toBuffer(),
    );
  }
  return frames;
}

/**
 * Motions of a hand-held phone over `count` frames ~100 ms apart: a random walk of camera shake
 * (~1.5 px, 0.3°) and of the head against the background (`headPixels` px per frame), blinks and jaw
 * motion as asked.
 *
 * @example
 * handHeldMotions(3, seededRandom(4), { headPixels: 1.5, blinkFrame: 1 });
 */
export function handHeldMotions(
  count: number,
  random: () => number,
  options: { headPixels?: number; cameraPixels?: number; blinkFrame?: number; mouthFrame?: number } = {},
): FrameMotion[] {
  const head = options.headPixels ?? 1.5;
  const camera = options.cameraPixels ?? 1.5;
  const signed = () => 2 * random() - 1;
  const out: FrameMotion[] = [];
  let c: Move = STILL;
  let h: Move = STILL;
  for (let i = 0; i < count; i++) {
    if (i > 0) {
      c = {
        dx: c.dx + camera * signed(),
        dy: c.dy + camera * signed(),
        degrees: c.degrees + 0.3 * signed(),
        scale: c.scale * (1 + 0.004 * signed()),
      };
      const angle = 2 * Math.PI * random();
      h = {
        dx: h.dx + head * Math.cos(angle),
        dy: h.dy + head * Math.sin(angle),
        degrees: h.degrees + 0.4 * signed(),
        scale: h.scale * (1 + 0.004 * signed()),
      };
    }
    out.push({
      camera: c,
      head: h,
      blink: options.blinkFrame === i ? 0.5 + 0.5 * random() : 0,
      mouth: options.mouthFrame === i ? 0.4 + 0.6 * random() : 0,
      exposure: 1 + 0.01 * signed(),
    });
  }
  return out;
}

/**
 * One frame: each output pixel is a 2×2 RGGB quad of the sensor binned (R, mean of the two G, B), each
 * photosite sampling the scene at its own position with its own shot and read noise; then sRGB bytes.
 */
function renderFrame(
  scene: CameraScene,
  motion: FrameMotion,
  sensor: SensorSettings,
  normal: () => number,
): Uint8Array {
  const { output, margin } = scene;
  const centre = centroid(scene.mesh, FACE_OVAL);
  // Sensor pixel -> scene pixel, for the background and for the face layer (head move, then camera's).
  const camera = inverseMove(motion.camera, output.width, output.height, 2, margin);
  const head = composeMoves(camera, inverseMove(motion.head, centre[0] - margin, centre[1] - margin, 2, 0));
  const ellipse = faceEllipse(scene.mesh);
  const warp = expressionWarp(scene.mesh, motion);
  const bytes = new Uint8Array(output.width * output.height * 3);
  const gain = motion.exposure * sensor.fullWell;
  const screen = motion.screen;
  const photosite = (x: number, y: number, channel: number): number => {
    const fx = head[0] * x + head[1] * y + head[2];
    const fy = head[3] * x + head[4] * y + head[5];
    const alpha = ellipse(fx, fy);
    let level = 0;
    if (alpha < 1)
      level +=
        (1 - alpha) *
        sample(scene, camera[0] * x + camera[1] * y + camera[2], camera[3] * x + camera[4] * y + camera[5], channel);
    let light = 1;
    if (alpha > 0) {
      const [dx, dy, dark] = warp(fx, fy);
      const skin = sample(scene, fx - dx, fy - dy, channel);
      level += alpha * (dark > 0 ? (1 - dark) * skin + dark * (MOUTH_INTERIOR[channel] ?? 0) : skin);
      // The screen's light on the face: up to +30% in the channels it shows, against the room's light.
      if (screen) light = 1 + alpha * SCREEN_LIGHT * ((screen[channel] ?? 0) / 255 - 0.5);
    }
    const electrons = toLinear(level) * light * gain;
    return electrons + Math.sqrt(Math.max(electrons, 0)) * normal() + sensor.readNoise * normal();
  };
  for (let oy = 0; oy < output.height; oy++) {
    for (let ox = 0; ox < output.width; ox++) {
      const x = 2 * ox;
      const y = 2 * oy;
      const r = photosite(x, y, 0);
      const g = (photosite(x + 1, y, 1) + photosite(x, y + 1, 1)) / 2;
      const b = photosite(x + 1, y + 1, 2);
      const o = (oy * output.width + ox) * 3;
      bytes[o] = Math.round(toSrgb(r / sensor.fullWell));
      bytes[o + 1] = Math.round(toSrgb(g / sensor.fullWell));
      bytes[o + 2] = Math.round(toSrgb(b / sensor.fullWell));
    }
  }
  return bytes;
}

type Map6 = readonly [number, number, number, number, number, number];

/**
 * The inverse of a move about (cx, cy) (output pixels × `sensorScale`), as an affine map of sensor
 * pixels, plus `offset` on both axes (the scene's margin).
 */
function inverseMove(move: Move, cx: number, cy: number, sensorScale: number, offset: number): Map6 {
  const t = (-move.degrees * Math.PI) / 180;
  const cos = Math.cos(t) / move.scale;
  const sin = Math.sin(t) / move.scale;
  const ux = -cx - move.dx * sensorScale;
  const uy = -cy - move.dy * sensorScale;
  return [cos, -sin, cx + cos * ux - sin * uy + offset, sin, cos, cy + sin * ux + cos * uy + offset];
}

/** outer ∘ inner. */
function composeMoves(outer: Map6, inner: Map6): Map6 {
  const [a, b, c, d, e, f] = outer;
  const [p, q, r, s, t, u] = inner;
  return [a * p + b * s, a * q + b * t, a * r + b * u + c, d * p + e * s, d * q + e * t, d * r + e * u + f];
}

/** A soft ellipse around the face oval, widened for hair and ears: 1 inside, 0 outside. */
function faceEllipse(mesh: readonly MeshPoint[]): (x: number, y: number) => number {
  const points = FACE_OVAL.map((i) => mesh[i]).filter((p): p is MeshPoint => p !== undefined);
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const cx = (Math.min(...xs) + Math.max(...xs)) / 2;
  const top = Math.min(...ys);
  const bottom = Math.max(...ys);
  const rx = ((Math.max(...xs) - Math.min(...xs)) / 2) * 1.2;
  const ry = ((bottom - top) / 2) * 1.3;
  const cy = (top + bottom) / 2 - 0.1 * (bottom - top);
  const feather = 0.08;
  return (x, y) => {
    const r = Math.hypot((x - cx) / rx, (y - cy) / ry);
    return r <= 1 - feather ? 1 : r >= 1 ? 0 : (1 - r) / feather;
  };
}

/**
 * The blink and the jaw drop at a point of the face layer: the displacement to sample the scene at
 * (Gaussian-weighted displacements of control points — moving upper lids and lower lip with chin,
 * fixed lower lids, brows, upper lip and nose — fading to none away from them), and how much of the
 * dark mouth interior shows there (the gap the lower lip leaves).
 */
function expressionWarp(
  mesh: readonly MeshPoint[],
  motion: FrameMotion,
): (x: number, y: number) => readonly [number, number, number] {
  const controls: Array<{ x: number; y: number; dy: number; r: number }> = [];
  const at = (i: number): MeshPoint => mesh[i] ?? [0, 0];
  const distance = (i: number, j: number) => Math.hypot(at(i)[0] - at(j)[0], at(i)[1] - at(j)[1]);
  // A blink: the part of each eye the lid has come down over shows the lid's skin, sampled above the eye.
  const lids = motion.blink > 0 ? EYES.map((eye) => eyelid(mesh, eye, motion.blink)) : [];
  let interior: (x: number, y: number) => number = () => 0;
  if (motion.mouth > 0) {
    const mouthWidth = distance(61, 291);
    const drop = 0.3 * motion.mouth * mouthWidth;
    const r = 0.3 * mouthWidth;
    for (const i of LOWER_LIP_AND_CHIN) controls.push({ x: at(i)[0], y: at(i)[1], dy: drop, r });
    for (const i of UPPER_LIP_AND_NOSE) controls.push({ x: at(i)[0], y: at(i)[1], dy: 0, r });
    const cx = (at(13)[0] + at(14)[0]) / 2;
    const cy = (at(13)[1] + at(14)[1]) / 2 + drop / 2;
    const a = 0.42 * mouthWidth;
    const b = Math.max(drop / 2, 1);
    interior = (x, y) => {
      const d = Math.hypot((x - cx) / a, (y - cy) / b);
      return d <= 0.8 ? 1 : d >= 1 ? 0 : (1 - d) / 0.2;
    };
  }
  if (controls.length === 0 && lids.length === 0) return () => [0, 0, 0];
  const reach = Math.max(0, ...controls.map((c) => c.r)) * 3;
  const minX = Math.min(...controls.map((c) => c.x)) - reach;
  const maxX = Math.max(...controls.map((c) => c.x)) + reach;
  const minY = Math.min(...controls.map((c) => c.y)) - reach;
  const maxY = Math.max(...controls.map((c) => c.y)) + reach;
  return (x, y) => {
    for (const lid of lids) {
      const dy = lid(x, y);
      if (dy !== 0) return [0, dy, 0];
    }
    if (x < minX || x > maxX || y < minY || y > maxY) return [0, 0, 0];
    let w0 = Math.exp(-4.5); // the weight of "no displacement" everywhere: fades the warp out 3 radii away
    let sy = 0;
    for (const c of controls) {
      const d2 = ((x - c.x) ** 2 + (y - c.y) ** 2) / (c.r * c.r);
      if (d2 > 9) continue;
      const w = Math.exp(-d2 / 2);
      w0 += w;
      sy += w * c.dy;
    }
    return [0, sy / w0, interior(x, y)];
  };
}

/**
 * One eye's closing lid: for a point of the face layer, how far above to sample the scene (the lid's
 * skin) where the lid covers the eye, 0 elsewhere. The eye is the ellipse through its corners and lid
 * middles, widened 20%; `closure` of its height, from the top, is covered.
 */
function eyelid(
  mesh: readonly MeshPoint[],
  eye: { readonly upper: readonly number[]; readonly lower: readonly number[] },
  closure: number,
): (x: number, y: number) => number {
  const at = (i: number): MeshPoint => mesh[i] ?? [0, 0];
  const a0 = at(eye.lower[7] ?? 0);
  const a1 = at(eye.lower[8] ?? 0);
  const cx = (a0[0] + a1[0]) / 2;
  const cy = (a0[1] + a1[1]) / 2;
  const width = Math.hypot(a1[0] - a0[0], a1[1] - a0[1]);
  const angle = Math.atan2(a1[1] - a0[1], a1[0] - a0[0]);
  const upperY = eye.upper.reduce((s, i) => s + at(i)[1], 0) / eye.upper.length;
  const lowerY = eye.lower.slice(0, 7).reduce((s, i) => s + at(i)[1], 0) / 7;
  const gap = Math.max(lowerY - upperY, 1);
  const a = 0.6 * width;
  const b = 0.6 * gap;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  return (x, y) => {
    const u = (x - cx) * cos + (y - cy) * sin;
    const v = -(x - cx) * sin + (y - cy) * cos;
    if ((u / a) ** 2 + (v / b) ** 2 > 1 || v > -b + 2 * b * closure) return 0;
    return 1.5 * gap;
  };
}

/** Bilinear sample of one channel of the scene at (x, y), clamped to its edge. */
function sample(scene: CameraScene, x: number, y: number, channel: number): number {
  const cx = Math.min(Math.max(x, 0), scene.width - 1.001);
  const cy = Math.min(Math.max(y, 0), scene.height - 1.001);
  const x0 = Math.floor(cx);
  const y0 = Math.floor(cy);
  const fx = cx - x0;
  const fy = cy - y0;
  const i = (y0 * scene.width + x0) * 3 + channel;
  const j = i + scene.width * 3;
  const d = scene.rgb;
  const top = (d[i] ?? 0) * (1 - fx) + (d[i + 3] ?? 0) * fx;
  const bottom = (d[j] ?? 0) * (1 - fx) + (d[j + 3] ?? 0) * fx;
  return top * (1 - fy) + bottom * fy;
}

function centroid(mesh: readonly MeshPoint[], indices: readonly number[]): [number, number] {
  const points = indices.map((i) => mesh[i]).filter((p): p is MeshPoint => p !== undefined);
  return [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length];
}

const LINEAR = Float32Array.from({ length: 256 }, (_, v) => {
  const s = v / 255;
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
});

/** sRGB level (0..255, fractional) to linear light 0..1. */
function toLinear(level: number): number {
  const v = Math.min(Math.max(level, 0), 255);
  const i = Math.min(Math.floor(v), 254);
  const f = v - i;
  return (LINEAR[i] ?? 0) * (1 - f) + (LINEAR[i + 1] ?? 0) * f;
}

/** Linear light to an sRGB level 0..255. */
function toSrgb(linear: number): number {
  const l = Math.min(Math.max(linear, 0), 1);
  const s = l <= 0.0031308 ? 12.92 * l : 1.055 * l ** (1 / 2.4) - 0.055;
  return 255 * s;
}

/**
 * Standard normal samples (Box–Muller) from a uniform generator.
 *
 * @example
 * const normal = gaussian(seededRandom(1)); normal(); // ~N(0, 1)
 */
export function gaussian(random: () => number): () => number {
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    const u = Math.max(random(), 1e-12);
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/** What a simulated capture shows: frame count, seed, sensor, a blink, charlie's screen colours, frame size. */
export interface SimulatedCaptureOptions {
  count?: number;
  seed?: number;
  sensor?: SensorSettings;
  blinkFrame?: number;
  screen?: ReadonlyArray<readonly [number, number, number]>;
  output?: { width: number; height: number };
}

/**
 * A simulated capture of the person in `photo` (its largest face's mesh found by `engine`): `count`
 * hand-held frames with fresh sensor noise, optionally a blink, and the screen colours of a charlie
 * capture lighting the face.
 *
 * @example
 * const frames = await simulatedCapture(testFaceEngine(), await photoFrame('anna'), { seed: 1 });
 */
export async function simulatedCapture(
  engine: FaceEngine,
  photo: Buffer,
  options: SimulatedCaptureOptions = {},
): Promise<Buffer[]> {
  const { scene, motions, sensor, seed } = await captureSetup(engine, photo, options);
  return simulateCapture(scene, motions, sensor, seed);
}

/**
 * The same capture as {@link simulatedCapture}, as the sensor's raw sRGB pixels (interleaved RGB, never
 * encoded): what a camera's video file holds (the browser tests' fake camera, test/integration/web-*.test.ts).
 *
 * @example
 * const video = await simulatedRawCapture(testFaceEngine(), await photoFrame('anna'), { count: 10 });
 * video.frames[0].length; // video.width * video.height * 3
 */
export async function simulatedRawCapture(
  engine: FaceEngine,
  photo: Buffer,
  options: SimulatedCaptureOptions = {},
): Promise<{ width: number; height: number; frames: Uint8Array[] }> {
  const { scene, motions, sensor, seed } = await captureSetup(engine, photo, options);
  const normal = gaussian(seededRandom(seed));
  const frames = motions.map((motion) => renderFrame(scene, motion, sensor, normal));
  return { width: scene.output.width, height: scene.output.height, frames };
}

/**
 * The camera scene of a photo's largest face (its mesh found by `engine`); undefined when it has no face.
 *
 * @example
 * const scene = await photoScene(testFaceEngine(), await photoFrame('anna'));
 */
export async function photoScene(
  engine: FaceEngine,
  photo: Buffer,
  output: { width: number; height: number } = { width: 480, height: 640 },
): Promise<CameraScene | undefined> {
  const analysis = await engine.analyze(photo, { views: [], description: false });
  const face = [...analysis.faces].sort((a, b) => b.box[2] - a.box[2])[0];
  return face && cameraScene(photo, face.mesh, output);
}

/**
 * A camera drawn at random over the range the replay suite's live side covers (eval/liveness-attacks.ts):
 * a sensor between bright light (full well 6000 e⁻: ~0.9 levels of luma noise in mid-grey) and dim (900 e⁻:
 * ~2.3), JPEG quality 90; `count` hand-held frames with the head moving 0.3-2.5 px a frame against the
 * background, camera shake 0.5-3 px, a blink in frame 1 and the mouth opening in frame 2 a third of the time each.
 *
 * @example
 * const { sensor, motions } = randomCamera(seededRandom(16));
 * const frames = await simulateCapture(scene, motions, sensor, 1000);
 */
export function randomCamera(random: () => number, count = 3): { sensor: SensorSettings; motions: FrameMotion[] } {
  const fullWell = Math.round(900 * Math.exp(Math.log(6000 / 900) * random()));
  const sensor = { fullWell, readNoise: 3, quality: 90 };
  const motions = handHeldMotions(count, random, {
    headPixels: 0.3 + 2.2 * random(),
    cameraPixels: 0.5 + 2.5 * random(),
    blinkFrame: random() < 1 / 3 ? 1 : undefined,
    mouthFrame: random() < 1 / 3 ? 2 : undefined,
  });
  return { sensor, motions };
}

/** The scene of the photo's largest face and the hand-held motions of a simulated capture. */
async function captureSetup(engine: FaceEngine, photo: Buffer, options: SimulatedCaptureOptions) {
  const seed = options.seed ?? 1;
  const scene = await photoScene(engine, photo, options.output);
  if (scene === undefined) throw new Error('no face in the photo to simulate a capture of');
  const motions = handHeldMotions(options.count ?? 3, seededRandom(seed), { blinkFrame: options.blinkFrame }).map(
    (m, i): FrameMotion => ({ ...m, screen: options.screen?.[i] }),
  );
  return { scene, motions, sensor: options.sensor ?? INDOOR_SENSOR, seed };
}
