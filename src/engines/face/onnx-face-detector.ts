import { BlazeFaceDetector, DEFAULT_BLAZEFACE_OPTIONS, type BlazeFaceBox } from './blazeface-detector.js';
import type { DetectedFace, FaceDetectorOptions } from './face-detector.js';
import { FaceMeshModel, MESH_INPUT_SIZE, MESH_POINTS } from './face-mesh-model.js';
import { meshHeadPose } from './head-pose.js';
import type { RgbImage } from './raster.js';
import { DEFAULT_ULTRALIGHT_OPTIONS, UltraLightDetector, ultraLightMeshCrop } from './ultralight-detector.js';

/** The square crop the mesh pass reads, in whole image pixels, and the roll it is turned by. */
type MeshCropBox = Pick<BlazeFaceBox, 'start' | 'end' | 'roll'>;

/** Roll (radians) beyond which the mesh crop is turned upright, as human does; below it the crop is cut level. */
const LEVEL_ABOVE = 0.2;

/** Raised for an option the ONNX detector does not provide. */
export class OnnxDetectorOptionError extends Error {
  override name = 'OnnxDetectorOptionError';
}

/**
 * The same faces as face-detector.ts (human's BlazeFace then its 468-point FaceMesh, the same crop,
 * roll, whole-pixel mesh, box, score and pose arithmetic), on onnxruntime instead of TF.js: BlazeFace
 * decoded in blazeface-detector.ts, FaceMesh in face-mesh-model.ts. No iris points and no `faceres`
 * description (they stay on the TF.js detector). Beyond TF.js's: where BlazeFace yields no face, a second
 * detector's (ultralight-detector.ts). One per worker.
 */
export class OnnxFaceDetector {
  private constructor(
    private readonly detector: BlazeFaceDetector,
    readonly mesh: FaceMeshModel,
    private readonly options: FaceDetectorOptions,
    private readonly fallback: UltraLightDetector,
  ) {}

  /**
   * Converts BlazeFace and FaceMesh and opens their sessions, and the Ultra-Light detector's; `mesh` shares an
   * already loaded FaceMesh.
   *
   * @example
   * const detector = await OnnxFaceDetector.load({ maxFaces: 5, minConfidence: 0.3, iris: false, description: false });
   * const faces = await detector.detect(await decodeImage(bytes));
   * @throws OnnxDetectorOptionError when `iris` or `description` is asked for
   */
  static async load(options: FaceDetectorOptions, mesh?: FaceMeshModel): Promise<OnnxFaceDetector> {
    if (options.iris || options.description) {
      throw new OnnxDetectorOptionError('the ONNX face detector has no iris or description model; use the TF.js one');
    }
    const [detector, meshModel, fallback] = await Promise.all([
      BlazeFaceDetector.load({
        ...DEFAULT_BLAZEFACE_OPTIONS,
        maxFaces: options.maxFaces,
        minConfidence: options.minConfidence,
      }),
      mesh ?? FaceMeshModel.load(),
      UltraLightDetector.load({ ...DEFAULT_ULTRALIGHT_OPTIONS, maxFaces: options.maxFaces }),
    ]);
    return new OnnxFaceDetector(detector, meshModel, options, fallback);
  }

  /**
   * The faces in an image, BlazeFace's best score first; each with its mesh (face flag over `minConfidence`).
   * When BlazeFace yields none (it missed the face, or its roll turned the mesh crop off the face, as on a
   * head turned towards profile), the Ultra-Light detector's faces, each meshed from a level crop
   * (ultralight-detector.ts; docs/face-engine.md).
   */
  async detect(image: RgbImage): Promise<DetectedFace[]> {
    const faces = await this.meshFaces(image, await this.detector.detect(image));
    if (faces.length > 0) return faces;
    return this.meshFaces(image, (await this.fallback.detect(image)).map(ultraLightMeshCrop));
  }

  private async meshFaces(image: RgbImage, boxes: readonly MeshCropBox[]): Promise<DetectedFace[]> {
    const faces: DetectedFace[] = [];
    for (const box of boxes) {
      const face = await this.meshFace(image, box);
      if (face) faces.push(face);
    }
    return faces.slice(0, this.options.maxFaces);
  }

  private async meshFace(image: RgbImage, box: MeshCropBox): Promise<DetectedFace | undefined> {
    const { width, height } = image;
    const [sx, sy] = box.start;
    const [ex, ey] = box.end;
    const boxWidth = Math.abs(ex - sx);
    const boxHeight = Math.abs(ey - sy);
    const cx = sx + (ex - sx) / 2;
    const cy = sy + (ey - sy) / 2;
    const angle = Math.abs(box.roll) > LEVEL_ABOVE ? box.roll : 0;
    const cos = Math.cos(angle);
    const sin = Math.sin(angle);
    const { coords, faceFlag } = await this.mesh.predictInto((pixels) => humanMeshCrop(image, box, angle, pixels));
    const score = Math.round(100 * faceFlag) / 100;
    if (!(score > this.options.minConfidence)) return undefined;
    // Back to the image as human does: scaled by the box over the crop size about the crop's centre,
    // turned by the roll, moved to the box centre, truncated to whole pixels.
    const mesh: Array<readonly [number, number, number]> = [];
    let minX = Infinity;
    let maxX = -Infinity;
    let minY = Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < MESH_POINTS; i++) {
      const u = (boxWidth / MESH_INPUT_SIZE) * ((coords[i * 3] ?? 0) - MESH_INPUT_SIZE / 2);
      const v = (boxHeight / MESH_INPUT_SIZE) * ((coords[i * 3 + 1] ?? 0) - MESH_INPUT_SIZE / 2);
      const x = Math.trunc(u * cos - v * sin + cx);
      const y = Math.trunc(u * sin + v * cos + cy);
      mesh.push([x, y, Math.trunc(coords[i * 3 + 2] ?? 0)]);
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    // The face box: the detector's box size, centred on the mesh, clipped to the image.
    const left = (minX + maxX) / 2 - boxWidth / 2;
    const top = (minY + maxY) / 2 - boxHeight / 2;
    const x0 = Math.max(0, left);
    const y0 = Math.max(0, top);
    return {
      box: [
        Math.trunc(x0),
        Math.trunc(y0),
        Math.trunc(Math.min(width, left + boxWidth) - x0),
        Math.trunc(Math.min(height, top + boxHeight) - y0),
      ],
      score,
      mesh,
      pose: meshHeadPose(mesh, Math.max(boxWidth, boxHeight), MESH_INPUT_SIZE),
      description: undefined,
    };
  }
}

