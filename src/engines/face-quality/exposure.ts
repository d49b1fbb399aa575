import type { FaceRegion } from './face-region.js';

/** Luma thresholds of the exposure measures (0..255). */
export interface ExposureConfig {
  /** At or below: fully under-exposed; the weight falls linearly to 0 at `darkUntil`. */
  readonly dark: number;
  readonly darkUntil: number;
  /** At or above: fully over-exposed (clipped); the weight falls linearly to 0 at `brightFrom`. */
  readonly bright: number;
  readonly brightFrom: number;
}

export const DEFAULT_EXPOSURE_CONFIG: ExposureConfig = { dark: 25, darkUntil: 50, bright: 247, brightFrom: 222 };

/** Luma statistics of the face's skin. */
export interface Exposure {
  /** Mean luma, 0..255. */
  readonly mean: number;
  /** Standard deviation of the luma, 0..128. */
  readonly deviation: number;
  /** Shannon entropy of the 256-bin luma histogram, in bits (0..8): how many grey levels the face really uses. */
  readonly entropyBits: number;
  /** Share (0..1) of the pixels that are under-exposed (weighted: see ExposureConfig). */
  readonly darkShare: number;
  /** Share (0..1) of the pixels that are over-exposed. */
  readonly brightShare: number;
}

/**
 * Luma histogram statistics of the face's skin (the outline minus eyes, brows and lips), in the
 * eye-levelled face crop. Undefined when no skin pixel lies inside the image.
 *
 * @example
 * const exposure = skinExposure(faceRegion(image, face));
 * exposure?.mean; // ~140 for a well-lit face
 */
export function skinExposure(
  region: FaceRegion,
  config: ExposureConfig = DEFAULT_EXPOSURE_CONFIG,
): Exposure | undefined {
  const histogram = new Float64Array(256);
  let n = 0;
  let sum = 0;
  let sumSquares = 0;
  let dark = 0;
  let bright = 0;
  for (let i = 0; i < region.skin.length; i++) {
    if (!region.skin[i]) continue;
    const y = region.luma[i] ?? 0;
    n++;
    sum += y;
    sumSquares += y * y;
    const bin = Math.min(255, Math.max(0, Math.round(y)));
    histogram[bin] = (histogram[bin] ?? 0) + 1;
    dark += ramp(config.darkUntil - y, config.darkUntil - config.dark);
    bright += ramp(y - config.brightFrom, config.bright - config.brightFrom);
  }
  if (n === 0) return undefined;
  const mean = sum / n;
  let entropy = 0;
  for (const count of histogram) if (count > 0) entropy -= (count / n) * Math.log2(count / n);
  return {
    mean,
    deviation: Math.sqrt(Math.max(0, sumSquares / n - mean * mean)),
    entropyBits: entropy,
    darkShare: dark / n,
    brightShare: bright / n,
  };
}

/** 0 at or below 0, 1 at or above `full`, linear between. */
function ramp(value: number, full: number): number {
  return Math.min(1, Math.max(0, value / full));
}
