import { angleOf, distance, midpoint, type Point, type Quad, type TextLine } from './document-geometry.js';
import type { GrayImage } from './gray-image.js';
import { withMats } from './mat-scope.js';
import { cvFlag, type OpenCv } from './opencv-runtime.js';

/**
 * Where the machine-readable zone is: 2 or 3 parallel text lines of equal length. The locator cannot tell
 * a band from the same band turned by 180°: `lines` run left to right for a band more horizontal than
 * vertical and top to bottom otherwise; the reader tries the reverse direction when the read fails.
 */
export interface MrzBand {
  /** The lines in order across the band (top to bottom for a horizontal band), in image pixels. */
  readonly lines: readonly TextLine[];
  /** Corners of the band along its lines (first line's start, its end, last line's end, last line's start). */
  readonly quad: Quad;
  /** Direction of the lines in degrees, clockwise from +x: about 0 for an upright band, 90 for one on its side. */
  readonly angle: number;
  /** Mean line thickness: the character height as the morphology sees it, in image pixels. */
  readonly lineHeight: number;
  /** Larger is more band-like (line count, length regularity, spacing); ranks candidate bands. */
  readonly score: number;
}

/** Tunables of the locator; the defaults are the measured ones (docs/documents.md, "MRZ band location"). */
export interface BandLocatorOptions {
  /** Working sizes (longer side, pixels) the image is scaled to; kernels are fixed in working pixels. */
  readonly workingSides: readonly number[];
  /** Candidate bands returned, best first. */
  readonly maxBands: number;
}

export const DEFAULT_BAND_LOCATOR_OPTIONS: BandLocatorOptions = { workingSides: [1000, 560], maxBands: 3 };

/** A text-like blob as a thick segment, with its direction (degrees in (-90, 90]) and centre. */
interface Segment extends TextLine {
  readonly angle: number;
  readonly length: number;
  readonly center: Point;
}

// Kernels in working pixels, for characters about 6 to 22 px high (two working sizes cover 3 to 40).
const BLACKHAT_KERNEL = { width: 17, height: 9 };
const CLOSING_WIDTH = 17;
const MIN_THICKNESS = 3;
const MAX_THICKNESS = 40;
// A merged line must be this many times longer than it is thick: TD1's 30 characters at a pitch of about
// 0.8 of the character height give 24; partial or broken lines still reach 12.
const MIN_LINE_ASPECT = 12;

/** One look for bands: the image scaled to a working size, as it is or turned by 90°. */
export interface LocatorPass {
  readonly side: number;
  readonly turn: 0 | 90;
}

/**
 * The passes of the options in order of likelihood: each working size upright, then turned (a frame or a
 * photo shows its band across more often than along its long side), the first working size first.
 *
 * @example
 * locatorPasses(DEFAULT_BAND_LOCATOR_OPTIONS);
 * // [{ side: 1000, turn: 0 }, { side: 1000, turn: 90 }, { side: 560, turn: 0 }, { side: 560, turn: 90 }]
 */
export function locatorPasses(options: BandLocatorOptions = DEFAULT_BAND_LOCATOR_OPTIONS): LocatorPass[] {
  return options.workingSides.flatMap((side) => [
    { side, turn: 0 as const },
    { side, turn: 90 as const },
  ]);
}

/**
 * Finds candidate MRZ bands: blackhat (dark strokes on a light ground), Otsu threshold, horizontal closing
 * (characters merge into line blobs, lines stay apart), line segments from the blobs' principal axes,
 * collinear pieces joined, then groups of 2–3 parallel lines of equal length, aligned and evenly spaced.
 * Runs on the image and on it turned by 90°, at each working size; returns the best-scored bands.
 *
 * @example
 * const cv = await loadOpenCv();
 * const [band] = locateMrzBands(cv, grayOf(decoded));
 * band?.lines.length; // 2 (TD2, TD3, visas) or 3 (TD1)
 */
export function locateMrzBands(
  cv: OpenCv,
  image: GrayImage,
  options: BandLocatorOptions = DEFAULT_BAND_LOCATOR_OPTIONS,
): MrzBand[] {
  const bands = locatorPasses(options).flatMap((pass) => locateMrzBandsInPass(cv, image, pass));
  return rankBands(bands, options.maxBands);
}

