import type { MrzBand } from '../mrz-band-locator.js';
import { checkOf, type QualityCheck } from './check-value.js';

/**
 * Fewest pixels of MRZ character height (the band's mean line thickness) for a PASS: below it the reads of
 * rendered documents scaled down fail (docs/documents.md, "Quality").
 */
export const MIN_MRZ_CHARACTER_HEIGHT = 7;

/**
 * Resolution: the MRZ character height in image pixels.
 *
 * @example
 * resolutionCheck(band).result; // 'PASS' for characters 16 px high
 */
export function resolutionCheck(band: MrzBand | null): QualityCheck {
  return checkOf(band ? band.lineHeight : null, 'px', '>=', MIN_MRZ_CHARACTER_HEIGHT);
}
