import type { AnalyzedFace, WorkerAnalysis } from '../face/face-analysis-types.js';
import { lumaQuantisation } from './jpeg-quantisation.js';
import type { LumaWindow } from './luma-window.js';
import { bandNoise, MIN_FLOOR, reencodingFloor } from './temporal-noise.js';
import {
  applyAffine,
  fitAffine,
  IDENTITY,
  registerWindows,
  residualOf,
  type Affine,
  type Registration,
} from './window-registration.js';

/**
 * Frame-to-frame motion of a sequence, measured once and read by the multi-frame signals: each
 * consecutive pair's face registered at native resolution (temporal-noise.ts reads its residual) and
 * its background registered on the reduced whole frame with the head left out (scene-parallax.ts
 * compares the two motions).
 */

/** What one frame brings: its reduced whole frame, its subject face, its JPEG luminance table. */
export interface MotionFrame {
  readonly scene: LumaWindow | undefined;
  readonly face:
    | {
        readonly window: LumaWindow;
        readonly mesh: ReadonlyArray<readonly [number, number, ...number[]]>;
        readonly box: readonly [number, number, number, number];
      }
    | undefined;
  readonly quantisation: Uint16Array | undefined;
}

/** One consecutive pair of frames. */
export interface PairMotion {
  /** The earlier frame's face window registered onto the later frame's; undefined without two faces. */
  readonly face: Registration | undefined;
  /** The per-frame temporal noise in the face (temporal-noise.ts). */
  readonly noise: number | undefined;
  /** What re-encoding either frame would change (the larger): the floor of `noise` (temporal-noise.ts). */
  readonly floor: number;
  /** The background (whole frame, head left out) registered; undefined when it could not be. */
  readonly background: Registration | undefined;
  /**
   * How far (frame pixels, RMS) the background's own motion is from the face's, measured on the
   * background: from how much worse the face's warp registers it than its own (scene-parallax.ts).
   * Undefined without both motions or with too plain a background.
   */
  readonly disparity: number | undefined;
  /** How far the background moved at the face's centre (frame pixels). */
  readonly backgroundMotion: number | undefined;
}

/** Landmarks the starting warp is fitted on (FaceMesh's 468 face points; iris points excluded). */
const MESH_POINTS = 468;
/** Face box widths left out around the face for the background: the head, the hair, the neck. */
const HEAD_MARGIN = 0.5;
/** The most face and background pixels a fit reads per pyramid level (the most textured ones). */
const FACE_PIXELS = 4000;
const BACKGROUND_PIXELS = 3000;
/** Mean squared luma gradient per axis (levels² per reduced pixel) below which a background is too plain. */
const MIN_BACKGROUND_GRADIENT = 4;

/**
 * Registers every consecutive pair of frames (see the file comment).
 *
 * @example
 * const pairs = sequenceMotion(frames);
 * pairs[0]?.noise; // ~1.8 levels between two camera frames
 */
export function sequenceMotion(frames: readonly MotionFrame[]): PairMotion[] {
  const out: PairMotion[] = [];
  const floors = frames.map((f) => (f.face ? reencodingFloor(f.face.window, f.quantisation) : MIN_FLOOR));
  for (let i = 1; i < frames.length; i++) {
    const a = frames[i - 1];
    const b = frames[i];
    if (a === undefined || b === undefined) continue;
    const floor = Math.max(floors[i - 1] ?? MIN_FLOOR, floors[i] ?? MIN_FLOOR);
    const start = a.face && b.face ? meshAffine(a.face.mesh, b.face.mesh) : undefined;
    const face =
      a.face && b.face && start
        ? registerWindows(a.face.window, b.face.window, start, { maxPixels: FACE_PIXELS })
        : undefined;
    const noise = face && a.face ? bandNoise(a.face.window, face) : undefined;
    const mask = a.scene && a.face && backgroundMask(a.scene, a.face.box);
    const background =
      a.scene && b.scene
        ? registerWindows(a.scene, b.scene, face?.warp ?? start ?? IDENTITY, {
            mask,
            levels: 2,
            iterations: 6,
            maxPixels: BACKGROUND_PIXELS,
          })
        : undefined;
    const underFace = face && a.scene && b.scene ? residualOf(a.scene, b.scene, face.warp, mask) : undefined;
    const centre: [number, number] | undefined = a.face && [
      a.face.box[0] + a.face.box[2] / 2,
      a.face.box[1] + a.face.box[3] / 2,
    ];
    out.push({
      face,
      noise,
      floor,
      background,
      disparity: background && underFace && a.scene ? disparityOf(a.scene, background, underFace) : undefined,
      backgroundMotion:
        background && centre
          ? Math.hypot(...subtract(applyAffine(background.warp, centre[0], centre[1]), centre))
          : undefined,
    });
  }
  return out;
}

