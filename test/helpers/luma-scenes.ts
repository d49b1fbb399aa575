/**
 * Synthetic luma frames for the multi-frame signals' unit tests: a smooth textured scene, a "face"
 * region that can move on its own against the background, and optional fresh Gaussian noise per frame.
 */
import type { LumaPlane } from '../../src/engines/liveness/luma.js';
import { faceWindow, scenePlane } from '../../src/engines/liveness/luma-window.js';
import type { MotionFrame } from '../../src/engines/liveness/sequence-motion.js';
import { seededRandom } from '../../src/lib/seeded-random.js';
import { gaussian } from './camera-simulation.js';

export const SCENE_WIDTH = 240;
export const SCENE_HEIGHT = 320;
/** The face box of every synthetic frame before its motion: x, y, width, height. */
export const FACE_BOX = [70, 100, 100, 120] as const;

/**
 * A smooth texture (sinusoids up to 0.14 cycle per pixel, ~±40 levels around 128) defined everywhere, so
 * shifts need no resampling.
 *
 * @example
 * texture(1)(10.5, 3.25); // a level near 128
 */
export function texture(seed: number): (x: number, y: number) => number {
  const random = seededRandom(seed);
  const waves = Array.from({ length: 24 }, () => ({
    fx: (random() - 0.5) * 0.2,
    fy: (random() - 0.5) * 0.2,
    phase: random() * 2 * Math.PI,
    amplitude: 3 + 5 * random(),
  }));
  return (x, y) =>
    128 + waves.reduce((s, w) => s + w.amplitude * Math.sin(2 * Math.PI * (w.fx * x + w.fy * y) + w.phase), 0);
}

export interface SceneMotion {
  /** Background shift, frame pixels. */
  readonly background: readonly [number, number];
  /** Face shift, frame pixels. */
  readonly face: readonly [number, number];
  /** Standard deviation of fresh Gaussian noise, luma levels (0: none). */
  readonly noise: number;
}

/**
 * One frame's luma: the face texture inside the moved box, the background texture around it.
 *
 * @example
 * sceneLuma({ background: [1, 0], face: [2, -1], noise: 2 }, 7);
 */
export function sceneLuma(motion: SceneMotion, seed: number): LumaPlane {
  const background = texture(1);
  const face = texture(2);
  const normal = gaussian(seededRandom(seed));
  const [bx, by, bw, bh] = FACE_BOX;
  const data = new Float32Array(SCENE_WIDTH * SCENE_HEIGHT);
  for (let y = 0; y < SCENE_HEIGHT; y++) {
    for (let x = 0; x < SCENE_WIDTH; x++) {
      const fx = x - motion.face[0];
      const fy = y - motion.face[1];
      const inFace = fx >= bx && fx < bx + bw && fy >= by && fy < by + bh;
      const value = inFace ? face(fx, fy) : background(x - motion.background[0], y - motion.background[1]);
      data[y * SCENE_WIDTH + x] = value + (motion.noise > 0 ? motion.noise * normal() : 0);
    }
  }
  return { data, width: SCENE_WIDTH, height: SCENE_HEIGHT };
}

/**
 * A synthetic frame as the motion measures read it: scene plane, face window, 468-point "mesh" moved with the face.
 *
 * @example
 * sequenceMotion([motionFrame(still, 1), motionFrame(moved, 2)]);
 */
export function motionFrame(motion: SceneMotion, seed: number, quantisation?: Uint16Array): MotionFrame {
  const luma = sceneLuma(motion, seed);
  const [bx, by, bw, bh] = FACE_BOX;
  const box = [bx + motion.face[0], by + motion.face[1], bw, bh] as const;
  // 468 "landmarks" (FaceMesh's count) on an 18 × 26 grid over the face, moving with it.
  const mesh = Array.from(
    { length: 468 },
    (_, k) => [bx + 5 + (k % 18) * 5 + motion.face[0], by + 5 + Math.floor(k / 18) * 4.4 + motion.face[1], 0] as const,
  );
  return { scene: scenePlane(luma), face: { window: faceWindow(luma, box), mesh, box }, quantisation };
}
