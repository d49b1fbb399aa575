import { ChipDataError } from '../../engines/document/chip/chip-data-error.js';
import { readDataGroup2Portrait } from '../../engines/document/chip/data-group-2.js';
import { jpeg2000PortraitToJpeg } from '../../engines/document/chip/jpeg2000-portrait.js';
import { compareMrzFields } from '../../engines/document/chip/mrz-comparison.js';
import {
  passiveAuthentication,
  type ChipFiles,
  type PassiveAuthentication,
} from '../../engines/document/chip/passive-authentication.js';
import type { TrustStore } from '../../engines/document/chip/trust-store.js';
import { MrzInputError } from '../../engines/document/mrz/mrz-input-error.js';
import type { MrzParseResult } from '../../engines/document/mrz/mrz-types.js';
import { parseMrz } from '../../engines/document/mrz/parse-mrz.js';
import { invalidValue } from '../../server/errors/api-error.js';
import { mrzDocumentFields } from './mrz-document-fields.js';
import type { DocumentFields, RfidSecurity } from './schemas.js';

/** The chip's part of a validation answer. */
export interface ChipSecurity {
  readonly rfid: RfidSecurity;
  /** Every failed chip check and every DG1 field that differs from the page's MRZ. */
  readonly reasons: readonly string[];
  /** DG1's MRZ as document fields. */
  readonly fields: DocumentFields;
  /** Whether the chip's own data is proven (passive authentication held before the page comparison). */
  readonly authentic: boolean;
  /** DG2's face as JPEG (a JPEG 2000 face decoded and re-encoded), base64; absent without DG2. */
  readonly portrait?: string;
}

/** Every chip check when no chip data came: nothing is claimed. */
export const CHIP_NOT_PERFORMED: RfidSecurity = {
  basicAccessControl: 'NOT_PERFORMED',
  activeAuthentication: 'NOT_PERFORMED',
  chipAuthentication: 'NOT_PERFORMED',
  pace: 'NOT_PERFORMED',
  passiveAuthentication: 'NOT_PERFORMED',
  overall: 'NOT_PERFORMED',
};

/** DG1 and the page's MRZ differ (each differing field adds `CHIP_DG1_MRZ_MISMATCH_<FIELD>`). */
export const DG1_MRZ_MISMATCH = 'CHIP_DG1_MRZ_MISMATCH';

/**
 * Checks chip files: passive authentication against the trust store at `now` (engines/document/chip/), then
 * DG1 against the MRZ read from the pages, field by field. `passiveAuthentication` is PASS only when every check
 * held, DG1 equal to the page included when a page MRZ was read; `incorrectDsCertificate` when only the
 * certificate chain or its country failed; FAIL when the data or its signature did, or DG1 differs from the
 * page. Access control, active and chip authentication and PACE stay NOT_PERFORMED: the files read from a chip
 * carry no evidence of them (they are protocols run with the chip, not data it stores).
 *
 * @example
 * const chip = await chipSecurity(files, trust(), new Date(), pageMrz);
 * chip.rfid.passiveAuthentication; // 'PASS'
 * @throws {ApiError} 400 for chip files that do not parse (`encryptedDocument: ...`)
 */
export async function chipSecurity(
  files: ChipFiles,
  trust: TrustStore,
  now: Date,
  pageMrz: MrzParseResult | null,
): Promise<ChipSecurity> {
  let result: PassiveAuthentication;
  let dg1: MrzParseResult;
  let portrait: string | undefined;
  try {
    result = passiveAuthentication(files, trust, now);
    dg1 = parseMrz(result.dg1Mrz, { referenceDate: now });
    const dg2 = files.dataGroups.get(2);
    if (dg2 !== undefined) {
      const face = readDataGroup2Portrait(dg2);
      const jpeg = face.format === 'jpeg' ? face.image : await jpeg2000PortraitToJpeg(face.image);
      portrait = Buffer.from(jpeg).toString('base64');
    }
  } catch (error) {
    if (error instanceof ChipDataError || error instanceof MrzInputError) {
      throw invalidValue(`encryptedDocument: ${error.message}`);
    }
    throw error;
  }
  const conflicts = pageMrz === null ? [] : compareMrzFields(dg1, pageMrz);
  const reasons = [...result.findings];
  if (conflicts.length > 0) {
    reasons.push(DG1_MRZ_MISMATCH, ...conflicts.map((field) => `${DG1_MRZ_MISMATCH}_${snakeCase(field)}`));
  }
  const passive: RfidSecurity['passiveAuthentication'] =
    result.status === 'FAIL' || conflicts.length > 0
      ? 'FAIL'
      : result.status === 'INCORRECT_DS_CERTIFICATE'
        ? 'incorrectDsCertificate'
        : result.status;
  return {
    rfid: {
      ...CHIP_NOT_PERFORMED,
      passiveAuthentication: passive,
      overall: passive === 'incorrectDsCertificate' ? 'FAIL' : passive,
    },
    reasons,
    fields: mrzDocumentFields(dg1),
    authentic: result.status === 'PASS',
    ...(portrait === undefined ? {} : { portrait }),
  };
}

function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}
