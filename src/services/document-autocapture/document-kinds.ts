import type { DocumentSize } from '../../engines/document/page-geometry.js';
import { ApiError, ErrorCode, invalidValue } from '../../server/errors/api-error.js';
import type { DocumentWorkflow } from './schemas.js';

export type DocumentType = 'DRIVERS_LICENSE' | 'PASSPORT' | 'TURKISH_TITLE_DEED' | 'CUSTOM';

/** The document a workflow asks for, in the terms the feedback and the capture geometry use. */
export interface DocumentKind {
  readonly type: DocumentType;
  /** Page width over height. */
  readonly aspectRatio: number;
  /** Page width in millimetres, what the minimum resolution scales with. */
  readonly widthMm: number;
  /** MRZ size classes that are this document; null: any class whose page has `aspectRatio` (CUSTOM). */
  readonly sizes: readonly DocumentSize[] | null;
  /** Share of the image width the document should take (CUSTOM's imagePercentage, else DEFAULT_FILL). */
  readonly fill: number;
  /** Whether the fill is the caller's (CUSTOM): a page much smaller or larger than it is TOO_FAR/TOO_CLOSE. */
  readonly fillAsked: boolean;
  readonly strict: boolean;
}

/** Share of the image width a standard document is guided to (the capture region); a margin for framing. */
export const DEFAULT_FILL = 0.8;

/**
 * The standard types. DRIVERS_LICENSE is any ID-1 card (TD1 and the French card's MRZ); PASSPORT the ID-3
 * data page (TD3 and MRV-A visas). TURKISH_TITLE_DEED is adopted as an A4 sheet in portrait
 * (210 × 297 mm) with no MRZ: the engine finds documents by their MRZ, so it is never found, and a
 * document with an MRZ shown for it is WRONG_DOCUMENT (docs/documents.md).
 */
const STANDARD: Readonly<
  Record<Exclude<DocumentType, 'CUSTOM'>, Omit<DocumentKind, 'fill' | 'fillAsked' | 'strict' | 'type'>>
> = {
  DRIVERS_LICENSE: { aspectRatio: 85.6 / 53.98, widthMm: 85.6, sizes: ['ID-1'] },
  PASSPORT: { aspectRatio: 125 / 88, widthMm: 125, sizes: ['ID-3'] },
  TURKISH_TITLE_DEED: { aspectRatio: 210 / 297, widthMm: 210, sizes: [] },
};

/** CUSTOM documents' physical width is unknown: the smallest MRZ page (ID-1) is assumed, the most demanding. */
const CUSTOM_WIDTH_MM = 85.6;

/**
 * Checks a workflow and returns the document it asks for.
 *
 * @example
 * documentKind({ documentType: 'PASSPORT' }).sizes; // ['ID-3']
 * documentKind({ documentType: 'CUSTOM' }); // throws 400 -3: aspectRatioWidth missing
 * @throws {ApiError} 400 -6 for an unknown type or a value out of range, -3 for CUSTOM without its ratio
 */
export function documentKind(workflow: DocumentWorkflow): DocumentKind {
  const { documentType, imagePercentage } = workflow;
  if (imagePercentage !== undefined && !(imagePercentage > 0 && imagePercentage <= 1)) {
    throw invalidValue(`workflow.imagePercentage must be above 0.0 and at most 1.0 (got ${imagePercentage})`);
  }
  const strict = workflow.strict ?? false;
  if (documentType === 'CUSTOM') {
    const { aspectRatioWidth: w, aspectRatioHeight: h } = workflow;
    if (w === undefined || h === undefined) {
      const missing = w === undefined ? 'aspectRatioWidth' : 'aspectRatioHeight';
      throw new ApiError(400, ErrorCode.missingField, `mandatory field missing: 'workflow.${missing}' (CUSTOM)`);
    }
    if (w <= 0 || h <= 0) throw invalidValue('workflow.aspectRatioWidth and aspectRatioHeight must be above 0');
    return {
      type: 'CUSTOM',
      aspectRatio: w / h,
      widthMm: CUSTOM_WIDTH_MM,
      sizes: null,
      fill: imagePercentage ?? DEFAULT_FILL,
      fillAsked: imagePercentage !== undefined,
      strict,
    };
  }
  if (documentType === 'DRIVERS_LICENSE' || documentType === 'PASSPORT' || documentType === 'TURKISH_TITLE_DEED') {
    return { type: documentType, ...STANDARD[documentType], fill: DEFAULT_FILL, fillAsked: false, strict };
  }
  throw invalidValue(
    `workflow.documentType must be DRIVERS_LICENSE, PASSPORT, TURKISH_TITLE_DEED or CUSTOM (got '${documentType.slice(0, 40)}')`,
  );
}
