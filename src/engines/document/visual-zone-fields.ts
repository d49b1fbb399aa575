import type { VisualTextLine } from './visual-zone-text.js';

/** A date printed in the visual zone (a two-digit year given its century by `parsePrintedDate`). */
export interface PrintedDate {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  /** The text the date was read from. */
  readonly text: string;
}

/** A value read in the visual zone with the recogniser's mean character probability for its line. */
export interface VisualValue<T> {
  readonly value: T;
  readonly confidence: number;
}

/** How the page prints. */
export interface VisualZoneFieldOptions {
  /** Numeric dates are month first (`10/04/49` is 4 October): the United States' documents. */
  readonly monthFirst?: boolean;
}

/** What reading a printed date needs besides its text. */
export interface DateReading {
  /** The day two-digit years are placed from. */
  readonly referenceDate: Date;
  /** Numeric dates are month first. */
  readonly monthFirst?: boolean;
}

/** The fields read from the visual inspection zone; a field is absent where it was not found. */
export interface VisualZoneFields {
  surname?: VisualValue<string>;
  givenNames?: VisualValue<string>;
  dateOfBirth?: VisualValue<PrintedDate>;
  dateOfExpiry?: VisualValue<PrintedDate>;
  dateOfIssue?: VisualValue<PrintedDate>;
  documentNumber?: VisualValue<string>;
  nationality?: VisualValue<string>;
  sex?: VisualValue<string>;
}

export type VisualFieldName = keyof VisualZoneFields;

/**
 * Field labels printed on ICAO data pages and ID cards, in the languages most documents print (English, French,
 * German, Spanish, Italian, Portuguese, Dutch, Czech, Slovak, Polish, Nordic), upper case without accents or spaces:
 * a label line is split at `/` and each part compared with these (exactly, or within one or two OCR edits for
 * the longer ones). `NAME` is a surname, as German, Swiss and Luxembourg pages print it (`Nom/Name`).
 */
