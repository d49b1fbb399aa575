import { distance } from '../../engines/document/document-geometry.js';
import type { MrzRepairResult } from '../../engines/document/mrz/mrz-types.js';
import type { DocumentReading } from '../../engines/document/read-document.js';
import type { DocumentSize } from '../../engines/document/page-geometry.js';
import type { DocumentKind } from './document-kinds.js';
import type { DocumentFeedback } from './schemas.js';

/** A CUSTOM page whose width ratio is more than this far from the asked one is another document. */
const ASPECT_TOLERANCE = 0.12;
/** CUSTOM framing: a page under this share of the asked width is TOO_FAR, over the upper one TOO_CLOSE. */
const FILL_LOW = 0.75;
const FILL_HIGH = 1.2;

/**
 * The feedback for one frame, from what the engine read and the MRZ parsed from it, first cause first:
 * no band → DOCUMENT_NOT_FOUND (a band found but unread: TOO_FAR when its characters are under the
 * resolution floor, TOO_BLURRY when blurred); a page of another size class or aspect → WRONG_DOCUMENT;
 * page out of the frame (bounds) → TOO_CLOSE; CUSTOM's asked fill missed → TOO_FAR / TOO_CLOSE;
 * resolution → TOO_FAR; blur → TOO_BLURRY; perspective or glare → OFF_ANGLE (glare has no code of its
 * own, and tilting the document is what moves a specular reflection off it).
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
  if (reading.band === null) return 'DOCUMENT_NOT_FOUND';
  if (mrz === null || page === null) {
    if (quality.resolution.result === 'FAIL') return 'TOO_FAR';
    if (quality.blur.result === 'FAIL') return 'TOO_BLURRY';
    return 'DOCUMENT_NOT_FOUND';
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
