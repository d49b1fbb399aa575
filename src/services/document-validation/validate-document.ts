import { MrzInputError } from '../../engines/document/mrz/mrz-input-error.js';
import type { MrzRepairResult } from '../../engines/document/mrz/mrz-types.js';
import { repairMrz } from '../../engines/document/mrz/repair-mrz.js';
import type { MrzRead } from '../../engines/document/mrz-read.js';
import type { DocumentReading } from '../../engines/document/read-document.js';
import type { VisualZoneFields } from '../../engines/document/visual-zone-fields.js';
import { invalidValue } from '../../server/errors/api-error.js';
import { fromRequestImage } from '../../server/errors/request-image-error.js';
import { mrzAnalysis, mrzDocumentFields } from './mrz-document-fields.js';
import { opticalSecurity } from './mrz-security.js';
import { opticalPortrait } from './optical-portrait.js';
import { chipFilesOf } from './chip-data.js';
import { CHIP_NOT_PERFORMED, chipSecurity } from './chip-security.js';
import { overallDocumentFields } from './overall-document-fields.js';
import { visualZoneDocumentFields } from './visual-zone-document-fields.js';
import { visualZoneConflicts } from './visual-zone-security.js';
import type { CheckValue, ValidateRequest, ValidateResponse } from './schemas.js';
import type { DocumentValidationContext } from './validation-context.js';

/** Pages per request: a passport's data page, an ID card's two sides, with room to spare. */
export const MAX_PAGES = 4;

interface Page {
  readonly pageIndex: number;
  readonly bytes: Buffer;
  readonly reading: DocumentReading;
  readonly mrz: MrzRepairResult | null;
  readonly visualZone: VisualZoneFields;
}

/**
 * Validates a document from its page images: each page is read by the document engine (MRZ, page crop,
 * quality), its MRZ parsed and repaired (engines/document/mrz/), the printed portrait cut with the face
 * engine, and its visual inspection zone read (engines/document/read-visual-zone.ts: names, dates, number as
 * printed) into `fields.optical`. Chip data in `encryptedDocument` (chip-data.ts) is passively authenticated and
 * DG1 compared with the page's MRZ (chip-security.ts): `fields.rfid` is DG1's, `images.rfidPortrait` DG2's face;
 * without chip data every chip check is NOT_PERFORMED. `overall` combines chip (where proven) > MRZ (where valid)
 * > visual zone (overall-document-fields.ts); where the visual zone contradicts the MRZ, `VIZ_MRZ_MISMATCH_*`
 * reasons fail the optical check (visual-zone-security.ts).
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
  const readings: Omit<Page, 'visualZone'>[] = [];
  for (const [i, { image, pageIndex }] of documentImages.entries()) {
    const bytes = Buffer.from(image, 'base64');
    const reading = await fromRequestImage(`documentImages[${i}].image`, context.documentEngine().read(bytes));
    readings.push({ pageIndex, bytes, reading, mrz: parseRead(reading.mrz, referenceDate) });
  }
  // Then each page's visual zone, its numeric dates month first when an MRZ of the request is American.
  const monthFirst = readings.some((p) => p.mrz?.fields.issuingState.value === 'USA');
  const pages: Page[] = [];
  for (const [i, page] of readings.entries()) {
    const { reading } = page;
    const visualZone = await fromRequestImage(
      `documentImages[${i}].image`,
      context.documentEngine().readVisualZone({
        frame: page.bytes,
        page: reading.page === null ? null : { jpeg: reading.page.jpeg, quad: reading.page.quad },
        referenceDate: referenceDate.getTime(),
        monthFirst,
      }),
    );
    pages.push({ ...page, visualZone: visualZone.fields });
  }
  const read = pages.filter((p): p is Page & { mrz: MrzRepairResult } => p.mrz !== null);
  // The page whose MRZ is valid first; the others' only count for the security checks.
  const best = read.find((p) => p.mrz.valid) ?? read[0];
  const mrzFields = best === undefined ? {} : mrzDocumentFields(best.mrz);
  const opticalFields = visualZoneDocumentFields(pages.map((p) => p.visualZone));
  // Each page's visual zone against the MRZ that stands (a card's front carries the names its back's MRZ has).
  const conflicts =
    best === undefined ? [] : [...new Set(pages.flatMap((p) => visualZoneConflicts(p.visualZone, best.mrz)))];
  const mrzChecks = opticalSecurity(read.map((p) => p.mrz));
  const optical = {
    overall: conflicts.length > 0 ? ('FAIL' as const) : mrzChecks.overall,
    reasons: [...mrzChecks.reasons, ...conflicts],
  };
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
      overall: overallDocumentFields({
        mrz: best?.mrz ?? null,
        mrzFields,
        optical: opticalFields,
        rfid: chip?.fields ?? null,
        chipAuthentic: chip?.authentic ?? false,
      }),
      optical: opticalFields,
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

/** The read repaired on its OCR evidence: only characters the OCR was unsure of are repaired. */
function parseRead(read: MrzRead | null, referenceDate: Date): MrzRepairResult | null {
  if (read === null) return null;
  try {
    return repairMrz(read.lines, { referenceDate, evidence: read.evidence });
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
