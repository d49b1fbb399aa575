import type { PrintedDate, VisualZoneFields } from '../../engines/document/visual-zone-fields.js';
import type { DateValue, DocumentFields } from './schemas.js';

/**
 * The document-fields object of the visual zone as read (`fields.optical`): surname, given names, document
 * number, dates of birth and expiry as printed (the date's `text` is the printed text), nationality when printed
 * as a three-letter code (a country name such as `UTOPIAN` is not one), `gender` M, F or `<` for a printed X.
 * The date of issue is read but the spec's document-fields object has no place for it. Across pages the first
 * page that gives a field gives it.
 *
 * @example
 * visualZoneDocumentFields([viz.fields]).dateOfBirth; // { year: 1974, month: 8, day: 12, text: '12 AUG/AOUT 74' }
 */
export function visualZoneDocumentFields(pages: readonly VisualZoneFields[]): DocumentFields {
  const fields: DocumentFields = {};
  for (const viz of pages) {
    if (viz.surname) fields.surname ??= viz.surname.value;
    if (viz.givenNames) fields.givenName ??= viz.givenNames.value;
    if (viz.documentNumber) fields.documentNumber ??= viz.documentNumber.value;
    if (viz.nationality && /^[A-Z]{3}$/.test(viz.nationality.value)) fields.nationality ??= viz.nationality.value;
    if (viz.dateOfBirth) fields.dateOfBirth ??= dateValue(viz.dateOfBirth.value);
    if (viz.dateOfExpiry) fields.dateOfExpiry ??= dateValue(viz.dateOfExpiry.value);
    if (viz.sex) fields.gender ??= viz.sex.value === 'X' ? '<' : viz.sex.value;
  }
  return fields;
}

function dateValue(date: PrintedDate): DateValue {
  return { year: date.year, month: date.month, day: date.day, text: date.text };
}
