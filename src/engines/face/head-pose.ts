/** Head pose in radians (yaw > 0: face turned to the image's left; pitch > 0: looking down). */
export interface HeadPose {
  readonly yaw: number;
  readonly pitch: number;
  readonly roll: number;
}

type Vector = readonly [number, number, number];

// Mesh points spanning the face: forehead top (10) to chin (152), right (234) to left (454) cheek edge.
const TOP = 10;
const CHIN = 152;
const RIGHT_CHEEK = 234;
const LEFT_CHEEK = 454;

/**
 * The head pose human reports for a 468-point mesh (`face/angles.ts`): a frame from the face's
 * vertical (forehead to chin) and horizontal (cheek to cheek) axes, x and y scaled by the face box's
 * larger side / 1.5 and z by the mesh model's input size (as human's normalised mesh does), read as
 * YZX Euler angles with their signs flipped.
 *
 * @example
 * const pose = meshHeadPose(mesh, 180, 192); // { yaw: 0.05, pitch: -0.1, roll: 0.02 }
 */
export function meshHeadPose(
  mesh: ReadonlyArray<readonly [number, number, number]>,
  boxSide: number,
  zScale: number,
): HeadPose {
  const size = boxSide / 1.5;
  const point = (i: number): Vector => {
    const p = mesh[i];
    if (!p) throw new RangeError(`a face mesh has 468 points (got ${mesh.length})`);
    return [p[0] / size, p[1] / size, p[2] / zScale];
  };
  const yAxis = unit(minus(point(CHIN), point(TOP)));
  const xCheek = unit(minus(point(LEFT_CHEEK), point(RIGHT_CHEEK)));
  const zAxis = unit(cross(xCheek, yAxis));
  const xAxis = cross(yAxis, zAxis);
  const [r00, , , r10, r11, r12, r20, r21, r22] = [...xAxis, ...yAxis, ...zAxis];
  let pitch: number;
  let yaw: number;
  let roll: number;
  if (r10 >= 1) {
    roll = Math.PI / 2;
    yaw = Math.atan2(r21, r22);
    pitch = 0;
  } else if (r10 <= -1) {
    roll = -Math.PI / 2;
    yaw = -Math.atan2(r21, r22);
    pitch = 0;
  } else {
    roll = Math.atan2(r10, Math.sqrt(r00 * r00 + r20 * r20));
    yaw = Math.atan2(-r20, r00);
    pitch = Math.atan2(-r12, r11);
  }
  const finite = (v: number) => (Number.isNaN(v) ? 0 : -v);
  return { pitch: finite(pitch), yaw: finite(yaw), roll: finite(roll) };
}

function minus(a: Vector, b: Vector): Vector {
  return [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
}

function cross(a: Vector, b: Vector): Vector {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
}

function unit(v: Vector): Vector {
  const length = Math.hypot(v[0], v[1], v[2]);
  return [v[0] / length, v[1] / length, v[2] / length];
}
