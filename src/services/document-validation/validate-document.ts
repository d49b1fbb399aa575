import { MrzInputError } from '../../engines/document/mrz/mrz-input-error.js';
import type { MrzRepairResult } from '../../engines/document/mrz/mrz-types.js';
import { repairMrz } from '../../engines/document/mrz/repair-mrz.js';
import type { DocumentReading } from '../../engines/document/read-document.js';
import { invalidValue } from '../../server/errors/api-error.js';
import { fromRequestImage } from '../../server/errors/request-image-error.js';
import { mrzAnalysis, mrzDocumentFields } from './mrz-document-fields.js';
import { opticalSecurity } from './mrz-security.js';
import { opticalPortrait } from './optical-portrait.js';
import { chipFilesOf } from './chip-data.js';
import { CHIP_NOT_PERFORMED, chipSecurity, overallFields } from './chip-security.js';
import type { CheckValue, ValidateRequest, ValidateResponse } from './schemas.js';
import type { DocumentValidationContext } from './validation-context.js';

/** Pages per request: a passport's data page, an ID card's two sides, with room to spare. */
export const MAX_PAGES = 4;

interface Page {
  readonly pageIndex: number;
  readonly bytes: Buffer;
  readonly reading: DocumentReading;
  readonly mrz: MrzRepairResult | null;
}

/**
 * Validates a document from its page images: each page is read by the document engine (MRZ, page crop,
 * quality), its MRZ parsed and repaired (engines/document/mrz/), the printed portrait cut with the face
 * engine. Chip data in `encryptedDocument` (chip-data.ts) is passively authenticated and DG1 compared with the
 * page's MRZ (chip-security.ts): `fields.rfid` is DG1's, `images.rfidPortrait` DG2's face; without chip data
 * every chip check is NOT_PERFORMED. `fields.optical` stays empty (no visual-zone OCR); `overall` combines the
 * MRZ and the chip (the chip's values where it proved authentic).
 *
 * @example
 * const answer = await validateDocument(context, { documentImages: [{ image: base64Jpeg, pageIndex: 0 }] });
 * answer.fields.mrz.surname; // 'ERIKSSON'
 * @throws {ApiError} 400 for no page, too many, a repeated pageIndex, an image that is not one, or chip data
 * that does not parse (a missing `sod`/`dg1`, bad base64, a sealed package that does not open, broken files)
 */
export async function validateDocument(
  context: DocumentValidationContext,
  request: ValidateRequest,
): Promise<ValidateResponse> {
  const { documentImages } = request;
  if (documentImages.length === 0) throw invalidValue('documentImages must hold at least one page');
  if (documentImages.length > MAX_PAGES) throw invalidValue(`documentImages holds at most ${MAX_PAGES} pages`);
  const seen = new Set<number>();
  for (const { pageIndex } of documentImages) {
    if (!Number.isInteger(pageIndex) || pageIndex < 0) throw invalidValue('pageIndex must be an integer from 0');
    if (seen.has(pageIndex)) throw invalidValue(`pageIndex ${pageIndex} is given twice`);
    seen.add(pageIndex);
  }
  // Chip data first: a malformed package is refused before any image is read.
  const chipFiles = chipFilesOf(request.encryptedDocument, context.envelopeKey);
  const referenceDate = context.now();
  const pages: Page[] = [];
  for (const [i, { image, pageIndex }] of documentImages.entries()) {
    const bytes = Buffer.from(image, 'base64');
    const reading = await fromRequestImage(`documentImages[${i}].image`, context.documentEngine().read(bytes));
    pages.push({ pageIndex, bytes, reading, mrz: parseRead(reading.mrz?.lines ?? null, referenceDate) });
  }
  const read = pages.filter((p): p is Page & { mrz: MrzRepairResult } => p.mrz !== null);
  // The page whose MRZ is valid first; the others' only count for the security checks.
  const best = read.find((p) => p.mrz.valid) ?? read[0];
  const mrzFields = best === undefined ? {} : mrzDocumentFields(best.mrz);
  const optical = opticalSecurity(read.map((p) => p.mrz));
  const chip =
    chipFiles === null ? null : await chipSecurity(chipFiles, context.trustStore(), referenceDate, best?.mrz ?? null);
  const cropped = pages.flatMap((p) => (p.reading.page === null ? [] : [p.reading.page.jpeg]));
  const portrait = await opticalPortrait(context.faceEngine(), [
    ...cropped,
    ...pages.filter((p) => p.reading.page === null).map((p) => p.bytes),
  ]);
  return {
    images: {
      document: pages.flatMap(({ reading, pageIndex }) =>
        reading.page === null ? [] : [{ image: Buffer.from(reading.page.jpeg).toString('base64'), pageIndex }],
      ),
      ...(portrait === null ? {} : { opticalPortrait: portrait.toString('base64') }),
      ...(chip?.portrait === undefined ? {} : { rfidPortrait: chip.portrait }),
    },
    quality: {
      results: pages.map(({ reading: { quality }, pageIndex }) => ({
        glare: quality.glare.result,
        blur: quality.blur.result,
        resolution: quality.resolution.result,
        color: quality.color.result,
        perspective: quality.perspective.result,
        bounds: quality.bounds.result,
        pageIndex,
      })),
    },
    fields: {
      overall: chip === null ? mrzFields : overallFields(mrzFields, chip.fields, chip.authentic),
      optical: {},
      rfid: chip?.fields ?? {},
      mrz: mrzFields,
    },
    security: {
      rfid: chip?.rfid ?? CHIP_NOT_PERFORMED,
      optical: { overall: optical.overall },
      overall: combinedSecurity(optical.overall, chip?.rfid.overall ?? 'NOT_PERFORMED'),
      reasons: [...optical.reasons, ...(chip?.reasons ?? [])],
    },
    info: {
      documentType: pages.map(({ mrz, pageIndex }) =>
        mrz === null
          ? { name: 'UNKNOWN', pageIndex }
          : { name: documentTypeName(mrz.fields.documentCode.value), pageIndex, format: mrz.format },
      ),
    },
    ...(best === undefined ? {} : { mrz: mrzAnalysis(best.mrz, best.pageIndex) }),
  };
}

/** FAIL when either part failed, PASS when one passed and none failed, else the optical verdict (nothing proven). */
function combinedSecurity(optical: CheckValue, rfid: CheckValue): CheckValue {
  if (optical === 'FAIL' || rfid === 'FAIL') return 'FAIL';
  if (optical === 'PASS' || rfid === 'PASS') return 'PASS';
  return optical;
}

function parseRead(lines: readonly string[] | null, referenceDate: Date): MrzRepairResult | null {
  if (lines === null) return null;
  try {
    return repairMrz(lines, { referenceDate });
  } catch (error) {
    if (error instanceof MrzInputError) return null;
    throw error;
  }
}

/** ICAO 9303 document codes: P passports, V visas, I/A/C identity cards; anything else a travel document. */
function documentTypeName(documentCode: string): string {
  const first = documentCode.charAt(0);
  if (first === 'P') return 'PASSPORT';
  if (first === 'V') return 'VISA';
  if (first === 'I' || first === 'A' || first === 'C') return 'IDENTITY_CARD';
  return 'TRAVEL_DOCUMENT';
}
