import { distance, type Quad } from '../../engines/document/document-geometry.js';
import type { MrzRepairResult } from '../../engines/document/mrz/mrz-types.js';
import type { DocumentReading } from '../../engines/document/read-document.js';
import type { DocumentSize } from '../../engines/document/page-geometry.js';
import { MIN_PIXELS_PER_MM } from './capture-geometry.js';
import type { DocumentKind } from './document-kinds.js';
import type { DocumentFeedback } from './schemas.js';

/** A CUSTOM page whose width ratio is more than this far from the asked one is another document. */
const ASPECT_TOLERANCE = 0.12;
/** CUSTOM framing: a page under this share of the asked width is TOO_FAR, over the upper one TOO_CLOSE. */
const FILL_LOW = 0.75;
const FILL_HIGH = 1.2;

/**
 * The feedback for one frame, from what the engine read and the MRZ parsed from it, first cause first:
 * no MRZ read → DOCUMENT_NOT_FOUND, except TOO_FAR when a band's characters are under the resolution
 * floor or, no band found, a page outline in view is narrower than the asked document at that floor
 * (MIN_PIXELS_PER_MM: its MRZ too small to find), and TOO_BLURRY when a band is blurred; an MRZ read but
 * not valid from a band under the resolution floor or blurred → TOO_FAR / TOO_BLURRY (its layout, hence
 * the page's class, is no evidence); a page of another size class or aspect → WRONG_DOCUMENT; page out
 * of the frame (bounds) → TOO_CLOSE; CUSTOM's asked fill missed → TOO_FAR / TOO_CLOSE; resolution →
 * TOO_FAR; blur → TOO_BLURRY; perspective or glare → OFF_ANGLE (glare has no code of its own, and tilting
 * the document is what moves a specular reflection off it).
 *
 * @example
 * frameFeedback(documentKind({ documentType: 'PASSPORT' }), reading, repairMrz(reading.mrz.lines)); // 'DOCUMENT_FOUND'
 */
export function frameFeedback(
  kind: DocumentKind,
  reading: DocumentReading,
  mrz: MrzRepairResult | null,
): DocumentFeedback {
  const { quality, page } = reading;
  if (mrz === null || page === null) {
    if (quality.resolution.result === 'FAIL') return 'TOO_FAR';
    if (quality.blur.result === 'FAIL') return 'TOO_BLURRY';
    if (reading.outline && outlineWidth(reading.outline) < kind.widthMm * MIN_PIXELS_PER_MM) return 'TOO_FAR';
    return 'DOCUMENT_NOT_FOUND';
  }
  // The page's class comes from the read's layout: a read that is not valid from a band too small or too
  // blurred to read is no evidence of another document (a blurred passport read as a 34-character TD2).
  if (!mrz.valid) {
    if (quality.resolution.result === 'FAIL') return 'TOO_FAR';
    if (quality.blur.result === 'FAIL') return 'TOO_BLURRY';
  }
  if (!isAskedDocument(kind, page.size, page.width / page.height)) return 'WRONG_DOCUMENT';
  if (quality.bounds.result === 'FAIL') return 'TOO_CLOSE';
  if (kind.fillAsked) {
    const [topLeft, topRight] = page.quad;
    const share = distance(topLeft, topRight) / reading.width;
    if (share > kind.fill * FILL_HIGH) return 'TOO_CLOSE';
    if (share < kind.fill * FILL_LOW) return 'TOO_FAR';
  }
  if (quality.resolution.result === 'FAIL') return 'TOO_FAR';
  if (quality.blur.result === 'FAIL') return 'TOO_BLURRY';
  if (quality.perspective.result === 'FAIL' || quality.glare.result === 'FAIL') return 'OFF_ANGLE';
  return 'DOCUMENT_FOUND';
}

function isAskedDocument(kind: DocumentKind, size: DocumentSize, aspectRatio: number): boolean {
  if (kind.sizes !== null) return kind.sizes.includes(size);
  return Math.abs(aspectRatio / kind.aspectRatio - 1) <= ASPECT_TOLERANCE;
}

/** An outline's width: the mean of its longer pair of opposite sides (corners in contour order). */
function outlineWidth([a, b, c, d]: Quad): number {
  return Math.max(distance(a, b) + distance(c, d), distance(b, c) + distance(d, a)) / 2;
}
