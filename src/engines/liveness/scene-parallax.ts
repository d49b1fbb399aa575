import type { PairMotion } from './sequence-motion.js';

/**
 * Whole-frame planar motion. A camera held in a hand moves in depth as well as it turns, and the head
 * it films moves on its own: the face, half a metre away, shifts against a background metres away
 * (parallax). Frames made by moving one picture — a still panned, zoomed, rotated, or a photo moved in
 * front of the camera — move face and background together, by one homography (over a few pixels, one
 * affine map). Measured on the background itself, frame to frame (sequence-motion.ts): how much worse
 * the face's motion registers the background than the background's own motion, as pixels of
 * misalignment (no extrapolation of either motion).
 */

export const PARALLAX_LIMITS = {
  /** Below this background motion (frame pixels) a pair says nothing: nothing moved. */
  minMotion: 0.5,
  /**
   * Face and background motions closer than this (RMS frame pixels, on the background) are one.
   * Measured (npm run eval -- liveness-attacks): 0.0-0.6 for stills moved around, 1.6-4.6 for the
   * simulated captures, whose head moves 0.3-2.5 px a frame against the background.
   */
  planarBelow: 1,
} as const;

/**
 * The signal: PASS when in some pair the face moved against the background; FAIL when frames moved
 * but face and background always moved as one; ERROR when nothing moved or the background could not
 * be followed (a plain wall, a face filling the frame, fewer than two faces).
 *
 * @example
 * planarMotionStatus(sequenceMotion(frames)); // 'FAIL' for a still panned across the frame
 */
export function planarMotionStatus(pairs: readonly PairMotion[]): 'PASS' | 'FAIL' | 'ERROR' {
  let moved = false;
  for (const { disparity, backgroundMotion } of pairs) {
    if (disparity === undefined || backgroundMotion === undefined) continue;
    if (disparity >= PARALLAX_LIMITS.planarBelow) return 'PASS';
    if (backgroundMotion >= PARALLAX_LIMITS.minMotion) moved = true;
  }
  return moved ? 'FAIL' : 'ERROR';
}
