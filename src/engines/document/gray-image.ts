/** An 8-bit single-channel image, row by row. */
export interface GrayImage {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** An 8-bit RGB image, interleaved, row by row. */
export interface RgbImage {
  readonly data: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/**
 * Luma (ITU-R BT.601 weights, as OpenCV's RGB2GRAY) of an RGB image.
 *
 * @example
 * const gray = grayOf({ data: new Uint8Array([255, 0, 0]), width: 1, height: 1 }); // data [76]
 */
export function grayOf(image: RgbImage): GrayImage {
  const data = new Uint8Array(image.width * image.height);
  for (let i = 0, j = 0; i < data.length; i++, j += 3) {
    data[i] = Math.round(
      0.299 * (image.data[j] ?? 0) + 0.587 * (image.data[j + 1] ?? 0) + 0.114 * (image.data[j + 2] ?? 0),
    );
  }
  return { data, width: image.width, height: image.height };
}
