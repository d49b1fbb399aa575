import { distance, type Quad } from './document-geometry.js';
import type { RgbImage } from './gray-image.js';
import { withMats } from './mat-scope.js';
import { cvFlag, type OpenCv } from './opencv-runtime.js';

/**
 * The page inside `quad` (reading order), warped upright and flat to a `width`-pixel-wide image of
 * `aspectRatio` (width over height; by default the quad's own): one perspective warp crops, deskews and
 * undoes a keystone. A page outlined by its contour under perspective is foreshortened, so its known
 * aspect ratio is passed. Parts of the quad outside the frame come out black (never mistaken for glare
 * or paper).
 *
 * @example
 * const page = cropPage(cv, decoded, pageQuadFromBand(band, 'TD3'), 1000); // RGB, 1000 × ~704
 */
export function cropPage(cv: OpenCv, image: RgbImage, quad: Quad, width: number, aspectRatio?: number): RgbImage {
  const [tl, tr, br, bl] = quad;
  const aspect =
    aspectRatio === undefined
      ? (distance(tl, bl) + distance(tr, br)) / (distance(tl, tr) + distance(bl, br))
      : 1 / aspectRatio;
  const height = Math.max(1, Math.round(width * aspect));
  return withMats((keep) => {
    const source = keep(new cv.Mat(image.height, image.width, cv.CV_8UC3));
    source.data.set(image.data);
    const from = keep(cv.matFromArray(4, 1, cv.CV_32FC2, [tl.x, tl.y, tr.x, tr.y, br.x, br.y, bl.x, bl.y]));
    const to = keep(cv.matFromArray(4, 1, cv.CV_32FC2, [0, 0, width, 0, width, height, 0, height]));
    const transform = keep(cv.getPerspectiveTransform(from, to));
    const out = keep(new cv.Mat());
    // INTER_AREA is not a warp option; a page shrunk by more than 2× is smoothed first against aliasing.
    const shrink = distance(tl, tr) / width;
    let input = source;
    if (shrink > 2) {
      input = keep(new cv.Mat());
      const k = 2 * Math.floor(shrink / 2) + 1;
      cv.GaussianBlur(source, input, new cv.Size(k, k), 0);
    }
    cv.warpPerspective(
      input,
      out,
      transform,
      new cv.Size(width, height),
      cvFlag(cv.INTER_LINEAR),
      cvFlag(cv.BORDER_CONSTANT),
      new cv.Scalar(0, 0, 0, 255),
    );
    return { data: Uint8Array.from(out.data), width, height };
  });
}
