/**
 * Renders identity-document pages with a known MRZ in the real OCR-B typeface (Debian `fonts-ocr-b`,
 * installed by scripts/setup-system.sh), and photographs them: placed on a background, turned, blurred,
 * scaled and saved as JPEG, for the document engine's tests and calibration.
 */
import { existsSync } from 'node:fs';
import sharp from 'sharp';

/** Where `fonts-ocr-b` puts the typeface (fontconfig finds it by the family name `OCR B`). */
export const OCR_B_FONT_FILE = '/usr/share/fonts/opentype/ocr-b/OCRB.otf';

/** Fails with the way out when the OCR-B font is missing, rather than rendering MRZs in a fallback font. */
export function requireOcrBFont(): void {
  if (!existsSync(OCR_B_FONT_FILE)) {
    throw new Error(
      `the OCR-B font (${OCR_B_FONT_FILE}) is missing: run "sudo bash scripts/setup-system.sh" ` +
        '(Debian package fonts-ocr-b) before the document tests',
    );
  }
}

/** Page sizes (mm) and MRZ placement of the ICAO layouts rendered here. */
const PAGES = {
  TD1: { width: 85.6, height: 54, bottom: 4.6 },
  TD2: { width: 105, height: 74, bottom: 8 },
  TD3: { width: 125, height: 88, bottom: 10 },
} as const;

export type RenderedLayout = keyof typeof PAGES;

export interface PageOptions {
  /** Pixels per millimetre of the page (8 gives a TD3 page 1000 px wide). */
  readonly scale?: number;
  /** Colour security print, photo and seal; false renders the page in greys only. */
  readonly colour?: boolean;
  /** Leaves the MRZ out (a page that has none). */
  readonly withoutMrz?: boolean;
  /**
   * Prints the visual zone's labels and values (sans-serif, DejaVu Sans) instead of the default bare labels;
   * `printedFields(truth)` gives values consistent with an MRZ truth.
   */
  readonly printed?: PrintedFields;
}

/** The visual inspection zone's printed values, each under its bilingual label (`Surname/Nom`...). */
export interface PrintedFields {
  readonly surname: string;
  readonly givenNames: string;
  /** As printed, e.g. `12 AUG/AOUT 1974` or `12.08.1974`. */
  readonly dateOfBirth: string;
  readonly dateOfExpiry: string;
  readonly documentNumber?: string;
  readonly nationality?: string;
  readonly sex?: string;
}

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
const MOIS = ['JAN', 'FEV', 'MARS', 'AVR', 'MAI', 'JUIN', 'JUIL', 'AOUT', 'SEPT', 'OCT', 'NOV', 'DEC'] as const;

/**
 * The printed values matching an MRZ truth (`mrz-composer.ts`): names as given, dates `12 AUG/AOUT 1974` (birth in
 * the 1900s when its two-digit year is above 30, expiry in the 2000s unless more than 20 years ahead) or, with
 * `numericDates`, `12.08.1974`.
 *
 * @example
 * printedFields(SPECIMEN_TRUTH).dateOfBirth; // '12 AUG/AOUT 1974'
 */
export function printedFields(
  truth: {
    readonly surname: string;
    readonly givenNames: string;
    readonly dateOfBirth: string;
    readonly dateOfExpiry: string;
    readonly documentNumber: string;
    readonly nationality: string;
    readonly sex: string;
  },
  options: { readonly numericDates?: boolean } = {},
): PrintedFields {
  const date = (yymmdd: string, century: number) => {
    const year = century + Number(yymmdd.slice(0, 2));
    const month = Number(yymmdd.slice(2, 4));
    const day = yymmdd.slice(4, 6);
    if (options.numericDates) return `${day}.${yymmdd.slice(2, 4)}.${year}`;
    return `${day} ${MONTHS[month - 1] ?? ''}/${MOIS[month - 1] ?? ''} ${year}`;
  };
  return {
    surname: truth.surname,
    givenNames: truth.givenNames,
    dateOfBirth: date(truth.dateOfBirth, Number(truth.dateOfBirth.slice(0, 2)) > 30 ? 1900 : 2000),
    // The MRZ parser's expiry rule: 20YY unless more than 20 years ahead.
    dateOfExpiry: date(
      truth.dateOfExpiry,
      2000 + Number(truth.dateOfExpiry.slice(0, 2)) > new Date().getUTCFullYear() + 20 ? 1900 : 2000,
    ),
    documentNumber: truth.documentNumber,
    nationality: truth.nationality,
    sex: truth.sex === '<' ? 'X' : truth.sex,
  };
}

