/**
 * Rendered document pages (document-render.ts) photographed in perspective: the page warped so that its
 * corners land on given points of a camera frame, over a plain desk or a cluttered one, then blurred and
 * saved as JPEG. The corners are the truth a page-geometry test checks the engine's crop against.
 */
import sharp from 'sharp';
import type { Point, Quad } from '../../src/engines/document/document-geometry.js';
import { withMats } from '../../src/engines/document/mat-scope.js';
import { cvFlag, loadOpenCv } from '../../src/engines/document/opencv-runtime.js';
import { pageSvg, requireOcrBFont, type PageOptions, type RenderedLayout } from './document-render.js';

export interface SceneOptions {
  /** Frame size; 1280×720 by default. */
  readonly width?: number;
  readonly height?: number;
  /** Where the page's corners land: top-left, top-right, bottom-right, bottom-left of the upright page. */
  readonly corners: Quad;
  /**
   * `desk`: a plain dark desk; `clutter`: a desk of the page's own tint (its edges vanish) strewn with
   * rectangles and bars of other shades; an RGB colour: a plain desk of that colour.
   */
  readonly background?: 'desk' | 'clutter' | { r: number; g: number; b: number };
  /** Gaussian blur sigma in pixels, 0 for none. */
  readonly blur?: number;
  readonly quality?: number;
  /** Seed of the clutter. */
  readonly seed?: number;
}

/** Page-placement parameters for `placedCorners`. */
export interface Placement {
  /** Centre of the page in the frame. */
  readonly cx: number;
  readonly cy: number;
  /** Page width in pixels (its bottom edge, before the turn) and width over height. */
  readonly width: number;
  readonly aspect: number;
  /** Clockwise turn in degrees. */
  readonly rotate?: number;
  /** Top edge shorter than the bottom edge by this share (page tilted back about a horizontal axis). */
  readonly tilt?: number;
  /** Right edge shorter than the left one by this share (page turned about a vertical axis). */
  readonly turn?: number;
}

/**
 * The corners of a page placed, turned and tilted in a frame (a keystone approximates perspective).
 *
 * @example
 * placedCorners({ cx: 640, cy: 360, width: 800, aspect: 125 / 88, tilt: 0.1 });
 */
export function placedCorners(p: Placement): Quad {
  const w = p.width / 2;
  const h = p.width / p.aspect / 2;
  const top = 1 - (p.tilt ?? 0);
  const right = 1 - (p.turn ?? 0);
  const raw: Point[] = [
    { x: -w * top, y: -h },
    { x: w * top, y: -h * right },
    { x: w, y: h * right },
    { x: -w, y: h },
  ];
  const r = ((p.rotate ?? 0) * Math.PI) / 180;
  const [a, b, c, d] = raw.map((q) => ({
    x: p.cx + q.x * Math.cos(r) - q.y * Math.sin(r),
    y: p.cy + q.x * Math.sin(r) + q.y * Math.cos(r),
  }));
  if (!a || !b || !c || !d) throw new RangeError('four corners');
  return [a, b, c, d];
}

/** A small deterministic generator (LCG) for the clutter. */
function seeded(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

function backgroundSvg(width: number, height: number, options: SceneOptions): string {
  const background = options.background ?? 'desk';
  if (background === 'desk')
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="rgb(48,44,40)"/></svg>`;
  if (background !== 'clutter') {
    const { r, g, b } = background;
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="rgb(${r},${g},${b})"/></svg>`;
  }
  const random = seeded(options.seed ?? 1);
  const shapes: string[] = [];
  for (let i = 0; i < 40; i++) {
    const grey = Math.round(40 + random() * 200);
    const x = random() * width;
    const y = random() * height;
    const w = 20 + random() * width * 0.3;
    const h = 4 + random() * height * 0.25;
    const turn = (random() - 0.5) * 60;
    shapes.push(
      `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="rgb(${grey},${Math.round(grey * 0.9)},${Math.round(grey * 0.8)})" transform="rotate(${turn} ${x} ${y})"/>`,
    );
  }
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#e8f0f8"/>${shapes.join('')}</svg>`;
}

/**
 * A JPEG frame with the rendered page warped onto `corners` over the chosen background.
 *
 * @example
 * const corners = placedCorners({ cx: 640, cy: 360, width: 800, aspect: 125 / 88, tilt: 0.1 });
 * const jpeg = await documentScene('TD3', mrz, { corners });
 */
export async function documentScene(
  layout: RenderedLayout,
  mrz: readonly string[],
  scene: SceneOptions,
  page: PageOptions = {},
): Promise<Buffer> {
  requireOcrBFont();
  const width = scene.width ?? 1280;
  const height = scene.height ?? 720;
  const rendered = await sharp(Buffer.from(pageSvg(layout, mrz, page)))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const background = await sharp(Buffer.from(backgroundSvg(width, height, scene)))
    .removeAlpha()
    .raw()
    .toBuffer();
  const cv = await loadOpenCv();
  const warped = withMats((keep) => {
    const source = keep(new cv.Mat(rendered.info.height, rendered.info.width, cv.CV_8UC4));
    source.data.set(rendered.data);
    const { width: w, height: h } = rendered.info;
    const [tl, tr, br, bl] = scene.corners;
    const from = keep(cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, w, 0, w, h, 0, h]));
    const to = keep(cv.matFromArray(4, 1, cv.CV_32FC2, [tl.x, tl.y, tr.x, tr.y, br.x, br.y, bl.x, bl.y]));
    const transform = keep(cv.getPerspectiveTransform(from, to));
    const out = keep(new cv.Mat());
    cv.warpPerspective(
      source,
      out,
      transform,
      new cv.Size(width, height),
      cvFlag(cv.INTER_LINEAR),
      cvFlag(cv.BORDER_CONSTANT),
      new cv.Scalar(0, 0, 0, 0),
    );
    return Uint8Array.from(out.data);
  });
  const frame = Buffer.alloc(width * height * 3);
  for (let i = 0, j = 0; i < frame.length; i += 3, j += 4) {
    const alpha = (warped[j + 3] ?? 0) / 255;
    for (let c = 0; c < 3; c++) {
      frame[i + c] = Math.round((warped[j + c] ?? 0) * alpha + (background[i + c] ?? 0) * (1 - alpha));
    }
  }
  let photo = sharp(frame, { raw: { width, height, channels: 3 } });
  if (scene.blur) photo = photo.blur(scene.blur);
  return photo.jpeg({ quality: scene.quality ?? 90 }).toBuffer();
}
