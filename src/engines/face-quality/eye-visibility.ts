import type { FaceRegion } from './face-region.js';

/** What can be seen of one eye. */
export interface EyeView {
  /** Share (0..1) of the eye opening inside the image. */
  readonly inFrame: number;
  /** Share (0..1) of the eye opening that is glare (luma at or above 247), e.g. a reflection on glasses. */
  readonly glare: number;
  /**
   * Luma spread inside the opening (90th minus 10th percentile) over the skin's mean luma: a visible
   * eye shows its white against the iris (~0.25–0.8 on the dev set); behind dark glasses, a hand, a
   * closed lid or deep shadow the opening is flat (~0.02).
   */
  readonly contrast: number;
}

/**
 * What can be seen of each eye (the person's right, then left), from the eye openings the mesh
 * outlines in the face crop: how much of each lies inside the image, how much is glare, and how much
 * contrast it shows. `skinLuma` is the face's mean skin luma, which makes the contrast independent
 * of exposure.
 *
 * @example
 * const region = faceRegion(image, face);
 * const [right, left] = eyeViews(region, skinExposure(region)!.mean);
 */
export function eyeViews(region: FaceRegion, skinLuma: number): [EyeView, EyeView] {
  const { inImage, luma } = region;
  const view = (eye: Uint8Array): EyeView => {
    let pixels = 0;
    let glare = 0;
    const values: number[] = [];
    for (let i = 0; i < eye.length; i++) {
      if (!eye[i]) continue;
      pixels++;
      if (!inImage[i]) continue;
      const y = luma[i] ?? 0;
      values.push(y);
      if (y >= 247) glare++;
    }
    values.sort((a, b) => a - b);
    const at = (q: number) => values[Math.min(values.length - 1, Math.floor(q * values.length))] ?? 0;
    return {
      inFrame: pixels > 0 ? values.length / pixels : 0,
      glare: values.length > 0 ? glare / values.length : 0,
      contrast: (at(0.9) - at(0.1)) / Math.max(skinLuma, 16),
    };
  };
  return [view(region.eyes[0]), view(region.eyes[1])];
}
