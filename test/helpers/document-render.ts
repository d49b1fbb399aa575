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
  const fields = ['SURNAME', 'GIVEN NAMES', 'NATIONALITY', 'DATE OF BIRTH']
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