/** Label, value pairs of the printed zone: in two columns (left, right) of rows, or one column. */
function printedRows(printed: PrintedFields, columns: 1 | 2): [string, string | undefined, string?, string?][] {
  const sex: [string, string | undefined] = ['Sex/Sexe', printed.sex];
  const nationality: [string, string | undefined] = ['Nationality/Nationalité', printed.nationality];
  const birth: [string, string | undefined] = ['Date of birth/Date de naissance', printed.dateOfBirth];
  const expiry: [string, string | undefined] = ['Date of expiry/Date d’expiration', printed.dateOfExpiry];
  const rows: [string, string | undefined, string?, string?][] = [
    ['Surname/Nom', printed.surname],
    ['Given names/Prénoms', printed.givenNames],
  ];
  if (columns === 2) rows.push([...birth, ...sex], [...expiry, ...nationality]);
  else rows.push(birth, sex, expiry, nationality);
  rows.push(['Document no./N° du document', printed.documentNumber]);
  return rows;
}

/**
 * The SVG text of the printed zone, from `top` mm down in rows `step` mm apart: labels small, values larger and
 * bold below them; two columns (the second at `right` mm) or, when `right` is null, one.
 */
function printedSvg(
  printed: PrintedFields,
  s: number,
  left: number,
  right: number | null,
  top: number,
  step: number,
): string {
  const labelSize = step * 0.28;
  const valueSize = step * 0.4;
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const cell = (x: number, y: number, label: string, value: string | undefined) =>
    value === undefined
      ? ''
      : `<text x="${x * s}" y="${y * s}" font-family="DejaVu Sans" font-size="${labelSize * s}" fill="#334">${esc(label)}</text>` +
        `<text x="${x * s}" y="${(y + step * 0.48) * s}" font-family="DejaVu Sans" font-weight="bold" font-size="${valueSize * s}" fill="#111">${esc(value)}</text>`;
  return printedRows(printed, right === null ? 1 : 2)
    .map(([label, value, label2, value2], i) => {
      const y = top + i * step;
      return (
        cell(left, y, label, value) + (label2 === undefined || right === null ? '' : cell(right, y, label2, value2))
      );
    })
    .join('');
}

const MRZ_PITCH_MM = 2.54;

/**
 * An SVG data page: a tinted guilloche-like background, a photo block, a few printed fields, and the MRZ
 * lines in OCR-B at ICAO's 2.54 mm pitch, centred across the page, the last line's centre `bottom` mm
 * above the bottom edge, lines 4.2 mm apart.
 */
