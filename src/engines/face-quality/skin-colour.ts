import type { FaceRegion } from './face-region.js';

/** CIELAB (D65) of a colour. */
export interface Lab {
  readonly l: number;
  readonly a: number;
  readonly b: number;
}

/**
 * The mean colour of the face's skin in CIELAB (D65, from sRGB): a* (green–red) and b*
 * (blue–yellow) of human skin under daylight-balanced light fall in a narrow positive band whatever
 * the skin tone; a colour cast, a white-balance error, a greyscale image or a filter moves them out.
 * Undefined when no skin pixel lies inside the image.
 *
 * @example
 * skinLab(faceRegion(image, face)); // { l: 62, a: 14, b: 18 } for a typical portrait
 */
export function skinLab(region: FaceRegion): Lab | undefined {
  const sums = [0, 0, 0];
  let n = 0;
  for (let i = 0; i < region.skin.length; i++) {
    if (!region.skin[i]) continue;
    for (let c = 0; c < 3; c++) sums[c]! += region.rgb[i * 3 + c]!;
    n++;
  }
  if (n === 0) return undefined;
  return srgbToLab(sums[0]! / n, sums[1]! / n, sums[2]! / n);
}

/** sRGB (0..255) to CIELAB, D65 white. */
export function srgbToLab(r: number, g: number, b: number): Lab {
  const linear = (c: number): number => {
    const v = c / 255;
    return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const [lr, lg, lb] = [linear(r), linear(g), linear(b)];
  const x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047;
  const y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb;
  const z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883;
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [fx, fy, fz] = [f(x), f(y), f(z)];
  return { l: 116 * fy - 16, a: 500 * (fx - fy), b: 200 * (fy - fz) };
}