const LABELS: Readonly<Record<VisualFieldName, readonly string[]>> = {
  surname: [
    'SURNAME',
    'SURNAMES',
    'PRIMARYIDENTIFIER',
    'IDENTIFIANTPRIMAIRE',
    'NOM',
    'NOMS',
    'NAME',
    'NACHNAME',
    'FAMILIENNAME',
    'FAMILYNAME',
    'LASTNAME',
    'APELLIDOS',
    'APELLIDO',
    'APELIDOS',
    'COGNOME',
    'PRIJMENI',
    'PRIEZVISKO',
    'NAZWISKO',
    'ACHTERNAAM',
    'EFTERNAVN',
    'EFTERNAMN',
    'SUKUNIMI',
  ],
  givenNames: [
    'GIVENNAMES',
    'GIVENNAME',
    'SECONDARYIDENTIFIER',
    'IDENTIFIANTSECONDAIRE',
    'FORENAMES',
    'FIRSTNAME',
    'FIRSTNAMES',
    'PRENOMS',
    'PRENOM',
    'VORNAMEN',
    'VORNAME',
    'NOMBRES',
    'NOMBRE',
    'NOME',
    'NOMI',
    'JMENO',
    'MENO',
    'IMIONA',
    'IMIE',
    'VOORNAMEN',
    'FORNAVN',
    'FORNAMN',
    'ETUNIMET',
  ],
  dateOfBirth: [
    'DATEOFBIRTH',
    'BIRTHDATE',
    'DATEDENAISSANCE',
    'GEBURTSDATUM',
    'GEBURTSTAG',
    'FECHADENACIMIENTO',
    'DATADINASCITA',
    'DATADENASCIMENTO',
    'DATUMNAROZENI',
    'DATUMNARODENIA',
    'DATAURODZENIA',
    'GEBOORTEDATUM',
    'FODELSEDATUM',
    'FODSELSDATO',
    'SYNTYMAAIKA',
    'DOB',
  ],
  dateOfExpiry: [
    'DATEOFEXPIRY',
    'DATEOFEXPIRATION',
    'EXPIRYDATE',
    'DATEDEXPIRATION',
    'DATEDEXPIRY',
    'EXPIRES',
    'VALIDUNTIL',
    'EXPIRY',
    'EXPIRATION',
    'CARDEXPIRES',
    'VALIDEJUSQUAU',
    'VALABLEJUSQUAU',
    'GULTIGBIS',
    'FECHADECADUCIDAD',
    'FECHADEVENCIMIENTO',
    'VALIDEZ',
    'SCADENZA',
    'DATADISCADENZA',
    'DATADEVALIDADE',
    'VALIDADE',
    'PLATNOSTDO',
    'DATUMKONCEPLATNOSTI',
    'DATAWAZNOSCI',
    'GELDIGTOT',
    'VERVALDATUM',
    'GILTIGTILL',
    'GYLDIGTIL',
    'VOIMASSA',
  ],
  dateOfIssue: [
    'DATEOFISSUE',
    'ISSUEDATE',
    'DATEDEDELIVRANCE',
    'AUSSTELLUNGSDATUM',
    'FECHADEEXPEDICION',
    'FECHADEEMISION',
    'DATADIRILASCIO',
    'DATADEEMISSAO',
    'DATUMVYDANI',
    'DATUMVYDANIA',
    'DATAWYDANIA',
    'DATUMVANAFGIFTE',
    'DATUMVANUITGIFTE',
    'UTFARDANDEDATUM',
    'UDSTEDELSESDATO',
  ],
  documentNumber: [
    'PASSPORTNO',
    'PASSPORTNUMBER',
    'NDEPASSEPORT',
    'NODUPASSEPORT',
    'NODEPASSEPORT',
    'DOCUMENTNO',
    'DOCNO',
    'DOCUMENTNUMBER',
    'DOCUMENTNR',
    'CARDNO',
    'CARDNUMBER',
    'PASSNR',
    'PASSNUMMER',
    'AUSWEISNUMMER',
    'NUMERODEPASAPORTE',
    'PASAPORTENO',
    'NUMERODEDOCUMENTO',
    'NUMERODEDOCUMENT',
    'NUMERODUDOCUMENT',
    'CISLOPASU',
    'NUMERODELPASSAPORTO',
    'PASPOORTNUMMER',
  ],
  nationality: [
    'NATIONALITY',
    'NATIONALITE',
    'STAATSANGEHORIGKEIT',
    'NACIONALIDAD',
    'NACIONALIDADE',
    'CITTADINANZA',
    'NAZIONALITA',
    'STATNIOBCANSTVI',
    'STATNEOBCIANSTVO',
    'OBYWATELSTWO',
    'NATIONALITEIT',
  ],
  sex: ['SEX', 'SEXE', 'GESCHLECHT', 'SEXO', 'SESSO', 'POHLAVI', 'PLEC', 'GESLACHT', 'KON', 'KOEN', 'KJONN'],
};

const FIELD_NAMES = Object.keys(LABELS) as VisualFieldName[];

/**
 * Turns the text lines of a document page (visual-zone-text.ts) into fields. A line is a label when one of its
 * `/`-separated parts is a known label (LABELS; OCR's merged words and one or two misread letters allowed); its
 * value is the nearest line that is no label and reads as that field's kind (a name, a date, a code) either
 * below it (starting within about two label heights, left edges within two heights or overlapping) or right of
 * it on the same row. Lines that look like MRZ lines (`<<`) are ignored. Dates not found by a label are assigned
 * by order when at least two dates are printed and none is labelled: the earliest is the birth date, the latest
 * the expiry. Two-digit years take the century of `referenceDate`'s rule: a birth date the latest century not
 * after it, other dates 20YY.
 *
 * @example
 * visualZoneFields(lines, new Date()).surname; // { value: 'ERIKSSON', confidence: 0.99 }
 * visualZoneFields(lines, new Date()).dateOfBirth?.value; // { year: 1974, month: 8, day: 12, text: '12 AUG/AOUT 74' }
 */