/**
 * The bands one pass finds, unranked and undeduplicated (rankBands does both over several passes): lets a
 * reader stop after the first pass whose band reads.
 *
 * @example
 * const bands = rankBands(locateMrzBandsInPass(cv, gray, { side: 1000, turn: 0 }), 3);
 */
export function locateMrzBandsInPass(cv: OpenCv, image: GrayImage, pass: LocatorPass): MrzBand[] {
  return withMats((keep) => {
    const source = keep(new cv.Mat(image.height, image.width, cv.CV_8UC1));
    source.data.set(image.data);
    const scale = pass.side / Math.max(image.width, image.height);
    const scaled = keep(new cv.Mat());
    cv.resize(
      source,
      scaled,
      new cv.Size(Math.round(image.width * scale), Math.round(image.height * scale)),
      0,
      0,
      scale < 1 ? cvFlag(cv.INTER_AREA) : cvFlag(cv.INTER_LINEAR),
    );
    let work = scaled;
    if (pass.turn === 90) {
      work = keep(new cv.Mat());
      cv.rotate(scaled, work, cvFlag(cv.ROTATE_90_CLOCKWISE));
    }
    return groupBands(lineSegments(cv, work)).map((band) => toImageBand(band, scale, pass.turn, scaled.rows));
  });
}

/**
 * Bands of one or more passes best first, those covering the same lines as a better one dropped.
 *
 * @example
 * const [best] = rankBands([...bandsAt1000, ...bandsAt560], 3);
 */
export function rankBands(bands: readonly MrzBand[], maxBands: number): MrzBand[] {
  return dedupe([...bands].sort((a, b) => b.score - a.score)).slice(0, maxBands);
}

/** Long thin dark-text blobs of a working image, as segments, collinear pieces joined. */
function lineSegments(cv: OpenCv, gray: import('@techstark/opencv-js').Mat): Segment[] {
  return withMats((keep) => {
    const blackhat = keep(new cv.Mat());
    const kernel = keep(
      cv.getStructuringElement(cvFlag(cv.MORPH_RECT), new cv.Size(BLACKHAT_KERNEL.width, BLACKHAT_KERNEL.height)),
    );
    cv.morphologyEx(gray, blackhat, cv.MORPH_BLACKHAT, kernel);
    const binary = keep(new cv.Mat());
    cv.threshold(blackhat, binary, 0, 255, cvFlag(cv.THRESH_BINARY) | cvFlag(cv.THRESH_OTSU));
    const closing = keep(cv.getStructuringElement(cvFlag(cv.MORPH_RECT), new cv.Size(CLOSING_WIDTH, 1)));
    cv.morphologyEx(binary, binary, cv.MORPH_CLOSE, closing);
    // Removes one-pixel threads (guilloches, card edges) that would bridge two lines.
    const opening = keep(cv.getStructuringElement(cvFlag(cv.MORPH_RECT), new cv.Size(3, 3)));
    cv.morphologyEx(binary, binary, cv.MORPH_OPEN, opening);
    const contours = keep(new cv.MatVector());
    const hierarchy = keep(new cv.Mat());
    cv.findContours(binary, contours, hierarchy, cvFlag(cv.RETR_EXTERNAL), cvFlag(cv.CHAIN_APPROX_NONE));
    const pieces: Segment[] = [];
    for (let i = 0; i < contours.size(); i++) {
      const contour = contours.get(i);
      const segment = principalSegment(contour.data32S);
      contour.delete();
      if (
        segment &&
        segment.thickness >= MIN_THICKNESS &&
        segment.thickness <= MAX_THICKNESS &&
        segment.length >= 3 * segment.thickness
      )
        pieces.push(segment);
    }
    return joinCollinear(pieces).filter((s) => s.length >= MIN_LINE_ASPECT * s.thickness);
  });
}

