/**
 * Non-rigid facial motion. A living face moves beyond what a rigid picture can: eyelids close, the
 * mouth opens, the jaw drops. A still picture — however it is shifted, scaled, rotated or turned in
 * front of the camera — keeps these proportions, up to the face mesh's own jitter. Each measure below
 * is a ratio of distances within one face (unchanged by shifts, rotations and scale) read from the
 * detector's mesh in every frame; the sequence's deformation is the largest change of any measure
 * across the frames, in units of that measure's jitter on stills.
 */

type MeshPoint = readonly [number, number, ...number[]];

/** A ratio of mesh distances, and how much it moves on frames of one still picture. */
interface ShapeMeasure {
  readonly name: string;
  readonly measure: (mesh: readonly MeshPoint[]) => number;
  /** Change across frames of one still (shifted, scaled, re-encoded, noised) the measure stays under. */
  readonly stillJitter: number;
}

// FaceMesh indices: lid pairs (upper, lower) and eye corners; inner lip middles and mouth corners;
// nose tip and chin.
const RIGHT_EYE = {
  lids: [
    [159, 145],
    [158, 153],
    [160, 144],
  ],
  corners: [33, 133],
} as const;
const LEFT_EYE = {
  lids: [
    [386, 374],
    [385, 380],
    [387, 373],
  ],
  corners: [362, 263],
} as const;

/**
 * Jitter of each measure on stills: twice a first guess (0.06, 0.06, 0.04, 0.03), which the attack
 * suite's stills reached up to 1.97 times (npm run eval -- liveness-attacks, reports/liveness-attacks.md).
 */
export const SHAPE_MEASURES: readonly ShapeMeasure[] = [
  { name: 'right eye opening', measure: (m) => eyeOpening(m, RIGHT_EYE), stillJitter: 0.12 },
  { name: 'left eye opening', measure: (m) => eyeOpening(m, LEFT_EYE), stillJitter: 0.12 },
  { name: 'mouth opening', measure: (m) => ratio(m, [13, 14], [61, 291]), stillJitter: 0.08 },
  { name: 'jaw drop', measure: (m) => ratio(m, [1, 152], [33, 263]), stillJitter: 0.06 },
];

/**
 * The largest change of a shape measure across the meshes, as a multiple of its jitter on stills
 * (above 1: the face deformed as no picture does). Undefined for fewer than two meshes of 468 points.
 *
 * @example
 * facialDeformation(frames.map((f) => f.mesh)); // ~0.3 for a still shifted around, 3-5 with a blink
 */
export function facialDeformation(meshes: ReadonlyArray<readonly MeshPoint[]>): number | undefined {
  const usable = meshes.filter((m) => m.length >= 468);
  if (usable.length < 2) return undefined;
  let largest = 0;
  for (const shape of SHAPE_MEASURES) {
    const values = usable.map(shape.measure).filter(Number.isFinite);
    if (values.length < 2) continue;
    largest = Math.max(largest, (Math.max(...values) - Math.min(...values)) / shape.stillJitter);
  }
  return largest;
}

/**
 * The signal: PASS when the face deformed beyond a still's jitter, FAIL when it did not, ERROR
 * without two meshes. REPORT_ONLY by default: a live user need not blink or speak within three frames.
 *
 * @example
 * facialDeformationStatus(facialDeformation(meshes)); // 'FAIL' for a replayed still
 */
export function facialDeformationStatus(deformation: number | undefined): 'PASS' | 'FAIL' | 'ERROR' {
  if (deformation === undefined) return 'ERROR';
  return deformation >= 1 ? 'PASS' : 'FAIL';
}

/** Mean lid gap over the eye's width, measured across the corner line. */
function eyeOpening(
  mesh: readonly MeshPoint[],
  eye: { readonly lids: ReadonlyArray<readonly [number, number]>; readonly corners: readonly [number, number] },
): number {
  const a = mesh[eye.corners[0]];
  const b = mesh[eye.corners[1]];
  if (a === undefined || b === undefined) return Number.NaN;
  const width = Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (!(width > 0)) return Number.NaN;
  // Unit normal of the corner line: lid gaps are measured along it.
  const nx = -(b[1] - a[1]) / width;
  const ny = (b[0] - a[0]) / width;
  let gap = 0;
  for (const [upper, lower] of eye.lids) {
    const u = mesh[upper];
    const l = mesh[lower];
    if (u === undefined || l === undefined) return Number.NaN;
    gap += Math.abs((l[0] - u[0]) * nx + (l[1] - u[1]) * ny);
  }
  return gap / eye.lids.length / width;
}

/** Distance between two points over the distance between two others. */
function ratio(
  mesh: readonly MeshPoint[],
  [a, b]: readonly [number, number],
  [c, d]: readonly [number, number],
): number {
  const pa = mesh[a];
  const pb = mesh[b];
  const pc = mesh[c];
  const pd = mesh[d];
  if (pa === undefined || pb === undefined || pc === undefined || pd === undefined) return Number.NaN;
  const base = Math.hypot(pd[0] - pc[0], pd[1] - pc[1]);
  return base > 0 ? Math.hypot(pb[0] - pa[0], pb[1] - pa[1]) / base : Number.NaN;
}
