import type { MrzCheckName, MrzParseResult } from '../../engines/document/mrz/mrz-types.js';
import type { CheckValue } from './schemas.js';

/** The security reasons an MRZ can give (docs/documents.md, Document validation). */
const CHECK_REASON: Readonly<Record<MrzCheckName, string>> = {
  documentNumber: 'MRZ_CHECK_DIGIT_DOCUMENT_NUMBER',
  dateOfBirth: 'MRZ_CHECK_DIGIT_DATE_OF_BIRTH',
  dateOfExpiry: 'MRZ_CHECK_DIGIT_DATE_OF_EXPIRY',
  personalNumber: 'MRZ_CHECK_DIGIT_PERSONAL_NUMBER',
  composite: 'MRZ_CHECK_DIGIT_COMPOSITE',
};

/** Two pages of one request read different MRZs. */
export const MRZ_PAGES_DIFFER = 'MRZ_PAGES_DIFFER';

export interface OpticalSecurity {
  readonly overall: CheckValue;
  readonly reasons: string[];
}

/**
 * The optical security the MRZs support: every printed check digit that fails after the OCR repair
 * (a wrong digit no misread explains: altered or forged data) and every error issue (impossible date,
 * bad code) is a reason; two pages with different MRZs is one. PASS only when at least one MRZ was read
 * and nothing failed; NOT_PERFORMED without an MRZ. It proves consistency of the printed zone only,
 * not the document's authenticity (no security-feature check of the visual zone is built).
 *
 * @example
 * opticalSecurity([repairMrz(tamperedLines)]); // { overall: 'FAIL', reasons: ['MRZ_CHECK_DIGIT_DATE_OF_BIRTH', ...] }
 */
export function opticalSecurity(mrzs: readonly MrzParseResult[]): OpticalSecurity {
  if (mrzs.length === 0) return { overall: 'NOT_PERFORMED', reasons: [] };
  const reasons = new Set<string>();
  for (const mrz of mrzs) {
    for (const check of mrz.checkDigits) if (!check.valid) reasons.add(CHECK_REASON[check.name]);
    for (const issue of mrz.issues) {
      if (issue.severity === 'error' && issue.code !== 'CHECK_DIGIT_MISMATCH') reasons.add(`MRZ_${issue.code}`);
    }
  }
  const distinct = new Set(mrzs.map((mrz) => mrz.lines.join('\n')));
  if (distinct.size > 1) reasons.add(MRZ_PAGES_DIFFER);
  return { overall: reasons.size === 0 ? 'PASS' : 'FAIL', reasons: [...reasons] };
}
