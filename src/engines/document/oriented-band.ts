import { angleOf, type Point, type Quad, type TextLine } from './document-geometry.js';
import type { MrzBand } from './mrz-band-locator.js';

/**
 * A band in reading order, regularised: every line spans the band's full extent along the text (a line
 * whose blob broke, or whose fillers faded, still covers its 30, 36 or 44 characters), all along the mean
 * direction of the lines, ordered from the first line read to the last.
 *
 * @example
 * const upright = orientBand(band, false); // as located, lines left to right
 * const turned = orientBand(band, true); // the same band read as if turned by 180°
 */
export function orientBand(band: MrzBand, reversed: boolean): MrzBand {
  const direction = meanDirection(band.lines);
  const u = reversed ? { x: -direction.x, y: -direction.y } : direction;
  const n = { x: -u.y, y: u.x };
  const along = (p: Point) => p.x * u.x + p.y * u.y;
  const across = (p: Point) => p.x * n.x + p.y * n.y;
  const ends = band.lines.flatMap((l) => [along(l.start), along(l.end)]);
  const from = Math.min(...ends);
  const to = Math.max(...ends);
  const at = (a: number, c: number): Point => ({ x: a * u.x + c * n.x, y: a * u.y + c * n.y });
  const lines: TextLine[] = band.lines
    .map((l) => ({ c: (across(l.start) + across(l.end)) / 2, thickness: l.thickness }))
    .sort((a, b) => a.c - b.c)
    .map(({ c, thickness }) => ({ start: at(from, c), end: at(to, c), thickness }));
  const first = lines[0];
  const last = lines[lines.length - 1];
  if (!first || !last) return band;
  const half = band.lineHeight / 2;
  const firstC = across(first.start);
  const lastC = across(last.start);
  const quad: Quad = [at(from, firstC - half), at(to, firstC - half), at(to, lastC + half), at(from, lastC + half)];
  return { ...band, lines, quad, angle: angleOf(quad[0], quad[1]) };
}

/** Unit vector of the lines' mean direction (each line weighted by its length). */
function meanDirection(lines: readonly TextLine[]): Point {
  let x = 0;
  let y = 0;
  const reference = lines[0];
  for (const l of lines) {
    let dx = l.end.x - l.start.x;
    let dy = l.end.y - l.start.y;
    // Lines are located without a reading direction; align each with the first.
    if (reference && dx * (reference.end.x - reference.start.x) + dy * (reference.end.y - reference.start.y) < 0) {
      dx = -dx;
      dy = -dy;
    }
    x += dx;
    y += dy;
  }
  const norm = Math.hypot(x, y) || 1;
  return { x: x / norm, y: y / norm };
}
