import type { MrzFields, MrzParseResult } from '../mrz/mrz-types.js';

/**
 * The MRZ fields whose values differ between DG1 and the MRZ read from the page (after OCR repair), in field
 * order; a different format (TD3 in the chip, TD1 on the page) lists `format`. Exact comparison: a chip copy
 * of the MRZ has no reading error, so any difference is a different document, a substituted page, or a misread
 * the caller has to own (the page's MRZ confidence says which is likelier).
 *
 * @example
 * compareMrzFields(parseMrz(dg1Lines), repairMrz(ocrLines)); // [] or ['surname', 'dateOfBirth']
 */
export function compareMrzFields(chip: MrzParseResult, page: MrzParseResult): string[] {
  if (chip.format !== page.format) return ['format'];
  const names = Object.keys(chip.fields) as (keyof MrzFields)[];
  return names.filter((name) => (chip.fields[name]?.value ?? null) !== (page.fields[name]?.value ?? null));
}
