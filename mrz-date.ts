import type { MrzDate } from './mrz-types.js';

/**
 * How the century of a two-digit year is chosen. `birth`: the latest date not after the reference day
 * (a person is born in the past; someone over 100 years old reads 100 years too young, which no
 * two-digit year can avoid). `expiry`: 20YY unless that is more than 20 years after the reference
 * year, then 19YY (travel documents run 10 years, a few ID cards 15; an expiry 21 or more years
 * ahead is one of the last century, so 80 years of expired documents still read right).
 */
export type MrzDateKind = 'birth' | 'expiry';

/** Years after the reference year an expiry date may lie before it is read as the last century's. */
export const EXPIRY_YEARS_AHEAD = 20;

const DATE_SHAPE = /^(\d\d)(\d\d|<<)(\d\d|<<)$/;

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * Reads a `YYMMDD` MRZ date; `<<` for an unknown month or day is kept as null. Returns null when the
 * text is not a date (letters, month 13, 31 April, a known day in an unknown month).
 *
 * @example
 * parseMrzDate('740812', 'birth', new Date('2025-06-01'))?.iso; // '1974-08-12'
 * parseMrzDate('120415', 'expiry', new Date('2025-06-01'))?.iso; // '2012-04-15'
 * parseMrzDate('961210', 'expiry', new Date('2025-06-01'))?.iso; // '1996-12-10'
 * parseMrzDate('7408<<', 'birth', new Date('2025-06-01')); // { year: 1974, month: 8, day: null, iso: null, … }
 */
export function parseMrzDate(raw: string, kind: MrzDateKind, referenceDate: Date): MrzDate | null {
  const match = DATE_SHAPE.exec(raw);
  if (!match) return null;
  const yy = Number(match[1]);
  const month = match[2] === '<<' ? null : Number(match[2]);
  const day = match[3] === '<<' ? null : Number(match[3]);
  if (month === null && day !== null) return null;
  if (month !== null && (month < 1 || month > 12)) return null;

  const referenceYear = referenceDate.getUTCFullYear();
  let year = 2000 + yy;
  if (kind === 'expiry') {
    if (year > referenceYear + EXPIRY_YEARS_AHEAD) year -= 100;
  } else {
    // Compare on the known parts: an unknown month or day counts as the earliest possible.
    const asDate = Date.UTC(year, (month ?? 1) - 1, day ?? 1);
    const reference = Date.UTC(referenceYear, referenceDate.getUTCMonth(), referenceDate.getUTCDate());
    if (asDate > reference) year -= 100;
  }
  if (month !== null && day !== null && (day < 1 || day > daysInMonth(year, month))) return null;
  const iso = month !== null && day !== null ? `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` : null;
  return { raw, year, month, day, iso };
}
