import type { MrzDateField, MrzParseResult } from '../../engines/document/mrz/mrz-types.js';
import { ownCheckHolds } from './overall-document-fields.js';
import {
  foldText,
  type VisualValue,
  type PrintedDate,
  type VisualZoneFields,
} from '../../engines/document/visual-zone-fields.js';

/** The visual zone and the MRZ differ (each differing field adds `VIZ_MRZ_MISMATCH_<FIELD>`). */
export const VIZ_MRZ_MISMATCH = 'VIZ_MRZ_MISMATCH';

/**
 * Least mean character probability of a visual-zone line compared with the MRZ: below it an OCR misreading is
 * likelier than an altered page (specimen photos read `EROKSSON` at 0.85 and `ERIKKSON, ANNAMARIA` at 0.91).
 */
export const MIN_COMPARED_CONFIDENCE = 0.95;

/**
 * The fields where the visual zone contradicts the MRZ: surname, given names, dates of birth and expiry, document
 * number. Names are compared as the MRZ writes them (upper case, diacritics transliterated — both the plain and
 * ICAO's `Ä`→`AE` forms are accepted —, apostrophes dropped, hyphens and spaces ignored, so OCR's merged or split
 * words count for nothing), a visual name longer than a full MRZ name field may start with it (truncation);
 * dates on day, month and the year's last two digits (the MRZ has no century). A field is compared only when
 * both sides are sure: the visual line read with MIN_COMPARED_CONFIDENCE, the MRZ field covered by a valid check
 * digit (its own: dates, number) or, for names, an MRZ that parsed valid. Reasons are `VIZ_MRZ_MISMATCH` then one
 * `VIZ_MRZ_MISMATCH_<FIELD>` per field; none when nothing differs.
 *
 * @example
 * visualZoneConflicts(vizReadingSurnameERIKSEN, repairMrz(lines)); // ['VIZ_MRZ_MISMATCH', 'VIZ_MRZ_MISMATCH_SURNAME']
 */
export function visualZoneConflicts(viz: VisualZoneFields, mrz: MrzParseResult): string[] {
  const { fields } = mrz;
  const truncated = !fields.givenNames.raw.endsWith('<') && fields.givenNames.raw !== '';
  const differing: string[] = [];
  if (mrz.valid && sure(viz.surname) && !sameName(viz.surname.value, fields.surname.value, truncated))
    differing.push('SURNAME');
  if (mrz.valid && sure(viz.givenNames) && !sameName(viz.givenNames.value, fields.givenNames.value, truncated))
    differing.push('GIVEN_NAME');
  if (sure(viz.dateOfBirth) && checked(mrz, 'dateOfBirth') && !sameDate(viz.dateOfBirth.value, fields.dateOfBirth))
    differing.push('DATE_OF_BIRTH');
  const expiry = fields.dateOfExpiry;
  if (sure(viz.dateOfExpiry) && expiry && checked(mrz, 'dateOfExpiry') && !sameDate(viz.dateOfExpiry.value, expiry))
    differing.push('DATE_OF_EXPIRY');
  if (
    sure(viz.documentNumber) &&
    checked(mrz, 'documentNumber') &&
    viz.documentNumber.value !== fields.documentNumber.value.replace(/</g, '')
  )
    differing.push('DOCUMENT_NUMBER');
  return differing.length === 0 ? [] : [VIZ_MRZ_MISMATCH, ...differing.map((f) => `${VIZ_MRZ_MISMATCH}_${f}`)];
}

function sure<T>(value: VisualValue<T> | undefined): value is VisualValue<T> {
  return value !== undefined && value.confidence >= MIN_COMPARED_CONFIDENCE;
}

function checked(mrz: MrzParseResult, field: 'dateOfBirth' | 'dateOfExpiry' | 'documentNumber'): boolean {
  return mrz.valid || ownCheckHolds(mrz, field);
}

/**
 * Whether a printed name is the MRZ's: equal once both are written as the MRZ writes them, or, when the MRZ's
 * name field is full, the printed one starting with the MRZ's.
 *
 * @example
 * sameName('Müller-Lüdenscheidt', 'MUELLER LUEDENSCHEIDT', false); // true
 */
export function sameName(printed: string, mrz: string, truncated: boolean): boolean {
  const target = mrz.replace(/[<\s]/g, '');
  return [mrzLetters(printed, false), mrzLetters(printed, true)].some(
    (form) => form === target || (truncated && target.length > 0 && form.startsWith(target)),
  );
}

/** ICAO 9303 part 3's transliterations that are not a plain accent strip. */
const ICAO_LETTERS: Readonly<Record<string, string>> = {
  Ä: 'AE',
  Ö: 'OE',
  Ü: 'UE',
  Å: 'AA',
  Ø: 'OE',
  Æ: 'AE',
  Œ: 'OE',
  ß: 'SS',
  Þ: 'TH',
  Ð: 'D',
  Ĳ: 'IJ',
};

/** Letters only, upper case, transliterated plainly or (`icao`) with ICAO's two-letter forms. */
function mrzLetters(name: string, icao: boolean): string {
  const upper = name.toUpperCase();
  const spelled = icao ? [...upper].map((c) => ICAO_LETTERS[c] ?? c).join('') : upper;
  return foldText(spelled).replace(/[^A-Z]/g, '');
}

function sameDate(printed: PrintedDate, mrz: MrzDateField): boolean {
  const { date } = mrz;
  if (date === null) return true;
  return (
    printed.year % 100 === date.year % 100 &&
    (date.month === null || date.month === printed.month) &&
    (date.day === null || date.day === printed.day)
  );
}