export function visualZoneFields(
  lines: readonly VisualTextLine[],
  referenceDate: Date,
  options: VisualZoneFieldOptions = {},
): VisualZoneFields {
  const dates: DateReading = { referenceDate, monthFirst: options.monthFirst ?? false };
  const text = lines.filter((l) => !isMrzLike(l.text));
  const labels = text.map((line) => ({ line, fields: labelFields(line.text) }));
  const values = labels.filter((l) => l.fields.length === 0).map((l) => l.line);
  const fields: VisualZoneFields = {};
  const used = new Set<VisualTextLine>();
  for (const name of FIELD_NAMES) {
    for (const label of labels) {
      if (!label.fields.includes(name) || fields[name] !== undefined) continue;
      const found = inlineDate(name, label.line, dates) ?? valueFor(name, label.line, values, used, dates);
      if (found) {
        assign(fields, name, found.value, found.line.confidence);
        used.add(found.line);
        // `Name/Nom: ERIKSSON, ANNA MARIA`: one field for both names, surname first.
        const given = /,\s*(.+)$/.exec(found.line.text)?.[1]?.trim();
        if (name === 'surname' && given && isNameText(given) && !fields.givenNames)
          fields.givenNames = { value: given.replace(/\s+/g, ' '), confidence: found.line.confidence };
      }
    }
  }
  if (!fields.dateOfBirth && !fields.dateOfExpiry) datesByOrder(fields, values, used, dates);
  if (fields.surname && !fields.givenNames) {
    const surnameLine = values.find((l) => l.text.trim().replace(/\s+/g, ' ') === fields.surname?.value);
    const given = surnameLine ? nameBelow(surnameLine, values, used) : null;
    if (given) fields.givenNames = { value: given.text.trim().replace(/\s+/g, ' '), confidence: given.confidence };
  }
  return fields;
}

/**
 * Dates no label names, by order: with two or more unlabelled dates the earliest, when past, is the birth date;
 * with three or more the latest is the expiry (with two, the later may be the issue date: a Luxembourg specimen
 * whose expiry line was cut read 2006, its issue date).
 */
function datesByOrder(
  fields: VisualZoneFields,
  values: readonly VisualTextLine[],
  used: ReadonlySet<VisualTextLine>,
  reading: DateReading,
): void {
  const { referenceDate } = reading;
  const dates = values
    .filter((l) => !used.has(l))
    .flatMap((l) => {
      const d = parsePrintedDate(l.text, 'other', reading);
      return d ? [{ date: d, confidence: l.confidence }] : [];
    })
    .sort((a, b) => dayNumber(a.date) - dayNumber(b.date));
  const first = dates[0];
  const last = dates.at(-1);
  if (dates.length < 2 || !first || !last || dayNumber(first.date) === dayNumber(last.date)) return;
  const birth = parsePrintedDate(first.date.text, 'birth', reading) ?? first.date;
  if (Date.UTC(birth.year, birth.month - 1, birth.day) < referenceDate.getTime())
    fields.dateOfBirth = { value: birth, confidence: first.confidence };
  if (dates.length >= 3) fields.dateOfExpiry = { value: last.date, confidence: last.confidence };
}

/**
 * The given names when their label did not read: ICAO pages print them right under the surname, so the next
 * name-like line below the surname's value, left-aligned with it (within half a line height; a label between
 * them starts further left or is no name) and about as tall, within four line heights.
 */
function nameBelow(
  surname: VisualTextLine,
  values: readonly VisualTextLine[],
  used: ReadonlySet<VisualTextLine>,
): VisualTextLine | null {
  const h = surname.box.height;
  let best: VisualTextLine | null = null;
  for (const line of values) {
    const { box } = line;
    if (used.has(line) || line === surname || box.y <= surname.box.y + h / 2) continue;
    if (box.y - (surname.box.y + h) > 4 * h || Math.abs(box.x - surname.box.x) > h / 2) continue;
    if (Math.abs(box.height - h) > 0.3 * h || !isNameText(line.text.trim())) continue;
    if (!best || box.y < best.box.y) best = line;
  }
  return best;
}

function assign(
  fields: VisualZoneFields,
  name: VisualFieldName,
  value: string | PrintedDate,
  confidence: number,
): void {
  if (typeof value === 'string') {
    if (name === 'dateOfBirth' || name === 'dateOfExpiry' || name === 'dateOfIssue') return;
    fields[name] = { value, confidence };
  } else if (name === 'dateOfBirth' || name === 'dateOfExpiry' || name === 'dateOfIssue') {
    fields[name] = { value, confidence };
  }
}

