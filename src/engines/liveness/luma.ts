import type { RgbImage } from '../face/raster.js';

/** A grey (luma, 0..255) image as floats, row by row. */
export interface LumaPlane {
  readonly data: Float32Array;
  readonly width: number;
  readonly height: number;
}

/**
 * Rec. 601 luma of an interleaved RGB image (bytes, or floats as the crops are).
 *
 * @example
 * const luma = lumaPlane(image); // computed once per frame, then shared by every frame measure
 */
export function lumaPlane(
  image: { readonly data: ArrayLike<number>; readonly width: number; readonly height: number } | RgbImage,
): LumaPlane {
  const { data, width, height } = image;
  if (data.length < width * height * 3)
    throw new RangeError(`${width}×${height} RGB needs ${width * height * 3} values`);
  const out = new Float32Array(width * height);
  // In bounds after the check above, so the `?? 0` never fires.
  for (let i = 0; i < out.length; i++)
    out[i] = 0.299 * (data[i * 3] ?? 0) + 0.587 * (data[i * 3 + 1] ?? 0) + 0.114 * (data[i * 3 + 2] ?? 0);
  return { data: out, width, height };
}

/**
 * Box-averaged downscale: each output pixel is the mean of the source pixels that fall in it.
 *
 * @example
 * boxDownscale(lumaPlane(image), 16, 16); // a 16×16 thumbnail
 */
export function boxDownscale(plane: LumaPlane, width: number, height: number): LumaPlane {
  const sums = new Float64Array(width * height);
  const counts = new Uint32Array(width * height);
  // Output column of every source x, computed once rather than per pixel.
  const columnOf = Uint32Array.from({ length: plane.width }, (_, x) =>
    Math.min(width - 1, Math.floor((x * width) / plane.width)),
  );
  for (let y = 0; y < plane.height; y++) {
    const rowCell = Math.min(height - 1, Math.floor((y * height) / plane.height)) * width;
    for (let x = 0; x < plane.width; x++) {
      // In bounds: columnOf maps into the output row, and the plane holds width × height values.
      const cell = rowCell + (columnOf[x] ?? 0);
      sums[cell] = (sums[cell] ?? 0) + (plane.data[y * plane.width + x] ?? 0);
      counts[cell] = (counts[cell] ?? 0) + 1;
    }
  }
  return { data: Float32Array.from(sums, (s, i) => s / Math.max(1, counts[i] ?? 0)), width, height };
}
