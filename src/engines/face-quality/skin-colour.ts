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
  const { rgb } = region;
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let i = 0; i < region.skin.length; i++) {
    if (!region.skin[i]) continue;
    r += rgb[i * 3] ?? 0;
    g += rgb[i * 3 + 1] ?? 0;
    b += rgb[i * 3 + 2] ?? 0;
    n++;
  }
  if (n === 0) return undefined;
  return srgbToLab(r / n, g / n, b / n);
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