/**
 * The fields a line labels (empty when it is no label). The OCR often reads a label's `/` as `l` or `I` between
 * two words (`Sexl Sexe`), or drops it (`NationalityNationalite`): a lower-case `l`/`I` before a capital is taken
 * for a slash, and a part contains a label of 8 letters or more anywhere in it.
 *
 * @example
 * labelFields('Given names/Prénoms'); // ['givenNames']
 * labelFields('DateofexpiryDatedexpiration'); // ['dateOfExpiry']
 */
export function labelFields(text: string): VisualFieldName[] {
  const parts = foldText(text.replace(/(?<=[a-z])[lI|]\s?(?=[A-Z])/g, '/'))
    .split(/[/|\\]/)
    .map((part) => part.replace(/^[\s\d.,:;-]+/, '').replace(/[^A-Z]/g, ''))
    .filter((part) => part.length >= 2);
  const found = new Set<VisualFieldName>();
  for (const part of parts) {
    for (const name of FIELD_NAMES) {
      if (LABELS[name].some((label) => labelMatches(part, label))) found.add(name);
    }
  }
  return [...found];
}

function labelMatches(part: string, label: string): boolean {
  if (part === label) return true;
  const allowed = label.length >= 10 ? 2 : label.length >= 6 ? 1 : 0;
  if (allowed === 0) return false;
  // Labels of 8 letters or more anywhere in a part (merged with the next language's), within the same edits.
  if (label.length >= 8 && part.length > label.length) return substringDistance(part, label) <= allowed;
  if (Math.abs(part.length - label.length) > allowed) return false;
  return editDistance(part, label, allowed) <= allowed;
}

interface Candidate {
  readonly line: VisualTextLine;
  readonly value: string | PrintedDate;
}

/**
 * A label's value: a line of the row under it (its top within 1.5 label heights of the label's bottom, left edges
 * within two heights or overlapping; nearest first), else the nearest line right of it on the same row (within
 * eight heights), the first that reads as the field's kind. Rows further down belong to the next label.
 */
function valueFor(
  name: VisualFieldName,
  label: VisualTextLine,
  values: readonly VisualTextLine[],
  used: ReadonlySet<VisualTextLine>,
  dates: DateReading,
): Candidate | null {
  const h = label.box.height;
  const labelBottom = label.box.y + label.box.height;
  const labelMiddle = label.box.y + h / 2;
  const below: { line: VisualTextLine; gap: number; distance: number }[] = [];
  let right: { line: VisualTextLine; distance: number } | null = null;
  for (const line of values) {
    if (used.has(line)) continue;
    const { box } = line;
    const middle = box.y + box.height / 2;
    if (Math.abs(middle - labelMiddle) < h / 2 && box.x >= label.box.x + label.box.width - h) {
      const distance = box.x - (label.box.x + label.box.width);
      if (distance < 8 * h && (!right || distance < right.distance)) right = { line, distance };
    } else if (middle > labelMiddle + h / 2 && box.y - labelBottom < 1.5 * h) {
      const leftAligned = Math.abs(box.x - label.box.x) < 2 * h;
      const overlaps = box.x < label.box.x + label.box.width && box.x + box.width > label.box.x;
      if (!leftAligned && !overlaps) continue;
      const gap = Math.max(0, box.y - labelBottom);
      below.push({ line, gap, distance: gap + Math.abs(box.x - label.box.x) / 4 });
    }
  }
  // The row right under the label (a label spanning two columns has a value in each: the one of the right kind).
  const firstGap = Math.min(...below.map((b) => b.gap));
  const row = below.filter((b) => b.gap <= firstGap + h / 2).sort((a, b) => a.distance - b.distance);
  for (const found of [...row, ...(right ? [right] : [])]) {
    const value = fieldValue(name, found.line.text, dates);
    if (value !== null) return { line: found.line, value };
  }
  return null;
}

/** A date printed on its label's own line (`CARD EXPIRES 11/01/94`); null for other fields or without one. */
function inlineDate(name: VisualFieldName, label: VisualTextLine, dates: DateReading): Candidate | null {
  if (name !== 'dateOfBirth' && name !== 'dateOfExpiry' && name !== 'dateOfIssue') return null;
  const value = parsePrintedDate(label.text, name === 'dateOfBirth' ? 'birth' : 'other', dates);
  return value === null ? null : { line: label, value };
}

