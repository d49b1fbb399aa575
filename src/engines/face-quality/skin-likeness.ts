import { median } from '../../lib/median.js';
import type { FaceRegion } from './face-region.js';

/** How close a pixel must be to the face's own skin colour to count as skin. */
export interface SkinLikenessConfig {
  /** Largest distance in rg chromaticity (r = R/(R+G+B), g = G/(R+G+B)) from the reference skin. */
  readonly chromaticity: number;
  /**
   * Added to that distance, divided by the pixel's luma: the chromaticity of a dark pixel is noisy
   * (one 8-bit level moves it by ~1/(3·luma)), so dim skin is judged more loosely.
   */
  readonly noise: number;
  /** Darkest luma, as a share of the reference skin's: darker pixels carry no reliable colour. */
  readonly darkest: number;
  /** Brightest luma, as a multiple of the reference skin's (white cloth, paper, glare). */
  readonly brightest: number;
  /**
   * The chromaticities human skin takes in ordinary light (r from, r to, g from, g to): the median
   * skin of every dev-set face (LFW, 200 people) lies in r 0.36–0.57, g 0.26–0.36; widened a little.
   * The reference search starts from the pixels in it, so an occluder does not become the reference.
   */
  readonly skinGamut: readonly [number, number, number, number];
}

export const DEFAULT_SKIN_LIKENESS_CONFIG: SkinLikenessConfig = {
  chromaticity: 0.08,
  noise: 2,
  darkest: 0.3,
  brightest: 1.6,
  skinGamut: [0.35, 0.62, 0.25, 0.37],
};

/** A per-pixel skin-likeness map of the face crop and the reference it was judged against. */
export interface SkinLikeness {
  /** 1 where the pixel has the reference skin's chromaticity and a luma it can have in light or shade. */
  readonly map: Uint8Array;
  readonly reference: { readonly r: number; readonly g: number; readonly luma: number };
}

/**
 * Which pixels of the face crop look like this face's own skin. The reference is the dominant
 * chromaticity of the skin-mask pixels: it starts at the median of those whose colour skin can have
 * (of all of them when under a tenth can: a strong colour cast) and moves, three times, to the median
 * of the pixels near it, so it settles on the face's main skin colour even under a colour cast and
 * with up to about half the skin covered. Chromaticity ignores shading, so a shadowed cheek still
 * counts, while cloth, glasses, hair and hands of another colour do not. Undefined when the face
 * has no skin pixel inside the image.
 *
 * @example
 * const likeness = skinLikeness(faceRegion(image, face));
 */
export function skinLikeness(
  region: FaceRegion,
  config: SkinLikenessConfig = DEFAULT_SKIN_LIKENESS_CONFIG,
): SkinLikeness | undefined {
  const { rgb, luma, skin } = region;
  const n = skin.length;
  const r = new Float32Array(n);
  const g = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const red = rgb[i * 3] ?? 0;
    const green = rgb[i * 3 + 1] ?? 0;
    const s = red + green + (rgb[i * 3 + 2] ?? 0) + 1e-6;
    r[i] = red / s;
    g[i] = green / s;
  }
  const all: number[] = [];
  const inGamut: number[] = [];
  const [rFrom, rTo, gFrom, gTo] = config.skinGamut;
  for (let i = 0; i < n; i++) {
    if (!skin[i]) continue;
    all.push(i);
    const ri = r[i] ?? 0;
    const gi = g[i] ?? 0;
    if (ri >= rFrom && ri <= rTo && gi >= gFrom && gi <= gTo) inGamut.push(i);
  }
  if (all.length === 0) return undefined;
  // Tolerance per pixel, squared, so the search compares squared distances.
  const tolerance = new Float32Array(n);
  for (let i = 0; i < n; i++) tolerance[i] = (config.chromaticity + config.noise / Math.max(luma[i] ?? 0, 1)) ** 2;
  const near = (i: number, centre: readonly [number, number]): boolean =>
    ((r[i] ?? 0) - centre[0]) ** 2 + ((g[i] ?? 0) - centre[1]) ** 2 <= (tolerance[i] ?? 0);
  let basis = inGamut.length >= 0.1 * all.length ? inGamut : all;
  let centre: [number, number] = [medianAt(r, basis), medianAt(g, basis)];
  for (let step = 0; step < 3; step++) {
    const around = all.filter((i) => near(i, centre));
    if (around.length === 0) break;
    basis = around;
    centre = [medianAt(r, basis), medianAt(g, basis)];
  }
  const reference = { r: centre[0], g: centre[1], luma: medianAt(luma, basis) };
  const darkest = Math.max(8, config.darkest * reference.luma);
  const brightest = config.brightest * reference.luma;
  const map = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const y = luma[i] ?? 0;
    map[i] = y >= darkest && y <= brightest && near(i, centre) ? 1 : 0;
  }
  return { map, reference };
}

/** Median of values[i] over the indices: the upper middle of an even count, a value some pixel has. */
function medianAt(values: Float32Array, indices: readonly number[]): number {
  return median(
    Float32Array.from(indices, (i) => values[i] ?? 0),
    'upper',
  );
}