/**
 * The 192×192 crop human's mesh pass reads, sample for sample: TF.js `rotateWithOffset` (the image
 * turned by `angle` about the box centre, nearest pixel, 0 outside) when the roll is large, then
 * `cropAndResize` of the box (bilinear on pixel indices: crop pixel j samples start/W·(W−1) +
 * j·(end−start)/W·(W−1)/191; 0 outside the image), values / 255.
 */
function humanMeshCrop(image: RgbImage, box: MeshCropBox, angle: number, out: Float32Array): void {
  const { data, width, height } = image;
  const [sx, sy] = box.start;
  const [ex, ey] = box.end;
  const cx = sx + (ex - sx) / 2;
  const cy = sy + (ey - sy) / 2;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const n = MESH_INPUT_SIZE;
  // Zero outside the image; the buffer holds the previous crop.
  out.fill(0);
  // The sampling grid is separable: per crop column, the left and right source columns (-1: outside
  // the image, left at 0) and the weight, computed once.
  const stepX = ((ex - sx) / width) * ((width - 1) / (n - 1));
  const lefts = new Int32Array(n);
  const rights = new Int32Array(n);
  const weights = new Float64Array(n);
  for (let u = 0; u < n; u++) {
    const x = (sx / width) * (width - 1) + u * stepX;
    const inside = x >= 0 && x <= width - 1;
    lefts[u] = inside ? Math.floor(x) : -1;
    rights[u] = inside ? Math.ceil(x) : -1;
    weights[u] = inside ? x - Math.floor(x) : 0;
  }
  const stepY = ((ey - sy) / height) * ((height - 1) / (n - 1));
  // Tight loops (no closures, no allocation). Offsets are inside the image, so `?? 0` never fires.
  for (let v = 0; v < n; v++) {
    const y = (sy / height) * (height - 1) + v * stepY;
    if (y < 0 || y > height - 1) continue;
    const top = Math.floor(y);
    const bottom = Math.ceil(y);
    const fy = y - top;
    let o = v * n * 3;
    for (let u = 0; u < n; u++, o += 3) {
      const left = lefts[u] ?? -1;
      if (left < 0) continue;
      const right = rights[u] ?? -1;
      const fx = weights[u] ?? 0;
      if (angle === 0) {
        const o00 = (top * width + left) * 3;
        const o10 = (top * width + right) * 3;
        const o01 = (bottom * width + left) * 3;
        const o11 = (bottom * width + right) * 3;
        for (let c = 0; c < 3; c++) {
          const p00 = data[o00 + c] ?? 0;
          const p01 = data[o01 + c] ?? 0;
          const upper = p00 + ((data[o10 + c] ?? 0) - p00) * fx;
          const lower = p01 + ((data[o11 + c] ?? 0) - p01) * fx;
          out[o + c] = (upper + (lower - upper) * fy) / 255;
        }
        continue;
      }
      // The rotated image's four pixels: their offsets into `data`, or -1 outside the image (value 0).
      const o00 = rotatedOffset(left, top, cx, cy, cos, sin, width, height);
      const o10 = rotatedOffset(right, top, cx, cy, cos, sin, width, height);
      const o01 = rotatedOffset(left, bottom, cx, cy, cos, sin, width, height);
      const o11 = rotatedOffset(right, bottom, cx, cy, cos, sin, width, height);
      for (let c = 0; c < 3; c++) {
        const p00 = o00 < 0 ? 0 : (data[o00 + c] ?? 0);
        const p10 = o10 < 0 ? 0 : (data[o10 + c] ?? 0);
        const p01 = o01 < 0 ? 0 : (data[o01 + c] ?? 0);
        const p11 = o11 < 0 ? 0 : (data[o11 + c] ?? 0);
        const upper = p00 + (p10 - p00) * fx;
        const lower = p01 + (p11 - p01) * fx;
        out[o + c] = (upper + (lower - upper) * fy) / 255;
      }
    }
  }
}

/**
 * Where TF.js's `rotateWithOffset` reads pixel (x, y) of the turned image: the nearest source pixel
 * after turning about (cx, cy), as an offset into the RGB bytes, or -1 outside the image.
 */
function rotatedOffset(
  x: number,
  y: number,
  cx: number,
  cy: number,
  cos: number,
  sin: number,
  width: number,
  height: number,
): number {
  const ix = Math.round((x - cx) * cos - (y - cy) * sin + cx);
  const iy = Math.round((x - cx) * sin + (y - cy) * cos + cy);
  return ix >= 0 && ix < width && iy >= 0 && iy < height ? (iy * width + ix) * 3 : -1;
}
