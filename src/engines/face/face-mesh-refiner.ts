import type { CropTransform } from './face-alignment.js';
import { FaceMeshModel, MESH_INPUT_SIZE, MESH_POINTS } from './face-mesh-model.js';
import type { RgbImage } from './raster.js';

// The symmetry line the crop is turned upright by, as human's own mesh pass does: the upper lip's
// centre (13) to the point between the eyes (168).
const LIP = 13;
const BETWEEN_EYES = 168;

/** A 468-point mesh, each [x, y, z] in image pixels (z scaled like x and y). */
export type Mesh = ReadonlyArray<readonly [number, number, number]>;

export interface MeshRefinerOptions {
  /** Crop side as a multiple of the mesh's larger extent, when the detector's box was clipped by the image edge. */
  readonly extentScale: number;
  /** FaceMesh's own face flag under which the refined mesh is rejected (the crop held no face). */
  readonly minFaceFlag: number;
}

/**
 * 1.33: the median ratio of human's mesh-crop box to the mesh's extent on the dev set (5th–95th
 * percentile 1.26–1.42), so a clipped box is replaced by the size it would have had. The face flag
 * is ~1 on a face (dev set: 1,002 of 1,005 faces above 0.9, one under 0.5, which keeps human's mesh).
 */
export const DEFAULT_MESH_REFINER_OPTIONS: MeshRefinerOptions = { extentScale: 1.33, minFaceFlag: 0.5 };

/** Where a face is, as the detector found it. */
export interface MeshSeed {
  readonly mesh: Mesh;
  /** The detector's face box [x, y, width, height], clipped to the image. */
  readonly box: readonly [number, number, number, number];
}

/**
 * A second FaceMesh pass on a crop cut from the first mesh, at float precision. human returns
 * meshes truncated to whole pixels and only turns the crop upright beyond 0.2 rad of roll; this pass
 * always turns the face upright by its lip-to-eyes line, keeps sub-pixel coordinates, and cuts the
 * crop centred on the first mesh (what human's tracking pass would do on the next video frame).
 * Measured (reports/face-eval.md, docs/face-engine.md): recognition crops fitted to the refined mesh
 * took F500's FNMR at FMR 10^-3 from 5.4% to 4.9% on the dev set, and from 9.2% to 7.5% on the live
 * images of the PAD set; about 5 ms per face on onnxruntime.
 *
 * The model is human's FaceMesh, converted to ONNX in memory (graph-model-onnx.ts); one per worker.
 */
export class FaceMeshRefiner {
  private constructor(
    private readonly model: FaceMeshModel,
    private readonly options: MeshRefinerOptions,
  ) {}

  /**
   * Converts the model shipped in `@vladmandic/human` and opens a session (or shares `model`, already loaded).
   *
   * @example
   * const refiner = await FaceMeshRefiner.load();
   * const mesh = await refiner.refine(image, { mesh: face.mesh, box: face.box }) ?? face.mesh;
   */
  static async load(
    options: MeshRefinerOptions = DEFAULT_MESH_REFINER_OPTIONS,
    model?: FaceMeshModel,
  ): Promise<FaceMeshRefiner> {
    return new FaceMeshRefiner(model ?? (await FaceMeshModel.load()), options);
  }

  /**
   * The refined mesh of one face, or undefined when FaceMesh finds no face in the crop (its face
   * flag under `minFaceFlag`): the caller keeps the first mesh then.
   */
  async refine(image: RgbImage, seed: MeshSeed): Promise<Mesh | undefined> {
    const transform = meshCropTransform(seed, image, this.options.extentScale);
    const { coords, faceFlag } = await this.model.predict(image, transform);
    if (faceFlag < this.options.minFaceFlag) return undefined;
    return meshToImage(coords, transform);
  }
}

/**
 * The crop FaceMesh reads: centred on the mesh's extent, turned so the lip-to-eyes line points up,
 * with the detector's box side (or `extentScale` × the mesh extent where the image edge clipped the box).
 * Crop pixel (u, v) samples the image at a·(u + ½ − 96) − b·(v + ½ − 96) + centre (pixel-centre convention).
 */
function meshCropTransform(seed: MeshSeed, image: RgbImage, extentScale: number): CropTransform {
  let minX = Infinity;
  let maxX = -Infinity;
  let minY = Infinity;
  let maxY = -Infinity;
  for (const [x, y] of seed.mesh) {
    minX = Math.min(minX, x);
    maxX = Math.max(maxX, x);
    minY = Math.min(minY, y);
    maxY = Math.max(maxY, y);
  }
  const [bx, by, bw, bh] = seed.box;
  const clipped = bx <= 0 || by <= 0 || bx + bw >= image.width - 1 || by + bh >= image.height - 1;
  const side = clipped ? extentScale * Math.max(maxX - minX, maxY - minY) : bw;
  const lip = seed.mesh[LIP];
  const eyes = seed.mesh[BETWEEN_EYES];
  if (!lip || !eyes) throw new RangeError(`a face mesh has ${MESH_POINTS} points (got ${seed.mesh.length})`);
  // Image rotation that maps the crop's upward axis (0, -1) onto the lip-to-eyes direction.
  const angle = Math.atan2(eyes[1] - lip[1], eyes[0] - lip[0]) + Math.PI / 2;
  const scale = side / MESH_INPUT_SIZE;
  const a = scale * Math.cos(angle);
  const b = scale * Math.sin(angle);
  const half = MESH_INPUT_SIZE / 2 - 0.5;
  const cx = (minX + maxX) / 2;
  const cy = (minY + maxY) / 2;
  return { size: MESH_INPUT_SIZE, a, b, tx: cx - a * half + b * half, ty: cy - b * half - a * half };
}

/** FaceMesh's crop coordinates (continuous: pixel u spans u..u+1) back to image pixels; z scaled as x and y. */
function meshToImage(coords: Float32Array, t: CropTransform): Mesh {
  const scale = Math.hypot(t.a, t.b);
  const mesh: Array<readonly [number, number, number]> = [];
  for (let i = 0; i < MESH_POINTS; i++) {
    const u = (coords[i * 3] ?? 0) - 0.5;
    const v = (coords[i * 3 + 1] ?? 0) - 0.5;
    mesh.push([t.a * u - t.b * v + t.tx, t.b * u + t.a * v + t.ty, (coords[i * 3 + 2] ?? 0) * scale]);
  }
  return mesh;
}