export function pageSvg(layout: RenderedLayout, mrz: readonly string[], options: PageOptions = {}): string {
  const s = options.scale ?? 8;
  const page = PAGES[layout];
  const w = Math.round(page.width * s);
  const h = Math.round(page.height * s);
  const colour = options.colour ?? true;
  const tint = colour ? '#e8f0f8' : '#eeeeee';
  const wave = colour ? '#c9d8ec' : '#d4d4d4';
  const photo = colour ? '#b08870' : '#8c8c8c';
  const seal = colour ? '#c04040' : '#707070';
  const waves = Array.from({ length: 14 }, (_, i) => {
    const y = (i + 1) * (h / 15);
    return `<path d="M0 ${y} Q ${w / 4} ${y - 6 * s} ${w / 2} ${y} T ${w} ${y}" stroke="${wave}" stroke-width="${0.3 * s}" fill="none"/>`;
  }).join('');
  const lines = options.withoutMrz ? [] : mrz;
  const lineLength = (lines[0]?.length ?? 0) * MRZ_PITCH_MM * s;
  const left = (w - lineLength) / 2;
  const text = lines
    .map((line, i) => {
      const centre = h - (page.bottom + (lines.length - 1 - i) * 4.2) * s;
      return `<text x="${left}" y="${centre + 1.2 * s}" font-family="OCR B" font-size="${3.4 * s}" textLength="${lineLength}" lengthAdjust="spacing" fill="#111">${line.replace(/</g, '&lt;')}</text>`;
    })
    .join('');
  const fieldsTop = 10 * s;
  // The printed zone ends above the MRZ: 5 rows in two columns (TD3, TD2: 7 mm apart), 7 in one on a TD1 card.
  const mrzTop = page.height - page.bottom - (lines.length - 1) * 4.2 - 3;
  const twoColumns = page.width >= 100;
  const step = Math.min(7, (mrzTop - 8) / (twoColumns ? 5.3 : 7.3));
  const fields = options.printed
    ? printedSvg(options.printed, s, 36, twoColumns ? 36 + (page.width - 41) / 2 : null, 8 + step * 0.3, step)
    : ['SURNAME', 'GIVEN NAMES', 'NATIONALITY', 'DATE OF BIRTH']
        .map(
          (label, i) =>
            `<text x="${36 * s}" y="${fieldsTop + i * 7 * s}" font-family="DejaVu Sans" font-size="${2.2 * s}" fill="#334">${label}</text>`,
        )
        .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
<rect width="${w}" height="${h}" rx="${3 * s}" fill="${tint}"/>${waves}
<rect x="${5 * s}" y="${8 * s}" width="${26 * s}" height="${32 * s}" fill="${photo}"/>
<circle cx="${w - 15 * s}" cy="${20 * s}" r="${7 * s}" fill="none" stroke="${seal}" stroke-width="${0.6 * s}"/>
${fields}${text}</svg>`;
}

export interface PhotoOptions extends PageOptions {
  /** Canvas size the page is placed on. */
  readonly canvasWidth?: number;
  readonly canvasHeight?: number;
  /** Page position on the canvas (top-left, before turning); centred by default. */
  readonly left?: number;
  readonly top?: number;
  /** Clockwise turn of the whole photo, in degrees (any angle). */
  readonly rotate?: number;
  /** Gaussian blur sigma in pixels, 0 for none. */
  readonly blur?: number;
  /** JPEG quality. */
  readonly quality?: number;
}

/**
 * A JPEG "photo" of a rendered page on a dark desk.
 *
 * @example
 * const jpeg = await photographPage('TD3', mrzLines, { rotate: 180, blur: 1 });
 */
export async function photographPage(
  layout: RenderedLayout,
  mrz: readonly string[],
  options: PhotoOptions = {},
): Promise<Buffer> {
  requireOcrBFont();
  const pagePng = await sharp(Buffer.from(pageSvg(layout, mrz, options)))
    .png()
    .toBuffer();
  const { width = 0, height = 0 } = await sharp(pagePng).metadata();
  const canvasWidth = options.canvasWidth ?? Math.round(width * 1.3);
  const canvasHeight = options.canvasHeight ?? Math.round(height * 1.4);
  const left = options.left ?? Math.round((canvasWidth - width) / 2);
  const top = options.top ?? Math.round((canvasHeight - height) / 2);
  // Composite needs the page inside the canvas: cut what falls outside (a page partly out of frame).
  const visible = {
    left: Math.max(0, -left),
    top: Math.max(0, -top),
    width: Math.min(width, canvasWidth - left) - Math.max(0, -left),
    height: Math.min(height, canvasHeight - top) - Math.max(0, -top),
  };
  const cut = await sharp(pagePng).extract(visible).toBuffer();
  let photo = sharp({
    create: { width: canvasWidth, height: canvasHeight, channels: 3, background: { r: 48, g: 44, b: 40 } },
  })
    .composite([{ input: cut, left: Math.max(0, left), top: Math.max(0, top) }])
    .png();
  let buffer = await photo.toBuffer();
  if (options.rotate)
    buffer = await sharp(buffer)
      .rotate(options.rotate, { background: { r: 48, g: 44, b: 40 } })
      .png()
      .toBuffer();
  photo = sharp(buffer);
  if (options.blur) photo = photo.blur(options.blur);
  return photo.jpeg({ quality: options.quality ?? 90 }).toBuffer();
}
