/** Plane geometry of the document engine, in pixels of the decoded image (x right, y down). */

export interface Point {
  readonly x: number;
  readonly y: number;
}

/** Four corners in reading order: top-left, top-right, bottom-right, bottom-left (of the upright text). */
export type Quad = readonly [Point, Point, Point, Point];

/** A text line as a thick segment: its axis from the first to the last character and its height. */
export interface TextLine {
  readonly start: Point;
  readonly end: Point;
  /** Extent across the axis (the character height, closed by the morphology). */
  readonly thickness: number;
}

export const distance = (a: Point, b: Point): number => Math.hypot(b.x - a.x, b.y - a.y);

export const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

/** Direction of a segment in degrees, in (-180, 180], clockwise from +x (image coordinates). */
export const angleOf = (a: Point, b: Point): number => (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;

/** `p` rotated by `degrees` clockwise about `center`. */
export function rotatePoint(p: Point, center: Point, degrees: number): Point {
  const r = (degrees * Math.PI) / 180;
  const dx = p.x - center.x;
  const dy = p.y - center.y;
  return { x: center.x + dx * Math.cos(r) - dy * Math.sin(r), y: center.y + dx * Math.sin(r) + dy * Math.cos(r) };
}

/** Area of a polygon (shoelace), positive whatever the winding. */
export function polygonArea(points: readonly Point[]): number {
  let twice = 0;
  points.forEach((p, i) => {
    const q = points[(i + 1) % points.length] ?? p;
    twice += p.x * q.y - q.x * p.y;
  });
  return Math.abs(twice) / 2;
}
