import type { MrzDateField, MrzField, MrzFields, MrzParseResult } from '../../engines/document/mrz/mrz-types.js';
import type { DateValue, DocumentFields, MrzAnalysis } from './schemas.js';

/**
 * The document-fields object of a parsed MRZ. Dates keep the printed text and the century the parser chose
 * (birth: the latest century not after today; expiry: 20YY unless more than 20 years ahead);
 * `gender` is the printed character, ICAO's `X` (unspecified) given as the spec's `<`; empty fields are left out.
 *
 * @example
 * mrzDocumentFields(repairMrz(lines)).dateOfBirth; // { year: 1974, month: 8, day: 12, text: '740812' }
 */
export function mrzDocumentFields(mrz: MrzParseResult): DocumentFields {
  const { fields } = mrz;
  const sex = fields.sex.raw === 'X' ? '<' : fields.sex.raw;
  return {
    ...text('documentCode', fields.documentCode),
    ...text('issuingState', fields.issuingState),
    ...text('surname', fields.surname),
    ...text('givenName', fields.givenNames),
    ...text('documentNumber', fields.documentNumber),
    ...text('nationality', fields.nationality),
    dateOfBirth: dateValue(fields.dateOfBirth),
    gender: sex,
    ...(fields.dateOfExpiry === null ? {} : { dateOfExpiry: dateValue(fields.dateOfExpiry) }),
    ...text('personalNumber', fields.personalNumber),
    ...text('optionalData1', fields.optionalData1),
    ...text('optionalData2', fields.optionalData2),
  };
}

/**
 * The parser's verdict on an MRZ for the response's `mrz` extension: check digits and confidences.
 *
 * @example
 * mrzAnalysis(repairMrz(lines), 0).checkDigits[0];
 * // { name: 'documentNumber', printed: '6', expected: 6, valid: true }
 */
export function mrzAnalysis(
  mrz: MrzParseResult & { readonly changes?: readonly unknown[] },
  pageIndex: number,
): MrzAnalysis {
  const fieldConfidence: Record<string, number> = {};
  for (const name of Object.keys(mrz.fields) as (keyof MrzFields)[]) {
    const field = mrz.fields[name];
    if (field !== null) fieldConfidence[name] = field.confidence;
  }
  return {
    pageIndex,
    format: mrz.format,
    valid: mrz.valid,
    repaired: (mrz.changes?.length ?? 0) > 0,
    confidence: mrz.confidence,
    verifiedConfidence: mrz.verifiedConfidence,
    checkDigits: mrz.checkDigits.map((c) => ({
      name: c.name,
      printed: c.printed,
      expected: c.expected,
      valid: c.valid,
    })),
    fieldConfidence,
  };
}

function text<K extends keyof DocumentFields>(name: K, field: MrzField | null): Partial<Record<K, string>> {
  if (field === null || field.value === '') return {};
  return { [name]: field.value } as Partial<Record<K, string>>;
}

function dateValue(field: MrzDateField): DateValue {
  const { date } = field;
  if (date === null) return { text: field.raw };
  return {
    year: date.year,
    ...(date.month === null ? {} : { month: date.month }),
    ...(date.day === null ? {} : { day: date.day }),
    text: date.raw,
  };
}