/** The line's text as the field's value, or null when it does not read as one. */
function fieldValue(name: VisualFieldName, text: string, dates: DateReading): string | PrintedDate | null {
  const trimmed = text.trim();
  switch (name) {
    case 'surname': {
      const surname = trimmed.split(',')[0]?.trim() ?? '';
      return isNameText(surname) ? surname.replace(/\s+/g, ' ') : null;
    }
    case 'givenNames':
      return isNameText(trimmed) ? trimmed.replace(/\s+/g, ' ') : null;
    case 'dateOfBirth':
      return parsePrintedDate(trimmed, 'birth', dates);
    case 'dateOfExpiry':
    case 'dateOfIssue':
      return parsePrintedDate(trimmed, 'other', dates);
    case 'documentNumber': {
      const compact = foldText(trimmed).replace(/\s+/g, '');
      return /^[A-Z0-9]{6,12}$/.test(compact) && /\d/.test(compact) ? compact : null;
    }
    case 'nationality': {
      const folded = foldText(trimmed);
      return /^[A-Z][A-Z ]{2,}$/.test(folded) ? folded : null;
    }
    case 'sex': {
      const letter = /^([MFX])(?:\s*\/\s*[MFXHW])?$/.exec(foldText(trimmed))?.[1];
      return letter ?? null;
    }
  }
}

/** Letters (any script's Latin), spaces, hyphens and apostrophes; at least two letters, no digit. */
function isNameText(text: string): boolean {
  if (/\d/.test(text) || labelFields(text).length > 0) return false;
  return /^[\p{L}][\p{L}\s'’.-]*[\p{L}.]$/u.test(text) && text.replace(/[^\p{L}]/gu, '').length >= 2;
}

/** Month names and abbreviations (English, French, German, Spanish, Italian, Portuguese, Dutch), folded. */
const MONTHS: readonly (readonly string[])[] = [
  ['JAN', 'ENE', 'GEN', 'JANV'],
  ['FEB', 'FEV', 'FEBR'],
  ['MAR', 'MRZ', 'MAER', 'MARS'],
  ['APR', 'AVR', 'ABR', 'AVRIL'],
  ['MAY', 'MAI', 'MAG', 'MEI', 'MAYO'],
  ['JUN', 'JUIN', 'GIU', 'JUNI'],
  ['JUL', 'JUIL', 'LUG', 'JULI'],
  ['AUG', 'AOU', 'AOUT', 'AGO'],
  ['SEP', 'SEPT', 'SET'],
  ['OCT', 'OKT', 'OTT', 'OUT'],
  ['NOV'],
  ['DEC', 'DEZ', 'DIC'],
];

function monthOf(word: string): number | null {
  for (const [i, names] of MONTHS.entries()) {
    if (names.includes(word)) return i + 1;
  }
  // Full names: the first four letters decide JUIN/JUIL, three the others (AUGUST, AOUT, DECEMBER...).
  for (const [i, names] of MONTHS.entries()) {
    if (word.length >= 4 && names.some((n) => n.length === 4 && word.startsWith(n))) return i + 1;
  }
  for (const [i, names] of MONTHS.entries()) {
    if (word.length >= 3 && !word.startsWith('JUI') && names.some((n) => word.startsWith(n.slice(0, 3)))) return i + 1;
  }
  return null;
}

/**
 * A date as printed on a data page: `12 AUG 1974`, `12 AUG/AOUT 74` (any of the month names in MONTHS, one or
 * two of them), `12.08.1974`, `12/08/1974`, `12-08-1974` (day first, as ICAO pages print, unless `monthFirst`),
 * `1974-08-12`. A
 * two-digit year is a birth date's latest century not after `referenceDate` (`kind` 'birth'), else 20YY unless
 * that is more than 20 years after `referenceDate` (then 19YY), the MRZ's expiry rule.
 * Null when the text holds no valid date.
 *
 * @example
 * parsePrintedDate('12 AUG/AOUT 74', 'birth', { referenceDate: new Date() }); // { year: 1974, month: 8, day: 12, ... }
 * parsePrintedDate('15.04.2032', 'other', { referenceDate: new Date() }); // { year: 2032, month: 4, day: 15, ... }
 */
export function parsePrintedDate(text: string, kind: 'birth' | 'other', reading: DateReading): PrintedDate | null {
  // OCR reads O for 0 and I/l for 1 inside numbers.
  const folded = foldText(text)
    .replace(/(?<=[A-Z])0(?=[A-Z])/g, 'O')
    .replace(/(?<=\d)[O](?=\d)|(?<=\d)[O]$|^[O](?=\d)/g, '0')
    .replace(/(?<=\d)[IL](?=\d)/g, '1');
  let day: number;
  let month: number;
  let yearText: string;
  const iso = /(?:^|\D)(\d{4})-(\d{2})-(\d{2})(?:\D|$)/.exec(folded);
  const numeric = /(?:^|\D)(\d{1,2})\s?[./ -]\s?(\d{1,2})\s?[./ -]\s?(\d{4}|\d{2})(?:\D|$)/.exec(folded);
  const named = /(?:^|[^0-9])(\d{1,2})\s*([A-Z]{3,})(?:\s*[/.]?\s*([A-Z]{3,}))?\s*[/.]?\s*(\d{4}|\d{2})(?:\D|$)/.exec(
    folded,
  );
  if (iso) {
    yearText = iso[1] ?? '';
    month = Number(iso[2]);
    day = Number(iso[3]);
  } else if (named) {
    const m = monthOf(named[2] ?? '') ?? monthOf(named[3] ?? '');
    if (m === null) return null;
    day = Number(named[1]);
    month = m;
    yearText = named[4] ?? '';
  } else if (numeric) {
    day = Number(reading.monthFirst ? numeric[2] : numeric[1]);
    month = Number(reading.monthFirst ? numeric[1] : numeric[2]);
    yearText = numeric[3] ?? '';
  } else {
    return null;
  }
  let year = Number(yearText);
  if (yearText.length === 2) {
    const now = reading.referenceDate.getUTCFullYear();
    if (kind === 'birth') {
      year = Math.floor(now / 100) * 100 + year;
      if (year > now) year -= 100;
    } else {
      year += year + 2000 > now + 20 ? 1900 : 2000;
    }
  }
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month) || year < 1880 || year > 2200) return null;
  return { year, month, day, text: text.trim() };
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function dayNumber(d: PrintedDate): number {
  return d.year * 372 + d.month * 31 + d.day;
}

