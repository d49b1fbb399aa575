import type { QualityFace } from './face-region.js';
import { faceFrame } from './face-frame.js';
import { LEFT_EYE_LANDMARKS, MOUTH_LANDMARKS, RIGHT_EYE_LANDMARKS } from './mesh-regions.js';

/** Shape of the mouth and brows, in the face's frame (face-frame.ts). */
export interface MouthShape {
  /** Gap between the inner lips over the mouth width (corner to corner): 0 closed, ~0.1 parted, > 0.3 wide open. */
  readonly opening: number;
  /**
   * Height of the mouth corners above the lips' middle, over the mouth width, corrected for pitch:
   * > 0 when they lift (a smile).
   */
  readonly cornerLift: number;
  /** Mouth width over the inter-eye distance (a smile widens it). */
  readonly width: number;
  /**
   * Mean height of the brow middles above the eye line, in inter-eye distances, corrected for pitch
   * (raised brows: surprise).
   */
  readonly browHeight: number;
}

/**
 * How far the image shift of the mouth corners (per mouth width) and the brows (per inter-eye
 * distance) moves per unit of sin(pitch): the corners sit behind the lips' middle and the brows in
 * front of the eyes, so a head tilted down shows corners raised and brows lowered. Fitted on the
 * dev set (LFW, 400 faces: the corner lift correlates 0.81 with the sine of the pitch, slope 0.5;
 * the brow height −0.42, slope −0.2).
 */
const DEPTH_OFFSETS = { corners: 0.5, brows: 0.2 } as const;

/**
 * The expression geometry of a face: how far the lips part, whether the mouth corners lift, how wide
 * the mouth is and how high the brows sit, in the face's frame (eye line level, inter-eye distance 1),
 * so independent of size and roll; the corner lift and brow height are corrected for the head's pitch.
 *
 * @example
 * mouthShape(face).opening; // ~0 for a closed mouth
 */
export function mouthShape(face: Pick<QualityFace, 'mesh' | 'keyPoints' | 'pose'>): MouthShape {
  const at = faceFrame(face.mesh, face.keyPoints);
  // The detector's pitch is positive looking down.
  const down = Math.sin(face.pose.pitch);
  const { corners, inner, outer } = MOUTH_LANDMARKS;
  const [rightCorner, leftCorner] = [at(corners[0]), at(corners[1])];
  const [upperInner, lowerInner] = [at(inner[0]), at(inner[1])];
  const [upperOuter, lowerOuter] = [at(outer[0]), at(outer[1])];
  const width = Math.hypot(leftCorner[0] - rightCorner[0], leftCorner[1] - rightCorner[1]);
  const lipsMiddle = (upperOuter[1] + lowerOuter[1]) / 2;
  const cornersY = (rightCorner[1] + leftCorner[1]) / 2;
  const browHeight = -[RIGHT_EYE_LANDMARKS.brow, LEFT_EYE_LANDMARKS.brow].reduce((sum, i) => sum + at(i)[1], 0) / 2;
  return {
    opening: width > 0 ? Math.max(0, lowerInner[1] - upperInner[1]) / width : 0,
    cornerLift: (width > 0 ? (lipsMiddle - cornersY) / width : 0) - DEPTH_OFFSETS.corners * down,
    width,
    browHeight: browHeight + DEPTH_OFFSETS.brows * down,
  };
}
