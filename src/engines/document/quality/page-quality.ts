import type { Quad } from '../document-geometry.js';
import type { GrayImage, RgbImage } from '../gray-image.js';
import type { MrzBand } from '../mrz-band-locator.js';
import { blurCheck } from './blur.js';
import { boundsCheck } from './bounds.js';
import type { QualityCheck } from './check-value.js';
import { colorCheck } from './color.js';
import { glareCheck } from './glare.js';
import { perspectiveCheck } from './perspective.js';
import { resolutionCheck } from './resolution.js';

/** The six checks of `quality.results[]` (Doc 3 C) for one page. */
export interface PageQuality {
  readonly glare: QualityCheck;
  readonly blur: QualityCheck;
  readonly resolution: QualityCheck;
  readonly color: QualityCheck;
  readonly perspective: QualityCheck;
  readonly bounds: QualityCheck;
}

/** The checks in the spec's order. */
export const QUALITY_CHECKS = [
  'glare',
  'blur',
  'resolution',
  'color',
  'perspective',
  'bounds',
] as const satisfies readonly (keyof PageQuality)[];

/** What the checks are computed from; null where the page or its MRZ was not found. */
export interface PageQualityInput {
  /** As located (not regularised by orientBand), so that its lines' convergence shows the keystone. */
  readonly band: MrzBand | null;
  readonly lineImages: readonly GrayImage[] | null;
  readonly pageQuad: Quad | null;
  /** Whether `pageQuad` is the page's own outline (page-contour.ts): its keystone then counts for perspective. */
  readonly pageOutlined?: boolean;
  readonly page: RgbImage | null;
  /** The whole decoded image (colour is judged on it when no page was found). */
  readonly image: RgbImage;
}

/**
 * The quality of one page. Without an MRZ band there is no page: glare, blur, resolution, perspective and
 * bounds are NOT_PERFORMED; colour is judged on the whole image.
 *
 * @example
 * const quality = pageQuality({ band, lineImages, pageQuad, page, image });
 * quality.blur.result; // 'PASS'
 */
export function pageQuality(input: PageQualityInput): PageQuality {
  return {
    glare: glareCheck(input.page),
    blur: blurCheck(input.lineImages),
    resolution: resolutionCheck(input.band),
    color: colorCheck(input.page ?? input.image),
    perspective: perspectiveCheck(input.band, input.pageOutlined ? input.pageQuad : null),
    bounds: boundsCheck(input.pageQuad, input.image.width, input.image.height),
  };
}