/** A line of the MRZ (read again by the page OCR): two fillers in a row, or 25+ characters of the MRZ alphabet. */
export function isMrzLike(text: string): boolean {
  const compact = text.replace(/\s+/g, '');
  return /<{2}|<.*<.*</.test(compact) || /^[A-Z0-9<]{25,}$/.test(compact);
}

/**
 * Upper case without diacritics (NFD, combining marks dropped) and with the letters NFD does not split folded:
 * what labels and dates are compared on.
 *
 * @example
 * foldText('Prénoms'); // 'PRENOMS'
 */
export function foldText(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/ß/g, 'SS')
    .replace(/[Øø]/g, 'O')
    .replace(/[Łł]/g, 'L')
    .replace(/[Ææ]/g, 'AE')
    .toUpperCase();
}

/** The least edit distance between `pattern` and any substring of `text` (Sellers' algorithm). */
function substringDistance(text: string, pattern: string): number {
  let column = Array.from({ length: pattern.length + 1 }, (_, i) => i);
  let best = column[pattern.length] ?? 0;
  for (const c of text) {
    const next = [0];
    for (let i = 1; i <= pattern.length; i++) {
      const cost = pattern[i - 1] === c ? 0 : 1;
      next.push(Math.min((column[i] ?? 0) + 1, (next[i - 1] ?? 0) + 1, (column[i - 1] ?? 0) + cost));
    }
    column = next;
    best = Math.min(best, column[pattern.length] ?? 0);
  }
  return best;
}

/** Levenshtein distance, stopping early above `limit`. */
function editDistance(a: string, b: string, limit: number): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
      row.push(v);
      if (v < best) best = v;
    }
    if (best > limit) return best;
    previous = row;
  }
  return previous[b.length] ?? 0;
}
