import { solveSymmetricPositiveDefinite } from '../../lib/linear-solve.js';

export type Landmark = readonly [number, number, ...number[]];

/**
 * How far a face's landmark motion between two frames is from the motion of a flat picture. Any
 * motion of a plane (a print or a screen turned, tilted or moved in front of the camera) maps its
 * points by one homography; a real head turning shows parallax — the nose moves against the cheeks —
 * which no homography reproduces. Returns the RMS distance between the landmarks of `to` and those of
 * `from` mapped by the best-fitting homography, in inter-eye distances.
 *
 * @example
 * planarResidual(first.mesh, turned.mesh, 62); // ~0.005 for a turned photo, several times more for a head
 */
export function planarResidual(from: readonly Landmark[], to: readonly Landmark[], interEye: number): number {
  const n = Math.min(from.length, to.length, 468);
  if (n < 8) throw new RangeError('at least 8 corresponding landmarks are needed');
  const a = normalised(from.slice(0, n), interEye);
  const b = normalised(to.slice(0, n), interEye);
  // Least squares on the linearised equations u·(h7 x + h8 y + 1) = h1 x + h2 y + h3 (and v likewise).
  const ata = new Float64Array(64);
  const atb = new Float64Array(8);
  // The row of 8 is a literal below and ata/atb hold 8 and 64 values: every read is in bounds.
  const add = (row: readonly number[], target: number) => {
    for (const [i, ri] of row.entries()) {
      atb[i] = (atb[i] ?? 0) + ri * target;
      for (const [j, rj] of row.entries()) ata[i * 8 + j] = (ata[i * 8 + j] ?? 0) + ri * rj;
    }
  };
  for (let i = 0; i < n; i++) {
    const x = a.x[i] ?? 0;
    const y = a.y[i] ?? 0;
    const u = b.x[i] ?? 0;
    const v = b.y[i] ?? 0;
    add([x, y, 1, 0, 0, 0, -x * u, -y * u], u);
    add([0, 0, 0, x, y, 1, -x * v, -y * v], v);
  }
  for (let i = 0; i < 8; i++) ata[i * 9] = (ata[i * 9] ?? 0) + 1e-9; // keeps a degenerate set solvable
  // The solve returns all 8 homography entries h1..h8 (h9 = 1).
  const [h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0, h8 = 0] = solveSymmetricPositiveDefinite(ata, atb, 8);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const x = a.x[i] ?? 0;
    const y = a.y[i] ?? 0;
    const w = h7 * x + h8 * y + 1;
    const du = (h1 * x + h2 * y + h3) / w - (b.x[i] ?? 0);
    const dv = (h4 * x + h5 * y + h6) / w - (b.y[i] ?? 0);
    sum += du * du + dv * dv;
  }
  return Math.sqrt(sum / n);
}

/** Centred on the landmarks' mean and scaled by the inter-eye distance (for a well-conditioned fit). */
function normalised(points: readonly Landmark[], interEye: number): { x: Float64Array; y: Float64Array } {
  const mx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const my = points.reduce((s, p) => s + p[1], 0) / points.length;
  const scale = 1 / Math.max(interEye, 1e-6);
  return {
    x: Float64Array.from(points, (p) => (p[0] - mx) * scale),
    y: Float64Array.from(points, (p) => (p[1] - my) * scale),
  };
}