/** The principal axis of a blob's outline points (x, y pairs) and its extents along and across it. */
function principalSegment(xy: Int32Array): Segment | undefined {
  const n = xy.length / 2;
  if (n < 8) return undefined;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += xy[2 * i] ?? 0;
    my += xy[2 * i + 1] ?? 0;
  }
  mx /= n;
  my /= n;
  let sxx = 0;
  let syy = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (xy[2 * i] ?? 0) - mx;
    const dy = (xy[2 * i + 1] ?? 0) - my;
    sxx += dx * dx;
    syy += dy * dy;
    sxy += dx * dy;
  }
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const ux = Math.cos(theta);
  const uy = Math.sin(theta);
  let minU = Infinity;
  let maxU = -Infinity;
  const vs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const dx = (xy[2 * i] ?? 0) - mx;
    const dy = (xy[2 * i + 1] ?? 0) - my;
    const u = dx * ux + dy * uy;
    minU = Math.min(minU, u);
    maxU = Math.max(maxU, u);
    vs[i] = -dx * uy + dy * ux;
  }
  // Across the axis, the outline's 5th and 95th percentiles: a blob touching the line at one place
  // (a stamp, a card edge) does not make the whole line thicker.
  vs.sort();
  const minV = vs[Math.floor(0.05 * (n - 1))] ?? 0;
  const maxV = vs[Math.ceil(0.95 * (n - 1))] ?? 0;
  const offsetV = (minV + maxV) / 2;
  const cx = mx - offsetV * uy;
  const cy = my + offsetV * ux;
  return segmentOf({ x: cx + minU * ux, y: cy + minU * uy }, { x: cx + maxU * ux, y: cy + maxU * uy }, maxV - minV + 1);
}

function segmentOf(a: Point, b: Point, thickness: number): Segment {
  // Segments run left to right (or top to bottom when vertical), so the angle is in (-90, 90].
  const [start, end] = a.x < b.x || (a.x === b.x && a.y < b.y) ? [a, b] : [b, a];
  let angle = angleOf(start, end);
  if (angle <= -90) angle += 180;
  return {
    start,
    end,
    thickness,
    angle,
    length: distance(start, end),
    center: { x: (start.x + end.x) / 2, y: (start.y + end.y) / 2 },
  };
}

/** Position of `p` along (u) and across (v) a segment's axis, from its centre. */
function axisCoordinates(s: Segment, p: Point): { u: number; v: number } {
  const r = (s.angle * Math.PI) / 180;
  const dx = p.x - s.center.x;
  const dy = p.y - s.center.y;
  return { u: dx * Math.cos(r) + dy * Math.sin(r), v: -dx * Math.sin(r) + dy * Math.cos(r) };
}

const angleGap = (a: number, b: number) => {
  const d = Math.abs(a - b) % 180;
  return Math.min(d, 180 - d);
};

/** Joins pieces of one line split by a gap (glare, a faint filler run): same axis, gap under 2.5 heights. */
function joinCollinear(pieces: Segment[]): Segment[] {
  const segments = [...pieces].sort((a, b) => b.length - a.length);
  let joined = true;
  while (joined) {
    joined = false;
    for (let i = 0; i < segments.length && !joined; i++) {
      for (let j = i + 1; j < segments.length && !joined; j++) {
        const a = segments[i];
        const b = segments[j];
        if (!a || !b || angleGap(a.angle, b.angle) > 6) continue;
        const height = Math.max(a.thickness, b.thickness);
        const bs = axisCoordinates(a, b.start);
        const be = axisCoordinates(a, b.end);
        if (Math.abs(bs.v) > 0.5 * height || Math.abs(be.v) > 0.5 * height) continue;
        const gap = Math.max(Math.min(bs.u, be.u) - a.length / 2, -a.length / 2 - Math.max(bs.u, be.u));
        if (gap > 2.5 * height) continue;
        const us = [-a.length / 2, a.length / 2, bs.u, be.u];
        const r = (a.angle * Math.PI) / 180;
        const at = (u: number): Point => ({ x: a.center.x + u * Math.cos(r), y: a.center.y + u * Math.sin(r) });
        const merged = segmentOf(at(Math.min(...us)), at(Math.max(...us)), height);
        segments.splice(j, 1);
        segments.splice(i, 1, merged);
        joined = true;
      }
    }
  }
  return segments;
}

