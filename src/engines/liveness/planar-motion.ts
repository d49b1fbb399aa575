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
  const add = (row: readonly number[], target: number) => {
    for (let i = 0; i < 8; i++) {
      atb[i] = atb[i]! + row[i]! * target;
      for (let j = 0; j < 8; j++) ata[i * 8 + j] = ata[i * 8 + j]! + row[i]! * row[j]!;
    }
  };
  for (let i = 0; i < n; i++) {
    const [x, y] = a[i]!;
    const [u, v] = b[i]!;
    add([x, y, 1, 0, 0, 0, -x * u, -y * u], u);
    add([0, 0, 0, x, y, 1, -x * v, -y * v], v);
  }
  for (let i = 0; i < 8; i++) ata[i * 9] = ata[i * 9]! + 1e-9; // keeps a degenerate set solvable
  const h = solveSymmetricPositiveDefinite(ata, atb, 8);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const [x, y] = a[i]!;
    const w = h[6]! * x + h[7]! * y + 1;
    const du = (h[0]! * x + h[1]! * y + h[2]!) / w - b[i]![0];
    const dv = (h[3]! * x + h[4]! * y + h[5]!) / w - b[i]![1];
    sum += du * du + dv * dv;
  }
  return Math.sqrt(sum / n);
}

/** Centred on the landmarks' mean and scaled by the inter-eye distance (for a well-conditioned fit). */
function normalised(points: readonly Landmark[], interEye: number): Array<[number, number]> {
  const mx = points.reduce((s, p) => s + p[0], 0) / points.length;
  const my = points.reduce((s, p) => s + p[1], 0) / points.length;
  const scale = 1 / Math.max(interEye, 1e-6);
  return points.map((p) => [(p[0] - mx) * scale, (p[1] - my) * scale]);
}
