import { distance, type Point, type Quad } from './document-geometry.js';
import type { MrzBand } from './mrz-band-locator.js';

/** The ISO/IEC 7810 size classes of the documents the MRZ layouts are printed on. */
export type DocumentSize = 'ID-1' | 'ID-2' | 'ID-3';

/** The MRZ layouts the page model knows (the parser's formats). */
export type PageLayout = 'TD1' | 'TD2' | 'TD3' | 'MRV-A' | 'MRV-B' | 'FRENCH_ID';

/**
 * Where the MRZ sits on its page, in units of the MRZ line length (first character's left edge to the
 * last character's right edge, as the locator measures it), so that the band's own size scales the page.
 */
export interface LayoutGeometry {
  readonly size: DocumentSize;
  /** Page width and height. */
  readonly width: number;
  readonly height: number;
  /** From the page's left edge to the first character. */
  readonly left: number;
  /** From the centre line of the last MRZ line to the page's bottom edge. */
  readonly bottom: number;
}

/**
 * Measured on the ICAO specimen pages of the dev set (docs/documents.md, "Page geometry"): ICAO fixes the
 * page sizes (TD1 and the French card 85.6 × 54 mm, TD2 and MRV-B 105 × 74, TD3 125 × 88, MRV-A 120 × 80)
 * and the character pitch (2.54 mm), but the specimens' MRZs run 0–7 % shorter than 2.54 mm × characters
 * and their margins vary by a few millimetres, so the page is ±3 % of its size around this estimate.
 * The French card's values follow from its 36 characters across an ID-1 card and were not measured.
 */
const LAYOUTS: Readonly<Record<PageLayout, LayoutGeometry>> = {
  TD1: { size: 'ID-1', width: 1.197, height: 0.755, left: 0.048, bottom: 0.064 },
  TD2: { size: 'ID-2', width: 1.235, height: 0.871, left: 0.098, bottom: 0.094 },
  TD3: { size: 'ID-3', width: 1.121, height: 0.789, left: 0.05, bottom: 0.09 },
  'MRV-A': { size: 'ID-3', width: 1.133, height: 0.755, left: 0.067, bottom: 0.09 },
  'MRV-B': { size: 'ID-2', width: 1.235, height: 0.871, left: 0.098, bottom: 0.094 },
  FRENCH_ID: { size: 'ID-1', width: 1.07, height: 0.675, left: 0.035, bottom: 0.06 },
};

/** The size class of a layout. */
export const documentSizeOf = (layout: PageLayout): DocumentSize => LAYOUTS[layout].size;

/**
 * Where a layout's MRZ sits on its page, in MRZ line lengths (what a page contour is checked against).
 *
 * @example
 * layoutGeometry('TD3').width / layoutGeometry('TD3').height; // 1.42, the ID-3 page's aspect ratio
 */
export const layoutGeometry = (layout: PageLayout): LayoutGeometry => LAYOUTS[layout];

/**
 * The layout a band's shape suggests before anything is read: 3 lines are TD1, 2 lines TD3 unless the
 * lines are short for their height (TD2's 36 characters).
 *
 * @example
 * layoutFromShape(band); // 'TD3'
 */
export function layoutFromShape(band: MrzBand): PageLayout {
  if (band.lines.length >= 3) return 'TD1';
  const first = band.lines[0];
  const aspect = first ? distance(first.start, first.end) / band.lineHeight : 0;
  // Characters are about 0.85 of their height apart: 44 characters give ~37, 36 give ~30.
  return aspect < 34 ? 'TD2' : 'TD3';
}

/**
 * The page around an upright-read MRZ band, in image pixels: the band's first line gives the direction
 * and the scale, the last line the position of the bottom edge. The band must be oriented
 * (oriented-band.ts).
 *
 * @example
 * const page = pageQuadFromBand(band, 'TD3'); // [top-left, top-right, bottom-right, bottom-left]
 */
export function pageQuadFromBand(band: MrzBand, layout: PageLayout): Quad {
  const first = band.lines[0];
  const last = band.lines[band.lines.length - 1];
  if (!first || !last) throw new RangeError('a band has lines');
  const geometry = LAYOUTS[layout];
  const length = distance(first.start, first.end);
  const u = {
    x: (first.end.x - first.start.x) / distance(first.start, first.end),
    y: (first.end.y - first.start.y) / distance(first.start, first.end),
  };
  const n = { x: -u.y, y: u.x };
  // The last line's centre line, at its first character (an oriented band's lines share their extent).
  const origin = last.start;
  const at = (along: number, down: number): Point => ({
    x: origin.x + along * length * u.x + down * length * n.x,
    y: origin.y + along * length * u.y + down * length * n.y,
  });
  const left = -geometry.left;
  const right = geometry.width - geometry.left;
  const bottom = geometry.bottom;
  const top = bottom - geometry.height;
  return [at(left, top), at(right, top), at(right, bottom), at(left, bottom)];
}