/**
 * The RMS misalignment (frame pixels) the face's warp leaves on the background beyond the background's
 * own warp: (E_face − E_own) / G, E the mean squared residuals over the pixels both registered, G the
 * mean squared gradient per axis there (a misalignment δ raises the residual by about δ²·G). Undefined
 * for a background too plain to tell (G under MIN_BACKGROUND_GRADIENT, or too few pixels).
 */
function disparityOf(scene: LumaWindow, own: Registration, underFace: Registration): number | undefined {
  const { width, data } = scene;
  let count = 0;
  let excess = 0;
  let gradient = 0;
  for (let i = width + 1; i < data.length - width - 1; i++) {
    const e = own.residual[i] ?? Number.NaN;
    const f = underFace.residual[i] ?? Number.NaN;
    if (Number.isNaN(e) || Number.isNaN(f)) continue;
    const gx = ((data[i + 1] ?? 0) - (data[i - 1] ?? 0)) / 2;
    const gy = ((data[i + width] ?? 0) - (data[i - width] ?? 0)) / 2;
    excess += f * f - e * e;
    gradient += (gx * gx + gy * gy) / 2;
    count++;
  }
  if (count < 500 || gradient / count < MIN_BACKGROUND_GRADIENT) return undefined;
  return scene.scale * Math.sqrt(Math.max(0, excess) / gradient);
}

function subtract(a: readonly [number, number], b: readonly [number, number]): [number, number] {
  return [a[0] - b[0], a[1] - b[1]];
}

/** The affine map between two meshes' face points; undefined for meshes too short or degenerate. */
function meshAffine(
  from: ReadonlyArray<readonly [number, number, ...number[]]>,
  to: ReadonlyArray<readonly [number, number, ...number[]]>,
): Affine | undefined {
  const n = Math.min(from.length, to.length, MESH_POINTS);
  if (n < 3) return undefined;
  try {
    return fitAffine(from.slice(0, n), to.slice(0, n));
  } catch {
    return undefined;
  }
}

/** 1 on the scene plane's pixels outside the face box widened by HEAD_MARGIN box widths on each side. */
function backgroundMask(scene: LumaWindow, box: readonly [number, number, number, number]): Uint8Array {
  const [bx, by, bw, bh] = box;
  const x0 = bx - HEAD_MARGIN * bw;
  const x1 = bx + bw + HEAD_MARGIN * bw;
  const y0 = by - HEAD_MARGIN * bh;
  const y1 = by + bh + HEAD_MARGIN * bh;
  const mask = new Uint8Array(scene.width * scene.height);
  for (let y = 0; y < scene.height; y++) {
    const fy = scene.top + y * scene.scale;
    for (let x = 0; x < scene.width; x++) {
      const fx = scene.left + x * scene.scale;
      mask[y * scene.width + x] = fx >= x0 && fx <= x1 && fy >= y0 && fy <= y1 ? 0 : 1;
    }
  }
  return mask;
}

/**
 * The frames of a request as the motion measures read them: each frame's reduced luma, its subject
 * face's window, mesh and box, and the JPEG luminance table of its bytes.
 *
 * @example
 * sequenceMotion(motionFrames(frames, subjects, request.frames.map((f) => f.bytes)));
 */
export function motionFrames(
  frames: readonly WorkerAnalysis[],
  subjects: ReadonlyArray<AnalyzedFace | undefined>,
  frameBytes: readonly Uint8Array[],
): MotionFrame[] {
  return frames.map((frame, i) => {
    const subject = subjects[i];
    const window = subject?.liveness?.window;
    const bytes = frameBytes[i];
    return {
      scene: frame.frameScene,
      face: subject && window ? { window, mesh: subject.mesh, box: subject.box } : undefined,
      quantisation: bytes && lumaQuantisation(bytes),
    };
  });
}