/** Groups of 2–3 parallel, equally long, aligned and evenly spaced segments, scored. */
function groupBands(segments: Segment[]): MrzBand[] {
  const bands: MrzBand[] = [];
  // Ordered across the lines so a group is found once, from its first line.
  const across = (s: Segment) => {
    const r = (s.angle * Math.PI) / 180;
    return -s.center.x * Math.sin(r) + s.center.y * Math.cos(r);
  };
  const sorted = [...segments].sort((a, b) => across(a) - across(b));
  const fits = (a: Segment, b: Segment): number | undefined => {
    if (angleGap(a.angle, b.angle) > 3) return undefined;
    if (b.length < 0.85 * a.length || b.length > a.length / 0.85) return undefined;
    if (b.thickness < 0.6 * a.thickness || b.thickness > a.thickness / 0.6) return undefined;
    const height = (a.thickness + b.thickness) / 2;
    const { u, v } = axisCoordinates(a, b.center);
    if (v < 1.15 * height || v > 3.2 * height) return undefined;
    if (Math.abs(u) > 0.08 * a.length) return undefined;
    return v;
  };
  sorted.forEach((first, i) => {
    for (let j = i + 1; j < sorted.length; j++) {
      const second = sorted[j];
      if (!second) continue;
      const spacing = fits(first, second);
      if (spacing === undefined) continue;
      const group = [first, second];
      for (let k = j + 1; k < sorted.length; k++) {
        const third = sorted[k];
        const next = third ? fits(second, third) : undefined;
        if (third && next !== undefined && Math.abs(next - spacing) < 0.25 * spacing) {
          group.push(third);
          break;
        }
      }
      bands.push(bandOf(group));
    }
  });
  return bands;
}

function bandOf(group: Segment[]): MrzBand {
  const first = group[0];
  const last = group[group.length - 1];
  if (!first || !last) throw new RangeError('a band has at least one line');
  const lengths = group.map((s) => s.length);
  const meanLength = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  const lineHeight = group.reduce((a, s) => a + s.thickness, 0) / group.length;
  const regularity = Math.min(...lengths) / Math.max(...lengths);
  const aspect = Math.min(meanLength / lineHeight / 30, 1);
  const score = group.length * regularity * aspect * (group.length === 3 ? 1.1 : 1);
  const half = (s: Segment) => s.thickness / 2;
  const r = (first.angle * Math.PI) / 180;
  const normal = { x: -Math.sin(r), y: Math.cos(r) };
  const shift = (p: Point, d: number): Point => ({ x: p.x + normal.x * d, y: p.y + normal.y * d });
  return {
    lines: group.map(({ start, end, thickness }) => ({ start, end, thickness })),
    quad: [
      shift(first.start, -half(first)),
      shift(first.end, -half(first)),
      shift(last.end, half(last)),
      shift(last.start, half(last)),
    ],
    angle: first.angle,
    lineHeight,
    score,
  };
}

/** Maps a band found on the scaled (and possibly turned) working image back to image pixels. */
function toImageBand(band: MrzBand, scale: number, turn: 0 | 90, scaledRows: number): MrzBand {
  // ROTATE_90_CLOCKWISE maps (x, y) of the scaled image to (rows - 1 - y, x); this undoes it.
  const back = (p: Point): Point => {
    const q = turn === 90 ? { x: p.y, y: scaledRows - 1 - p.x } : p;
    return { x: q.x / scale, y: q.y / scale };
  };
  const lines = band.lines.map((l) => ({ start: back(l.start), end: back(l.end), thickness: l.thickness / scale }));
  const [a, b, c, d] = band.quad;
  const quad: Quad = [back(a), back(b), back(c), back(d)];
  const angle = angleOf(quad[0], quad[1]);
  return { lines: orderAcross(lines, quad), quad, angle, lineHeight: band.lineHeight / scale, score: band.score };
}

/** Keeps lines in order from the quad's first edge to its last. */
function orderAcross(lines: TextLine[], quad: Quad): TextLine[] {
  const top = quad[0];
  const r = (angleOf(quad[0], quad[1]) * Math.PI) / 180;
  const across = (l: TextLine) => -(l.start.x - top.x) * Math.sin(r) + (l.start.y - top.y) * Math.cos(r);
  return [...lines].sort((a, b) => across(a) - across(b));
}

/** Drops bands that cover the same lines as a better one (found at both working sizes). */
function dedupe(bands: MrzBand[]): MrzBand[] {
  const kept: MrzBand[] = [];
  for (const band of bands) {
    const c = midpoint(band.quad[0], band.quad[2]);
    if (!kept.some((k) => distance(c, midpoint(k.quad[0], k.quad[2])) < k.lineHeight * 2)) kept.push(band);
  }
  return kept;
}
